import { addMessages } from '../../platform/messages';

/** Codes of sending documents by e-mail. */
addMessages({
  smtp_not_configured: {
    en: 'No outgoing mail server is set for this company: set it with PUT /settings/email first.',
    ro: 'Firma nu are setat un server de e-mail pentru trimitere: setați-l întâi cu PUT /settings/email.',
  },
  email_no_recipient: {
    en: 'No recipient: send `to` (or `recipients`), or give the client an e-mail address.',
    ro: 'Lipsește destinatarul: trimiteți `to` (sau `recipients`) ori completați adresa de e-mail a clientului.',
  },
  smtp_unreachable: {
    en: 'The mail server could not be reached ({detail}). Check the host and port in the e-mail settings; nothing was sent.',
    ro: 'Serverul de e-mail nu a putut fi contactat ({detail}). Verificați adresa și portul din setările de e-mail; nu s-a trimis nimic.',
  },
  smtp_auth_failed: {
    en: 'The mail server refused the user name or password ({detail}). Nothing was sent.',
    ro: 'Serverul de e-mail a refuzat utilizatorul sau parola ({detail}). Nu s-a trimis nimic.',
  },
  smtp_rejected: {
    en: 'The mail server refused the message ({detail}). Nothing was sent.',
    ro: 'Serverul de e-mail a refuzat mesajul ({detail}). Nu s-a trimis nimic.',
  },
  smtp_password_unreadable: {
    en: 'The stored mail server password cannot be read with this service’s key (ANAF_TOKEN_KEY changed?). Set the password again.',
    ro: 'Parola salvată a serverului de e-mail nu poate fi citită cu cheia acestui serviciu (s-a schimbat ANAF_TOKEN_KEY?). Setați parola din nou.',
  },
});
