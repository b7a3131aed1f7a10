import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { newClient, newFirm, newSeries, startInvoicingServer } from '../invoicing/helpers';
import { expectStockInvariant, newProduct, receive } from './helpers';

/**
 * GET /stock walked for changes, as the desktop pulls it into its cache (issue 15): `updated_since`
 * keeps the levels changed at or after an instant, `sort=updated_at&order=asc` orders them, and a sale
 * brings its product's level back into the walk.
 */
describe.each(DIALECTS)('stock levels changed since an instant, on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterEach(async () => {
    await expectStockInvariant(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists only the levels changed at or after updated_since, oldest change first', async () => {
    const firm = await newFirm(server);
    const clientId = (await newClient(firm)).id;
    await newSeries(firm, { is_primary: true });
    const a = await newProduct(firm, { name: 'Ceai negru' });
    const b = await newProduct(firm, { name: 'Ceai verde' });
    await receive(firm, a.id, 10, 5);
    server.clock.advance(10);
    const cursor = server.clock.now();
    await receive(firm, b.id, 4, 7);
    const changed = await firm.ok('GET', `/stock?updated_since=${cursor}&sort=updated_at&order=asc`);
    expect(changed.data.map((l: { product_name: string }) => l.product_name)).toEqual(['Ceai verde']);
    expect(changed.total).toBe(1);

    server.clock.advance(10);
    await firm.ok('POST', '/invoices', { client_id: clientId, items: [{ product_id: a.id, description: 'Ceai negru', quantity: 3, price: 9, vat_rate: 11 }] });
    const after = await firm.ok('GET', `/stock?updated_since=${cursor}&sort=updated_at&order=asc`);
    expect(after.data.map((l: { product_name: string; quantity: number }) => [l.product_name, l.quantity])).toEqual([['Ceai verde', 4], ['Ceai negru', 7]]);
    // Every level still comes without the parameter; a bad one is a 400/422 with the field named, never a 5xx.
    expect((await firm.ok('GET', '/stock')).total).toBe(2);
    const bad = await firm.call('GET', '/stock?updated_since=ieri');
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });
});
