import { addMessages } from '../../platform/messages';

/** Codes only the document template routes answer. */
addMessages({
  template_limit_reached: {
    en: 'The firm already has {max} templates, the most it can have. Delete one first.',
    ro: 'Firma are deja {max} șabloane, cât poate avea cel mult. Ștergeți mai întâi unul.',
  },
  template_type_mismatch: {
    en: 'The template is for {template_type} documents, and this document is {document_type}.',
    ro: 'Șablonul este pentru documente de tip {template_type}, iar acest document este {document_type}.',
  },
});
