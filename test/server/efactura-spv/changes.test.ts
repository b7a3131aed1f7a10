import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollSubmissions } from '../../../server/modules/efactura-spv/submissions';
import { DIALECTS } from '../../support/storage';
import { firm, invoice, startEnv, type Env, type Firm } from './helpers';

/** The e-Factura status an invoice shows is a change of the invoice, even when the SPV poller makes it. */
describe.each(DIALECTS)('e-Factura status changes and updated_since on %s', (dialect) => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  const changedInvoices = async (f: Firm, since: number) =>
    (await f.ok('GET', `/invoices?updated_since=${since}&sort=updated_at&order=asc`)).body.data.data as Array<{ id: string; efactura_status: string; updated_at: number }>;

  it('send-to-spv and the poller’s verdict bump the invoice’s updated_at; a poll that changes nothing does not', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    const other = await invoice(f);

    env.clock.advance(5);
    let since = env.clock.now();
    await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(await changedInvoices(f, since)).toMatchObject([{ id: inv.id, efactura_status: 'pending', updated_at: since }]);

    // ANAF answers "in prelucrare": the submission moves on, the invoice stays `pending` and is no change.
    env.clock.advance(60);
    since = env.clock.now();
    await pollSubmissions(env.services, since);
    expect((await f.ok('GET', `/efactura/submissions?invoice_id=${inv.id}`)).body.data.data[0].status).toBe('processing');
    expect(await changedInvoices(f, since)).toEqual([]);

    // The verdict: accepted, written by the poller (no request of the firm), listed as a change.
    env.clock.advance(120);
    since = env.clock.now();
    await pollSubmissions(env.services, since);
    expect(await changedInvoices(f, since)).toMatchObject([{ id: inv.id, efactura_status: 'accepted', updated_at: since }]);
    expect((await changedInvoices(f, 0)).map((i) => i.id)).toContain(other.id);
  });
});
