import { addMessages } from '../../platform/messages';

/** Codes only the attachments routes answer. */
addMessages({
  attachment_too_large: {
    en: 'The file is too large (about {size_mb} MB): an attachment takes at most {limit_mb} MB.',
    ro: 'Fișierul este prea mare (aproximativ {size_mb} MB): un atașament poate avea cel mult {limit_mb} MB.',
  },
  attachment_type_not_allowed: {
    en: 'This kind of file is not kept as an attachment. Attach a PDF, an image (PNG, JPEG, WebP), a text, CSV or XML file, a ZIP archive, or an Excel or Word document (.xlsx, .docx).',
    ro: 'Acest tip de fișier nu poate fi atașat. Atașați un PDF, o imagine (PNG, JPEG, WebP), un fișier text, CSV sau XML, o arhivă ZIP ori un document Excel sau Word (.xlsx, .docx).',
  },
  attachment_type_mismatch: {
    en: 'The file is not what content_type says: its bytes are {sniffed}. Send the right content_type, or leave it out.',
    ro: 'Fișierul nu este ce spune content_type: conținutul lui este {sniffed}. Trimiteți content_type corect sau omiteți-l.',
  },
  attachment_limit_reached: {
    en: 'This document already has {max} attachments, the most it can have. Delete one first.',
    ro: 'Acest document are deja {max} atașamente, cât poate avea cel mult. Ștergeți mai întâi unul.',
  },
  attachment_quota_exceeded: {
    en: 'The firm’s attachments would exceed {limit_mb} MB together. Delete attachments you no longer need.',
    ro: 'Atașamentele firmei ar depăși împreună {limit_mb} MB. Ștergeți atașamentele de care nu mai aveți nevoie.',
  },
});
