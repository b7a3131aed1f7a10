import { addMessages } from '../../platform/messages';

/** Codes of the documents' PDFs (and of the e-mails that carry them). */
addMessages({
  pdf_not_available: {
    en: 'This service does not render PDFs (no PDF renderer is configured). Print the document from the Tejghea app, or ask the administrator to set CHROMIUM_PATH.',
    ro: 'Acest serviciu nu generează PDF-uri (nu este configurat un motor de tipărire). Tipăriți documentul din aplicația Tejghea sau cereți administratorului să seteze CHROMIUM_PATH.',
  },
  pdf_renderer_unavailable: {
    en: 'The PDF could not be generated now: the print engine did not start ({detail}). Try again later.',
    ro: 'PDF-ul nu a putut fi generat acum: motorul de tipărire nu a pornit ({detail}). Încercați din nou mai târziu.',
  },
});
