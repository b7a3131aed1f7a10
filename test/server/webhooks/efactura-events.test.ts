import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollSubmissions } from '../../../server/modules/efactura-spv/submissions';
import { dispatchWebhooks } from '../../../server/modules/webhooks/dispatcher';
import { DIALECTS } from '../../support/storage';
import { firm, invoice, startEnv, type Env } from '../efactura-spv/helpers';
import { startReceiver, type Receiver } from './receiver';

describe.each(DIALECTS)('e-Factura status webhooks on %s', (dialect) => {
  let env: Env;
  let receiver: Receiver;
  beforeAll(async () => {
    env = await startEnv(dialect);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await env?.close();
  });

  it('posts efactura.status_changed as the submission goes to ANAF and comes back accepted', async () => {
    const f = await firm(env);
    await f.ok('POST', '/webhooks', { url: receiver.url, events: ['efactura.status_changed'] }, 201);
    const inv = await invoice(f);
    await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    env.clock.advance(60);
    await pollSubmissions(env.services, env.clock.now());
    env.clock.advance(120);
    await pollSubmissions(env.services, env.clock.now());
    expect((await f.ok('GET', `/invoices/${inv.id}`)).body.data.efactura_status).toBe('accepted');

    await dispatchWebhooks({ storage: env.server.storage }, env.clock.now());
    const events = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    // Only the subscribed type: the invoice's own created/issued events went nowhere.
    expect(events.map((e) => e.type)).toEqual(['efactura.status_changed', 'efactura.status_changed']);
    expect(events.map((e) => e.data)).toEqual([
      { object: 'efactura_status', invoice_id: inv.id, status: 'pending', previous_status: 'not_sent', submission_status: 'uploading', environment: 'prod' },
      { object: 'efactura_status', invoice_id: inv.id, status: 'accepted', previous_status: 'pending', submission_status: 'accepted', environment: 'prod' },
    ]);
  });
});
