import { addMessages, hasMessage } from '../../platform/messages';
// The invoicing module owns `oauth_not_configured` and `invoice_is_draft`; loading its texts first
// lets this module answer the same codes with the same words.
import '../invoicing/messages';

const shared = {
  oauth_not_configured: {
    en: 'e-Invoicing needs the OAuth link with ANAF, which this company has not completed.',
    ro: 'e-Factura necesită legătura OAuth cu ANAF, pe care această firmă nu a finalizat-o.',
  },
  invoice_is_draft: {
    en: 'This operation needs an issued invoice; this one is still a draft.',
    ro: 'Această operație cere o factură emisă; aceasta este încă ciornă.',
  },
};
for (const [code, text] of Object.entries(shared)) if (!hasMessage(code)) addMessages({ [code]: text });

addMessages({
  anaf_not_configured: {
    en: 'This server is not configured to talk to ANAF ({what}). Set the ANAF_* environment variables.',
    ro: 'Acest server nu este configurat pentru ANAF ({what}). Setați variabilele de mediu ANAF_*.',
  },
  oauth_state_invalid: {
    en: 'The `state` is unknown, expired or already used. Start the link again from GET /efactura/oauth/authorize-url.',
    ro: 'Valoarea `state` este necunoscută, expirată sau deja folosită. Reluați legarea de la GET /efactura/oauth/authorize-url.',
  },
  oauth_code_rejected: {
    en: 'ANAF refused the authorization code ({detail}). Codes are single use and expire within a minute: consent again.',
    ro: 'ANAF a refuzat codul de autorizare ({detail}). Codurile sunt de unică folosință și expiră într-un minut: reluați consimțământul.',
  },
  oauth_reconsent_required: {
    en: 'ANAF no longer accepts this company’s authorization (expired or revoked). Link the company with ANAF again.',
    ro: 'ANAF nu mai acceptă autorizarea acestei firme (expirată sau revocată). Legați din nou firma cu ANAF.',
  },
  anaf_token_unreadable: {
    en: 'The stored ANAF authorization cannot be decrypted with this server’s ANAF_TOKEN_KEY. Link the company with ANAF again.',
    ro: 'Autorizarea ANAF salvată nu poate fi decriptată cu ANAF_TOKEN_KEY al acestui server. Legați din nou firma cu ANAF.',
  },
  anaf_quota_reached: {
    en: 'ANAF allows {limit} requests of this kind a day for one message, and today\'s are used up for message {id}. Nothing was lost: try again tomorrow; we do not ask ANAF again before then.',
    ro: 'ANAF permite {limit} cereri de acest fel pe zi pentru un mesaj, iar cele de azi pentru mesajul {id} s-au epuizat. Nu s-a pierdut nimic: reîncercați mâine; până atunci nu mai întrebăm ANAF.',
  },
  anaf_unavailable: {
    en: 'ANAF could not be reached or answered with an error: {detail}',
    ro: 'ANAF nu a putut fi contactat sau a răspuns cu o eroare: {detail}',
  },
  anaf_timeout: {
    en: 'ANAF did not answer in time: {detail}',
    ro: 'ANAF nu a răspuns la timp: {detail}',
  },
  efactura_invalid_invoice: {
    en: 'This invoice cannot be written as a valid e-Factura; `fields` says what to complete or correct.',
    ro: 'Această factură nu poate fi scrisă ca e-Factura validă; `fields` arată ce trebuie completat sau corectat.',
  },
  invoice_is_proforma: {
    en: 'A proforma invoice is not a fiscal document and is not sent to e-Factura.',
    ro: 'O factură proformă nu este document fiscal și nu se trimite în e-Factura.',
  },
  efactura_not_available: {
    en: 'This supplier bill has no e-Factura message (it was entered by hand), so ANAF has no PDF of it.',
    ro: 'Această factură de furnizor nu provine din e-Factura (a fost introdusă manual), deci ANAF nu are un PDF al ei.',
  },
  company_not_found: {
    en: 'ANAF’s registry has no company with CUI {cui}.',
    ro: 'Registrul ANAF nu conține nicio firmă cu CUI {cui}.',
  },
  balance_sheet_not_published: {
    en: 'ANAF has not published a balance sheet of CUI {cui} for {years}.',
    ro: 'ANAF nu a publicat un bilanț al CUI {cui} pentru {years}.',
  },
  supplier_bill_already_paid: {
    en: 'This supplier bill is already paid.',
    ro: 'Această factură de furnizor este deja plătită.',
  },
  supplier_bill_has_expense: {
    en: 'This supplier bill was already turned into expense {expense_id}.',
    ro: 'Această factură de furnizor a fost deja transformată în cheltuiala {expense_id}.',
  },
  supplier_bill_exists: {
    en: 'This supplier already has a bill numbered {invoice_number} ({id}).',
    ro: 'Acest furnizor are deja o factură cu numărul {invoice_number} ({id}).',
  },
});

/** Short texts of the `message` member of a submission, by status, in both languages. */
export const SUBMISSION_MESSAGES = {
  uploading: { en: 'The invoice is being uploaded to ANAF.', ro: 'Factura se încarcă la ANAF.' },
  uploaded: { en: 'ANAF received the invoice (upload index {index}); its verdict follows.', ro: 'ANAF a primit factura (index încărcare {index}); urmează verdictul.' },
  processing: { en: 'ANAF is still processing the invoice (upload index {index}).', ro: 'ANAF încă procesează factura (index încărcare {index}).' },
  retrying: {
    en: 'The upload did not complete ({detail}); it is retried automatically, after checking ANAF’s message list.',
    ro: 'Încărcarea nu s-a încheiat ({detail}); se reia automat, după verificarea listei de mesaje ANAF.',
  },
  accepted: { en: 'ANAF accepted the invoice (download id {download}).', ro: 'ANAF a acceptat factura (id descărcare {download}).' },
  rejected: { en: 'ANAF rejected the invoice: {detail}', ro: 'ANAF a respins factura: {detail}' },
  failed: { en: 'The submission failed: {detail}', ro: 'Trimiterea a eșuat: {detail}' },
  already: { en: 'The invoice was already submitted; this is that submission.', ro: 'Factura a fost deja trimisă; aceasta este trimiterea respectivă.' },
} as const;
