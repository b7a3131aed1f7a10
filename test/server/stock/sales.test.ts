import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { expectError, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { expectStockInvariant, newProduct, receive, stockOf } from './helpers';

describe.each(DIALECTS)('stock moved by sales on %s', (dialect) => {
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

  async function shop(): Promise<{ firm: Firm; clientId: string; productId: string; sell: (qty: number, extra?: Record<string, unknown>) => Promise<ReturnType<Firm['call']> extends Promise<infer R> ? R : never> }> {
    const firm = await newFirm(server);
    const clientId = (await newClient(firm)).id;
    await newSeries(firm, { is_primary: true });
    const productId = (await newProduct(firm, { name: 'Cafea boabe 1kg', unit: 'buc' })).id;
    const sell = (qty: number, extra: Record<string, unknown> = {}) =>
      firm.call('POST', '/invoices', { client_id: clientId, items: [{ product_id: productId, description: 'Cafea boabe 1kg', quantity: qty, price: 45.5, vat_rate: 21 }], ...extra });
    return { firm, clientId, productId, sell };
  }

  it('makes the default warehouse lazily, one per work point; CMP is the default valuation', async () => {
    const firm = await newFirm(server);
    const first = await firm.ok('GET', '/warehouses');
    const again = await firm.ok('GET', '/warehouses');
    expect(first.data).toHaveLength(1);
    expect(first.data[0]).toMatchObject({ is_default: true, name: 'Gestiunea principală', work_point_id: firm.workPointId });
    expect(again.data.map((w: { id: string }) => w.id)).toEqual([first.data[0].id]);
    const second = await firm.ok('POST', '/warehouses', { name: 'Depozit' });
    expect(second.is_default).toBe(false);
    expectError(await firm.call('POST', '/warehouses', { name: 'Depozit' }), 409, 'warehouse_name_taken');
    expect(await firm.ok('GET', '/stock/settings')).toMatchObject({ valuation: 'cmp', negative_stock: 'allow', markup_percent: 30 });
  });

  it('an issued invoice takes stock at the average cost; a storno puts it back; drafts and proformas move nothing', async () => {
    const { firm, clientId, productId, sell } = await shop();
    await receive(firm, productId, 10, 20);
    await receive(firm, productId, 10, 30);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 20, value: 500, unit_cost: 25 });

    const sold = await sell(3);
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.meta.warnings).toBeUndefined();
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 17, value: 425 });
    const moved = await firm.ok('GET', `/stock/movements?document_id=${sold.body.data.id}`);
    expect(moved.data).toEqual([expect.objectContaining({ document_type: 'invoice', quantity: -3, unit_cost: 25, value: -75, product_id: productId })]);

    const draft = await sell(5, { is_draft: true });
    expect(draft.status).toBe(201);
    expect((await stockOf(firm, productId))!.quantity).toBe(17);
    expect((await firm.call('DELETE', `/invoices/${draft.body.data.id}`)).status).toBe(200);
    expect((await stockOf(firm, productId))!.quantity).toBe(17);

    await newSeries(firm, { name: 'PF', document_type: 'proforma', is_primary: true });
    const proforma = await sell(4, { document_type: 'proforma' });
    expect(proforma.status, proforma.text).toBe(201);
    expect((await stockOf(firm, productId))!.quantity).toBe(17);

    const storno = await firm.call('POST', `/invoices/${sold.body.data.id}/storno`, {});
    expect(storno.status, storno.text).toBe(201);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 20, value: 500, unit_cost: 25 });
    const back = await firm.ok('GET', `/stock/movements?document_id=${storno.body.data.id}`);
    expect(back.data).toEqual([expect.objectContaining({ document_type: 'storno', quantity: 3, value: 75 })]);

    const draft2 = await sell(2, { is_draft: true });
    const issued = await firm.call('POST', `/invoices/${draft2.body.data.id}/issue`, {});
    expect(issued.status, issued.text).toBe(200);
    expect((await stockOf(firm, productId))!.quantity).toBe(18);

    const converted = await firm.call('POST', `/invoices/${proforma.body.data.id}/convert`, {});
    expect(converted.status, converted.text).toBe(201);
    expect((await stockOf(firm, productId))!.quantity).toBe(14);
    expect(clientId).toBeTruthy();
  });

  it('services and free-text lines never move stock', async () => {
    const { firm, clientId } = await shop();
    const service = await newProduct(firm, { name: 'Montaj', is_service: true });
    const res = await firm.call('POST', '/invoices', {
      client_id: clientId,
      items: [
        { product_id: service.id, description: 'Montaj', quantity: 1, price: 100, vat_rate: 21 },
        { description: 'Transport', quantity: 1, price: 20, vat_rate: 21 },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect((await firm.ok('GET', `/stock/movements?document_id=${res.body.data.id}`)).data).toEqual([]);
  });

  it('below zero: allowed with a warning in the reply, or blocked with a Romanian 409 and nothing issued', async () => {
    const { firm, productId, sell } = await shop();
    await receive(firm, productId, 2, 10);
    const over = await sell(5);
    expect(over.status, over.text).toBe(201);
    expect(over.body.meta.warnings).toEqual([
      expect.objectContaining({ code: 'negative_stock', product_id: productId, quantity_in_stock: 2, quantity_after: -3 }),
    ]);
    expect(over.body.meta.warnings[0].message).toContain('Cafea boabe 1kg');
    expect((await stockOf(firm, productId))!.quantity).toBe(-3);

    await firm.ok('PUT', '/stock/settings', { negative_stock: 'block' });
    await receive(firm, productId, 4, 10);
    const before = await firm.ok('GET', '/invoices');
    const blocked = await firm.call('POST', '/invoices?locale=ro', {
      client_id: (await newClient(firm)).id, items: [{ product_id: productId, description: 'Cafea boabe 1kg', quantity: 1.5, price: 45.5, vat_rate: 21 }],
    });
    expectError(blocked, 409, 'stock_insufficient');
    expect(blocked.body.error.message).toBe('Stoc insuficient pentru Cafea boabe 1kg: în stoc sunt 1 buc, se cer 1.5 buc. Firma nu permite vânzarea sub zero.');
    expect((await firm.ok('GET', '/invoices')).total).toBe(before.total);
    expect((await stockOf(firm, productId))!.quantity).toBe(1);
    expect((await sell(1)).status).toBe(201);
    expect((await stockOf(firm, productId))!.quantity).toBe(0);
    expect((await stockOf(firm, productId))!.value).toBe(0);
  });

  it('40 sales of the same product at once lose no decrement', async () => {
    const { firm, productId, sell } = await shop();
    await receive(firm, productId, 100, 7.5);
    const replies = await Promise.all(Array.from({ length: 40 }, () => sell(1.5)));
    for (const r of replies) expect(r.status, r.text).toBe(201);
    const level = await stockOf(firm, productId);
    expect(level).toMatchObject({ quantity: 40, value: 300 });
    expect((await firm.ok('GET', `/stock/movements?product_id=${productId}&document_type=invoice&per_page=100`)).total).toBe(40);
  });

  it('with selling below zero blocked, parallel sales of the last units sell exactly what is there', async () => {
    const { firm, productId, sell } = await shop();
    await firm.ok('PUT', '/stock/settings', { negative_stock: 'block' });
    await receive(firm, productId, 10, 5);
    const replies = await Promise.all(Array.from({ length: 16 }, () => sell(1)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of replies.filter((x) => x.status !== 201)) expectError(r, 409, 'stock_insufficient');
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 0, value: 0 });
  });

  it('multi-line sales naming the same products in opposite orders, and stornos, all at once: no deadlock, nothing lost', async () => {
    const { firm, clientId, productId } = await shop();
    const other = (await newProduct(firm, { name: 'Ceai verde' })).id;
    await receive(firm, productId, 50, 10);
    await receive(firm, other, 50, 4);
    const line = (id: string, quantity: number) => ({ product_id: id, description: 'Marfă', quantity, price: 20, vat_rate: 21 });
    const first = await firm.ok('POST', '/invoices', { client_id: clientId, items: [line(productId, 1), line(other, 1)] });
    const replies = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => firm.call('POST', '/invoices', {
        client_id: clientId, items: i % 2 ? [line(productId, 1), line(other, 2)] : [line(other, 2), line(productId, 1)],
      })),
      firm.call('POST', `/invoices/${first.id}/storno`, {}),
    ]);
    for (const r of replies) expect(r.status, r.text).toBe(201);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 50 - 12, value: 380 });
    expect(await stockOf(firm, other)).toMatchObject({ quantity: 50 - 24, value: 104 });
  });

  it('an offline retry of a sale (same client_local_uuid) moves stock once; a product with stock cannot be deleted', async () => {
    const { firm, productId, sell } = await shop();
    await receive(firm, productId, 5, 10);
    const uuid = '7d6f4c1e-2b1a-4c3d-9e8f-0a1b2c3d4e5f';
    const first = await sell(2, { client_local_uuid: uuid });
    const retry = await sell(2, { client_local_uuid: uuid });
    expect([first.status, retry.status]).toEqual([201, 200]);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect((await stockOf(firm, productId))!.quantity).toBe(3);
    expect((await firm.ok('GET', `/stock/movements?product_id=${productId}&document_type=invoice`)).total).toBe(1);
    expectError(await firm.call('DELETE', `/products/${productId}`), 409, 'in_use');
  });
});
