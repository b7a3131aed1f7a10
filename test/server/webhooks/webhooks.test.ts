import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { expectError, LINE, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { dispatchWebhooks, RETRY_DELAYS } from '../../../server/modules/webhooks/dispatcher';
import { emitEvent } from '../../../server/modules/webhooks/events';
import { verifySignature, WEBHOOK_HEADERS } from '../../../server/modules/webhooks/signing';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../../../server/modules/webhooks/sender';
import { startReceiver, type Received, type Receiver } from './receiver';

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let server: TestServer;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }

  /** One pass of the worker at the test clock's now. */
  const dispatch = (settings: Partial<WebhookSettings> = {}) =>
    dispatchWebhooks({ storage: server.storage, webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, ...settings } }, server.clock.now());

  async function subscribed(firm: Firm, url: string, events: string[] = ['*']): Promise<{ id: string; secret: string }> {
    return firm.ok('POST', '/webhooks', { url, events });
  }

  const bodyOf = (r: Received) => JSON.parse(r.body) as { id: string; object: string; type: string; created_at: number; data: { id: string; [k: string]: unknown } };

  it('registers endpoints: the secret is shown once, URLs and events are checked, PATCH and PUT update', async () => {
    const firm = await newFirm(server);
    const res = await firm.call('POST', '/webhooks', { url: 'https://shop.example.ro/hooks', events: ['invoice.created', 'client.created'], description: 'Magazin online' });
    expect(res.status, res.text).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({ object: 'webhook_endpoint', url: 'https://shop.example.ro/hooks', events: ['invoice.created', 'client.created'], is_active: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.secret_hint).toBe(created.secret.slice(-4));
    const stored = await server.storage.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(stored.secret).toBe(created.secret);

    const got = await firm.ok('GET', `/webhooks/${created.id}`);
    expect(got.secret).toBeNull();
    expect(got.secret_hint).toBe(created.secret_hint);
    const list = await firm.ok('GET', '/webhooks');
    expect(list.data.map((w: { id: string; secret: unknown }) => [w.id, w.secret])).toEqual([[created.id, null]]);

    // The SDK's PATCH with `active`, then PUT rotating the secret.
    const disabled = await firm.ok('PATCH', `/webhooks/${created.id}`, { active: false });
    expect(disabled).toMatchObject({ is_active: false, secret: null });
    const rotated = await firm.ok('PUT', `/webhooks/${created.id}`, { rotate_secret: true, events: ['*'] });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.events).toEqual(['*']);

    for (const bad of [
      { url: 'ftp://shop.example.ro/x' }, { url: 'file:///etc/passwd' }, { url: 'not a url' }, { url: 'https://u:p@shop.example.ro/' },
      { url: 'https://shop.example.ro/', events: ['invoice.exploded'] }, { url: 'https://shop.example.ro/', events: [] },
      { url: 'https://shop.example.ro/', firm_id: 'cmp_someone_else' },
    ]) {
      const refused = await firm.call('POST', '/webhooks', bad);
      expectError(refused, 422, 'validation_error');
    }
    // Members no webhook has (a secret is ours to choose): named by the service-wide unknown-member check.
    for (const bad of [{ url: 'https://shop.example.ro/', secret_code: 'x' }, { url: 'https://shop.example.ro/', secret: 'chosen-by-caller' }]) {
      expectError(await firm.call('POST', '/webhooks', bad), 422, 'unknown_parameter');
    }
    expectError(await firm.call('GET', '/webhooks/wh_nothing'), 404, 'resource_missing');

    // The SDK's create, with its configured firm: accepted when it is the key's own.
    const sdk = await firm.call('POST', '/webhooks', { url: 'https://erp.example.ro/in', events: ['*'], active: true, firm_id: firm.companyId });
    expect(sdk.status, sdk.text).toBe(201);
    const deleted = await firm.call('DELETE', `/webhooks/${created.id}`);
    expect(deleted.body).toMatchObject({ success: true, object: 'webhook_endpoint', id: created.id, deleted: true });
    expectError(await firm.call('GET', `/webhooks/${created.id}`), 404, 'resource_missing');
  });

  it('posts a signed event that verifies with the secret, once, and logs the delivery', async () => {
    const firm = await newFirm(server);
    const r = await receiver();
    const hook = await subscribed(firm, r.url);
    const client = await newClient(firm, 'Client Webhook SRL');
    expect(r.received).toHaveLength(0); // nothing is posted inside the request

    const report = await dispatch();
    expect(report).toMatchObject({ events: 1, attempts: 1, succeeded: 1 });
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    const body = bodyOf(got!);
    expect(body).toMatchObject({ object: 'event', type: 'client.created', data: { object: 'client', id: client.id, name: 'Client Webhook SRL' } });
    expect(got!.headers[WEBHOOK_HEADERS.id]).toBe(body.id);
    expect(got!.headers[WEBHOOK_HEADERS.type]).toBe('client.created');
    expect(got!.headers['content-type']).toBe('application/json');
    const timestamp = String(got!.headers[WEBHOOK_HEADERS.timestamp]);
    expect(Number(timestamp)).toBe(server.clock.now());
    const sig = String(got!.headers[WEBHOOK_HEADERS.signature]);
    expect(verifySignature(hook.secret, sig, timestamp, got!.body, server.clock.now())).toBe(true);
    // The recipe of docs/api-decisions.md, by hand: HMAC-SHA256 of "<timestamp>.<raw body>".
    const { createHmac } = await import('node:crypto');
    expect(sig).toBe(`v1=${createHmac('sha256', hook.secret).update(`${timestamp}.${got!.body}`).digest('hex')}`);
    // A signature made with another secret, or over another body, does not verify.
    expect(verifySignature('whsec_other', sig, timestamp, got!.body, server.clock.now())).toBe(false);
    expect(verifySignature(hook.secret, sig, timestamp, got!.body.replace('Webhook', 'Hacked'), server.clock.now())).toBe(false);

    expect(await dispatch()).toMatchObject({ events: 0, attempts: 0 });
    expect(r.received).toHaveLength(1);
    const log = await firm.ok('GET', `/webhooks/${hook.id}/deliveries`);
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ event_id: body.id, event_type: 'client.created', status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null, payload: got!.body });
    // The SDK's path for the same log, with its `success` filter.
    const sdkLog = await firm.ok('GET', `/webhooks/${hook.id}/logs?status=success&page=1&per_page=50`);
    expect(sdkLog.data.map((d: { id: string }) => d.id)).toEqual([log.data[0].id]);
    expect((await firm.ok('GET', `/webhooks/${hook.id}/logs?status=failed`)).data).toHaveLength(0);

    // 30 days on, the finished delivery and its event are forgotten.
    server.clock.advance(29 * 86400);
    await dispatch();
    expect((await firm.ok('GET', `/webhooks/${hook.id}/deliveries`)).data).toHaveLength(1);
    server.clock.advance(2 * 86400);
    await dispatch();
    expect((await firm.ok('GET', `/webhooks/${hook.id}/deliveries`)).data).toHaveLength(0);
    expect(await server.storage.db.selectFrom('webhook_events').select('id').where('id', '=', body.id).execute()).toHaveLength(0);
  });

  it('sends the invoice events of its life, in order, only those subscribed', async () => {
    const firm = await newFirm(server);
    const clientId = (await newClient(firm)).id;
    await newSeries(firm, { is_primary: true });
    const r = await receiver();
    const onlyInvoices = await receiver();
    await subscribed(firm, r.url);
    await subscribed(firm, onlyInvoices.url, ['invoice.paid', 'invoice.stornoed']);

    const draft = await firm.ok('POST', '/invoices', { client_id: clientId, items: [LINE], is_draft: true });
    await firm.ok('PUT', `/invoices/${draft.id}`, { observations: 'Livrare luni' });
    const issued = await firm.ok('POST', `/invoices/${draft.id}/issue`, {});
    await firm.ok('POST', '/payments', { invoice_id: issued.id, amount: issued.totals.total });
    const storno = await firm.ok('POST', `/invoices/${issued.id}/storno`, {});
    await firm.ok('POST', '/receipts', { client_id: clientId, amount: 10 });
    await dispatch();

    const events = r.received.map((x) => { const b = bodyOf(x); return [b.type, b.data.id]; });
    expect(events).toEqual([
      ['invoice.created', draft.id],
      ['invoice.updated', draft.id],
      ['invoice.issued', draft.id],
      ['invoice.paid', draft.id],
      ['invoice.created', storno.id],
      ['invoice.issued', storno.id],
      ['invoice.stornoed', draft.id],
      ['receipt.created', expect.stringMatching(/^rcpt_/)],
    ]);
    const paid = bodyOf(r.received[3]!).data;
    expect(paid).toMatchObject({ paid_state: 'paid', amount_paid: issued.totals.total, amount_due: 0, full_number: issued.full_number });
    expect(bodyOf(r.received[6]!).data).toMatchObject({ status: 'voided', storno_id: storno.id });
    expect(onlyInvoices.received.map((x) => bodyOf(x).type)).toEqual(['invoice.paid', 'invoice.stornoed']);
    // One event, one id, the same bytes for every endpoint.
    expect(onlyInvoices.received[0]!.body).toBe(r.received[3]!.body);
  });

  it('retries a failing receiver with backoff (1 min, 5 min, 30 min, 2 h, 12 h), then gives up; a replay re-sends the same payload', async () => {
    const firm = await newFirm(server);
    const r = await receiver();
    r.reply = 500;
    const hook = await subscribed(firm, r.url);
    await newClient(firm);
    const start = server.clock.now();

    await dispatch();
    expect(r.received).toHaveLength(1);
    let [delivery] = (await firm.ok('GET', `/webhooks/${hook.id}/deliveries`)).data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, next_attempt_at: start + 60 });
    expect(delivery.last_error).toContain('HTTP 500');

    let elapsed = 0;
    for (const [i, wait] of RETRY_DELAYS.entries()) {
      // A second early is too early: nothing is posted.
      // (Counted at the receiver: other tests' firms may have retries of their own due in the same pass.)
      server.clock.set(start + elapsed + wait - 1);
      await dispatch();
      expect(r.received, `before retry ${i + 1}`).toHaveLength(i + 1);
      server.clock.set(start + elapsed + wait);
      elapsed += wait;
      await dispatch();
      expect(r.received, `retry ${i + 1}`).toHaveLength(i + 2);
    }
    [delivery] = (await firm.ok('GET', `/webhooks/${hook.id}/deliveries`)).data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 6, next_attempt_at: null, last_status_code: 500 });
    server.clock.advance(7 * 86400);
    await dispatch();
    expect(r.received).toHaveLength(6);
    // Every attempt carried the same body, each signed at its own time.
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    expect(r.received.map((x) => Number(x.headers[WEBHOOK_HEADERS.timestamp]))).toEqual([0, 60, 360, 2160, 9360, 52560].map((s) => start + s));
    const endpoint = await firm.ok('GET', `/webhooks/${hook.id}`);
    expect(endpoint.last_error).toContain('HTTP 500');

    // The receiver is fixed; the replay posts the same payload again, now, as a 7th attempt.
    r.reply = 204;
    const replayed = await firm.ok('POST', `/webhooks/${hook.id}/deliveries/${delivery.id}/replay`);
    expect(replayed).toMatchObject({ id: delivery.id, status: 'succeeded', attempts: 7, last_status_code: 204, last_error: null });
    expect(r.received).toHaveLength(7);
    const last = r.received[6]!;
    expect(last.body).toBe(r.received[0]!.body);
    expect(last.headers[WEBHOOK_HEADERS.id]).toBe(r.received[0]!.headers[WEBHOOK_HEADERS.id]);
    expect(verifySignature(hook.secret, String(last.headers[WEBHOOK_HEADERS.signature]), String(last.headers[WEBHOOK_HEADERS.timestamp]), last.body, server.clock.now())).toBe(true);
    // The SDK's retry path does the same.
    const again = await firm.ok('POST', `/webhooks/${hook.id}/logs/${delivery.id}/retry`);
    expect(again).toMatchObject({ status: 'succeeded', attempts: 8 });
    expect(r.received).toHaveLength(8);
  });

  it('posts nothing for a change that was rolled back', async () => {
    const firm = await newFirm(server);
    const r = await receiver();
    await subscribed(firm, r.url);
    await newSeries(firm, { is_primary: true });
    // The invoice's new client is inserted (and its event written) before the unknown reservation refuses the whole create.
    const refused = await firm.call('POST', '/invoices', {
      client: { name: 'Client Fantomă SRL', cui: 'RO18547290', address: 'Str. Mică 2', city: 'Iași', county: 'Iași' },
      items: [LINE], reservation_token: 'rsv_nope', device_id: 'dev-a',
    });
    expect(refused.status, refused.text).toBe(404);
    const clients = await server.storage.db.selectFrom('clients').select('id').where('company_id', '=', firm.companyId).execute();
    expect(clients).toHaveLength(0);
    // The outbox directly: an event written in a transaction that then fails is gone with it.
    await expect(
      server.storage.db.transaction().execute(async (trx) => {
        await emitEvent(trx, firm.companyId, 'client.created', { object: 'client', id: 'cli_rolledback' }, server.clock.now());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await dispatch()).toMatchObject({ events: 0, attempts: 0 });
    expect(r.received).toHaveLength(0);
    // And the same call that commits is sent: the two above could only have been stopped by the rollback.
    await server.storage.db.transaction().execute((trx) => emitEvent(trx, firm.companyId, 'client.created', { object: 'client', id: 'cli_committed' }, server.clock.now()));
    await dispatch();
    expect(r.received.map((x) => bodyOf(x).data.id)).toEqual(['cli_committed']);
  });

  it('never delivers one firm\'s events to another firm\'s endpoints, nor shows its webhooks', async () => {
    const owner = await newFirm(server);
    const stranger = await newFirm(server);
    const ownerReceiver = await receiver();
    const strangerReceiver = await receiver();
    const hook = await subscribed(owner, ownerReceiver.url);
    await subscribed(stranger, strangerReceiver.url);
    const strangersClient = await newClient(stranger, 'Străin SRL');
    const ownersClient = await newClient(owner, 'Propriu SRL');
    await dispatch();
    expect(ownerReceiver.received.map((x) => bodyOf(x).data.id)).toEqual([ownersClient.id]);
    expect(strangerReceiver.received.map((x) => bodyOf(x).data.id)).toEqual([strangersClient.id]);
    const ownDelivery = (await owner.ok('GET', `/webhooks/${hook.id}/deliveries`)).data[0];
    expectError(await stranger.call('GET', `/webhooks/${hook.id}`), 404, 'resource_missing');
    expectError(await stranger.call('GET', `/webhooks/${hook.id}/deliveries`), 404, 'resource_missing');
    expectError(await stranger.call('POST', `/webhooks/${hook.id}/deliveries/${ownDelivery.id}/replay`), 404, 'resource_missing');
    expect((await stranger.ok('GET', '/webhooks')).data.map((w: { id: string }) => w.id)).not.toContain(hook.id);
    expect(ownerReceiver.received).toHaveLength(1);
  });

  it('a test ping posts at once; disabled endpoints wait; redirects are not followed; a silent receiver times out', async () => {
    const firm = await newFirm(server);
    const r = await receiver();
    const hook = await subscribed(firm, r.url);
    const ping = await firm.ok('POST', `/webhooks/${hook.id}/test`);
    expect(ping).toMatchObject({ event_type: 'webhook.ping', status: 'succeeded', attempts: 1, last_status_code: 200 });
    expect(bodyOf(r.received[0]!)).toMatchObject({ type: 'webhook.ping', data: { id: hook.id } });

    await firm.ok('PATCH', `/webhooks/${hook.id}`, { active: false });
    await newClient(firm);
    await dispatch();
    expect(r.received).toHaveLength(1);

    // A redirect to another host is a failed attempt, and the other host gets nothing.
    const elsewhere = await receiver();
    r.reply = 302;
    r.replyHeaders = { location: elsewhere.url };
    const redirected = await firm.ok('POST', `/webhooks/${hook.id}/test`);
    expect(redirected).toMatchObject({ status: 'failed', last_status_code: 302 });
    expect(redirected.last_error).toContain('not followed');
    expect(elsewhere.received).toHaveLength(0);

    // A receiver that never answers: the attempt ends at the timeout and is retried later.
    const silent = await receiver();
    silent.reply = 'hang';
    const other = await newFirm(server);
    const silentHook = await subscribed(other, silent.url);
    await newClient(other);
    const before = Date.now();
    expect(await dispatch({ timeoutMs: 300 })).toMatchObject({ attempts: 1, failed: 1 });
    expect(Date.now() - before).toBeLessThan(5000);
    const [late] = (await other.ok('GET', `/webhooks/${silentHook.id}/deliveries`)).data;
    expect(late).toMatchObject({ status: 'pending', last_status_code: null, next_attempt_at: server.clock.now() + 60 });
    expect(late.last_error).toContain('timeout');
  });

  it('with private addresses blocked (hosted service), refuses loopback URLs and never posts to them', async () => {
    const firm = await newFirm(server);
    const r = await receiver();
    const hook = await subscribed(firm, r.url);
    await newClient(firm);
    expect(await dispatch({ blockPrivateAddresses: true })).toMatchObject({ attempts: 1, failed: 1 });
    expect(r.received).toHaveLength(0);
    const [delivery] = (await firm.ok('GET', `/webhooks/${hook.id}/deliveries`)).data;
    expect(delivery.last_error).toContain('private address');
    const blocking = await startInvoicingServerWith(dialect, { timeoutMs: 1000, blockPrivateAddresses: true });
    try {
      const key = await blocking.key();
      for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://[::1]/x', 'http://192.168.1.10/x', 'http://10.0.0.5/x']) {
        expectError(await blocking.api(key.api_key, 'POST', '/webhooks', { url }), 422, 'validation_error');
      }
      expect((await blocking.api(key.api_key, 'POST', '/webhooks', { url: 'https://93.184.216.34/x' })).status).toBe(201);
    } finally {
      await blocking.close();
    }
  });
});

async function startInvoicingServerWith(dialect: (typeof DIALECTS)[number], webhooks: WebhookSettings): Promise<TestServer> {
  const { startTestServer } = await import('../../support/server');
  return startTestServer(dialect, { extraServices: { webhooks } });
}
