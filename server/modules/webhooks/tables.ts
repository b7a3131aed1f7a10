/** A firm's webhook endpoint: where its events are posted, and the secret that signs them. */
export interface WebhookEndpointsTable {
  id: string;
  company_id: string;
  url: string;
  /** JSON array of event names, `*` for all. */
  events_json: string;
  is_active: number;
  description: string | null;
  /**
   * The HMAC signing secret, in clear: the service must sign with it, so a hash would not do. It
   * authenticates our posts to the firm's receiver; it grants nothing on this service.
   */
  secret: string;
  last_delivery_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * The outbox: one row per change, written in the transaction of the change itself, so an event exists
 * exactly when its change was committed. The dispatcher fans it out into deliveries.
 */
export interface WebhookEventsTable {
  id: string;
  company_id: string;
  type: string;
  /** The `data` member of the body: the object as the API returns it. */
  data_json: string;
  /** 0 until fanned out into deliveries. */
  dispatched: number;
  created_at: number;
  /**
   * Order of writing, finer than the second of `created_at`: the events of one transaction (an invoice
   * created and issued) are posted in the order they were written.
   */
  seq: number;
}

/** One event for one endpoint, with its attempts so far (the delivery log). */
export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** The body posted, fixed when the delivery is made: retries and replays send the same bytes. */
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  /** Automatic attempts since the last replay: what the backoff schedule counts. */
  round_attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  /** When the next attempt is due (pending only); moved ahead while a worker holds the row. */
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
