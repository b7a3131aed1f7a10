import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Names of the headers of every post (docs/api-decisions.md, "Webhooks"). */
export const WEBHOOK_HEADERS = {
  id: 'x-tejghea-event-id',
  type: 'x-tejghea-event-type',
  timestamp: 'x-tejghea-timestamp',
  signature: 'x-tejghea-signature',
  delivery: 'x-tejghea-delivery-id',
} as const;

/** A new signing secret: 32 random bytes, base64url, with a prefix that says what it is. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `v1=` + hex HMAC-SHA256 of `timestamp.body` with the endpoint's secret. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The receiver's check, as documented: the same HMAC over the raw body, compared in constant time,
 * and a timestamp within `toleranceSeconds` of the receiver's clock (a replayed capture is refused).
 */
export function verifySignature(secret: string, header: string, timestamp: string, body: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const t = Number(timestamp);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, t, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
