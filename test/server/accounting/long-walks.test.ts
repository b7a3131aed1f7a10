import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../server/platform/ids';
import { startTestServer, type TestServer } from '../../support/server';

/**
 * A journal over a long period walks its invoices 500 at a time. On SQLite every query answers
 * synchronously, so without a step back into the event loop between pages the whole walk held the
 * service: a client asking for anything else waited until the journal was done (issue 17).
 */
describe('a long journal on sqlite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets other requests through while it walks the period', async () => {
    const { api_key: key } = await server.key();
    const client = (await server.api(key, 'POST', '/clients', { name: 'Client SRL', cui: 'RO18547290' })).body.data.id as string;
    const series = (await server.api(key, 'POST', '/invoice-series', { name: 'LW' })).body.data.id as string;
    const issued = await server.api(key, 'POST', '/invoices', { client_id: client, series_id: series, items: [{ description: 'Cafea', quantity: 1, price: 45.5, vat_rate: 21 }] });
    expect(issued.status).toBe(201);
    const db = server.storage.db;
    const template = await db.selectFrom('invoices').selectAll().where('id', '=', issued.body.data.id).executeTakeFirstOrThrow();
    const copies = 20_000;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < copies; i += 500) {
        await trx.insertInto('invoices').values(Array.from({ length: 500 }, (_, k) => ({
          ...template, id: newId('inv'), series_id: newId('ser'), number: i + k + 1, full_number: `LW-${i + k + 1}`, client_local_uuid: null,
        }))).execute();
      }
    });
    const period = `start_date=${template.issue_date}&end_date=${template.issue_date}`;

    const order: string[] = [];
    const journal = server.api(key, 'GET', `/accounting/journals/sales?${period}&per_page=1`).then((r) => {
      order.push('journal');
      return r;
    });
    // Sent once the journal is surely being walked; answered while it is.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const started = performance.now();
    const me = await server.api(key, 'GET', '/me');
    const meMs = performance.now() - started;
    order.push('me');
    const done = await journal;
    expect(me.status).toBe(200);
    expect(done.status).toBe(200);
    expect(done.body.data.document_count).toBe(copies + 1);
    expect(order).toEqual(['me', 'journal']);
    // A page of 500 invoices takes a few milliseconds: the other request waits for one page, not the walk.
    expect(meMs).toBeLessThan(500);
  });
});
