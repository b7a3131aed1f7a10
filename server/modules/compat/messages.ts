import { addMessages } from '../../platform/messages';

/** Codes only the compat routes answer. */
addMessages({
  nothing_due: {
    en: 'This invoice is already paid in full; nothing is left to pay.',
    ro: 'Această factură este deja încasată integral; nu mai este nimic de plată.',
  },
  storno_not_duplicable: {
    en: 'A storno invoice cannot be duplicated; duplicate the original invoice instead.',
    ro: 'O factură de stornare nu poate fi duplicată; duplicați factura originală.',
  },
});
