import { addMessages } from '../../platform/messages';

/** Codes only the webhooks module answers. */
addMessages({
  webhook_limit_reached: {
    en: 'The firm already has {limit} webhook endpoints; delete one before adding another.',
    ro: 'Firma are deja {limit} adrese de webhook; ștergeți una înainte de a adăuga alta.',
  },
});
