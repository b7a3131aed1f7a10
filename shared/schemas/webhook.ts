import { z } from 'zod';
import { zId } from './common';

/**
 * The events a webhook endpoint can subscribe to (docs/api-decisions.md, "Webhooks"). `*` subscribes
 * to all of them, present and future. `webhook.ping` is sent only by POST /webhooks/{id}/test.
 */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.created',
  'invoice.issued',
  'invoice.updated',
  'invoice.paid',
  'invoice.stornoed',
  'invoice.deleted',
  'receipt.created',
  'client.created',
  'client.updated',
  'efactura.status_changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.ping';

export const zWebhookEventName = z.enum(['*', ...WEBHOOK_EVENT_TYPES]);

/** http or https only: a webhook is a POST to a web server, never file:, ftp: or a bare host. */
export const zWebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'An http:// or https:// address, without user or password|O adresă http:// sau https://, fără utilizator sau parolă');

const zEvents = z.array(zWebhookEventName).min(1).max(WEBHOOK_EVENT_TYPES.length + 1);

export const zWebhookEndpointCreate = z
  .object({
    url: zWebhookUrl,
    events: zEvents.default(['*']),
    /** The SDK sends `active`; `is_active` is the name of the reply. */
    active: z.boolean().optional(),
    is_active: z.boolean().optional(),
    description: z.string().trim().max(500).nullable().optional(),
    /** The SDK adds its configured firm; accepted only when it names the key's own company. */
    firm_id: z.string().max(64).optional(),
  })
  .strict();

export const zWebhookEndpointUpdate = z
  .object({
    url: zWebhookUrl.optional(),
    events: zEvents.optional(),
    active: z.boolean().optional(),
    is_active: z.boolean().optional(),
    description: z.string().trim().max(500).nullable().optional(),
    /** true: a new signing secret replaces the old one at once, and this reply shows it (once). */
    rotate_secret: z.boolean().optional(),
  })
  .strict();

export const zWebhookEndpoint = z.object({
  id: zId,
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  events: z.array(z.string()),
  is_active: z.boolean(),
  description: z.string().nullable(),
  /** The signing secret: only in the reply of the create and of a rotation, null everywhere else. */
  secret: z.string().nullable(),
  /** The secret's last four characters, to tell which one a receiver holds. */
  secret_hint: z.string(),
  last_delivery_at: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof zWebhookEndpoint>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const zWebhookDelivery = z.object({
  id: zId,
  object: z.literal('webhook_delivery'),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  /** The JSON body sent, exactly the bytes every attempt posts (the signature changes with the timestamp). */
  payload: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.number().int().nullable(),
  next_attempt_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type WebhookDelivery = z.infer<typeof zWebhookDelivery>;
