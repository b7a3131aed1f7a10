import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { expectError, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { expectStockInvariant, newProduct, receive, stockOf } from './helpers';

/**
 * FIFO valuation (issue 15), the firm-wide option chosen once: lots per reception, sales valued at
 * exactly the lots they take (oldest first), stornos back into those lots, transfers carrying lots
 * with their entry dates, counts, the value at a date, and many sales of one product at once. The
 * invariant (levels = sum of movements = what is left in the lots) is checked after every test.
 */
describe.each(DIALECTS)('FIFO valuation on %s', (dialect) => {
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

  interface Shop { firm: Firm; clientId: string; productId: string; sell: (qty: number) => Promise<{ id: string }> }

  async function fifoShop(): Promise<Shop> {
    const firm = await newFirm(server);
    expect(await firm.ok('PUT', '/stock/settings', { valuation: 'fifo' })).toMatchObject({ valuation: 'fifo' });
    const clientId = (await newClient(firm)).id;
    await newSeries(firm, { is_primary: true });
    const productId = (await newProduct(firm, { name: 'Ulei floarea-soarelui 1l', unit: 'buc' })).id;
    const sell = async (qty: number) => {
      const res = await firm.call('POST', '/invoices', { client_id: clientId, items: [{ product_id: productId, description: 'Ulei', quantity: qty, price: 12, vat_rate: 21 }] });
      expect(res.status, res.text).toBe(201);
      return res.body.data as { id: string };
    };
    return { firm, clientId, productId, sell };
  }

  async function movedBy(firm: Firm, documentId: string) {
    return (await firm.ok('GET', `/stock/movements?document_id=${documentId}`)).data as { quantity: number; value: number; unit_cost: number; warehouse_id: string }[];
  }

  it('is chosen once: accepted on an empty ledger, then a change answers a Romanian 409 (same method again is fine)', async () => {
    const { firm, productId } = await fifoShop();
    expect(await firm.ok('PUT', '/stock/settings', { valuation: 'fifo', markup_percent: 25 })).toMatchObject({ valuation: 'fifo', markup_percent: 25 });
    expect(await firm.ok('PUT', '/stock/settings', { valuation: 'cmp' })).toMatchObject({ valuation: 'cmp' });
    expect(await firm.ok('PUT', '/stock/settings', { valuation: 'fifo' })).toMatchObject({ valuation: 'fifo' });
    await receive(firm, productId, 1, 5);
    const back = await firm.call('PUT', '/stock/settings?locale=ro', { valuation: 'cmp' });
    expectError(back, 409, 'valuation_locked');
    expect(back.body.error.message).toBe(
      'Metoda de evaluare a stocului nu se mai poate schimba: firma are deja documente de stoc evaluate prin FIFO. Metoda se alege o singură dată, înainte de prima recepție sau vânzare de mărfuri.',
    );
    expect(back.body.error.param).toBe('valuation');
    expect((await firm.ok('PUT', '/stock/settings', { valuation: 'fifo', negative_stock: 'block' })).negative_stock).toBe('block');
    expect((await firm.ok('GET', '/stock/settings')).valuation).toBe('fifo');

    // A CMP firm that has moved stock cannot turn to FIFO either.
    const cmp = await newFirm(server);
    const p = (await newProduct(cmp)).id;
    await receive(cmp, p, 2, 3);
    expectError(await cmp.call('PUT', '/stock/settings', { valuation: 'fifo' }), 409, 'valuation_locked');
    expect((await cmp.ok('GET', '/stock/settings')).valuation).toBe('cmp');
  });

  it('choosing FIFO while the first sales of goods go through: either before them all, or refused', async () => {
    const firm = await newFirm(server);
    const clientId = (await newClient(firm)).id;
    await newSeries(firm, { is_primary: true });
    const productId = (await newProduct(firm, { name: 'Făină 1kg' })).id;
    const sale = () => firm.call('POST', '/invoices', { client_id: clientId, items: [{ product_id: productId, description: 'Făină', quantity: 1, price: 5, vat_rate: 11 }] });
    const replies = await Promise.all([sale(), sale(), sale(), firm.call('PUT', '/stock/settings', { valuation: 'fifo' }), sale(), sale(), sale()]);
    const put = replies[3]!;
    for (const r of replies.filter((x) => x !== put)) expect(r.status, r.text).toBe(201);
    if (put.status !== 200) expectError(put, 409, 'valuation_locked');
    const valuation = (await firm.ok('GET', '/stock/settings')).valuation as string;
    expect(valuation).toBe(put.status === 200 ? 'fifo' : 'cmp');
    // Every movement booked under the method in force: all with lots (FIFO) or none (CMP), which the
    // invariant after this test checks level by level.
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: -6 });
  });

  it('a sale takes the oldest lots first, by reception date, valued at exactly what it took', async () => {
    const { firm, productId, sell } = await fifoShop();
    await receive(firm, productId, 10, 20, { date: '2026-11-05' });
    await receive(firm, productId, 10, 30, { date: '2026-11-10' });
    // Typed in late but received earlier: it is the oldest lot.
    await receive(firm, productId, 4, 10.25, { date: '2026-11-01' });
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 24, value: 541 });

    const first = await sell(7);
    // 4 × 10.25 + 3 × 20 = 41 + 60
    expect(await movedBy(firm, first.id)).toEqual([expect.objectContaining({ quantity: -7, value: -101 })]);
    const second = await sell(12);
    // 7 × 20 + 5 × 30
    expect(await movedBy(firm, second.id)).toEqual([expect.objectContaining({ quantity: -12, value: -290, unit_cost: 24.16667 })]);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 5, value: 150, unit_cost: 30 });
    const third = await sell(5);
    expect(await movedBy(firm, third.id)).toEqual([expect.objectContaining({ quantity: -5, value: -150 })]);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 0, value: 0 });
  });

  it('thirds of a lot: partial takes are in whole bani and the last one empties the lot exactly', async () => {
    const { firm, productId, sell } = await fifoShop();
    await receive(firm, productId, 3, 0.01);
    await receive(firm, productId, 1, 1);
    const values: number[] = [];
    for (let i = 0; i < 3; i++) values.push((await movedBy(firm, (await sell(1)).id))[0]!.value);
    // 3 units at 0,01 lei are worth 3 bani: each takes 1 ban, none more.
    expect(values).toEqual([-0.01, -0.01, -0.01]);
    await receive(firm, productId, 3, 0.333);
    // Left: 1 × 1 leu + 3 × 0,333 (1 leu). 2 units take the whole first lot and 1/3 of the second.
    const two = await sell(2);
    expect((await movedBy(firm, two.id))[0]!.value).toBe(-1.33);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 2, value: 0.67 });
  });

  it('the stock value at a date follows the lots: receptions add their cost, sales take the oldest', async () => {
    const { firm, productId, sell } = await fifoShop();
    await receive(firm, productId, 10, 20, { date: '2026-11-02' });
    await receive(firm, productId, 10, 30, { date: '2026-11-12' });
    await sell(15);
    const at = async (date: string) => (await firm.ok('GET', `/stock/value?date=${date}`)).value as number;
    expect(await at('2026-11-01')).toBe(0);
    expect(await at('2026-11-02')).toBe(200);
    expect(await at('2026-11-12')).toBe(500);
    // Today (the sale): 10 × 20 + 5 × 30 left the shelf, 5 × 30 stay.
    expect(await at('2026-11-21')).toBe(150);
    expect((await firm.ok('GET', '/stock/value')).value).toBe(150);
    expect((await stockOf(firm, productId))!.value).toBe(150);
  });

  it('a storno puts the goods back into the lots they left, at the cost they left at', async () => {
    const { firm, productId, sell } = await fifoShop();
    await receive(firm, productId, 10, 20, { date: '2026-11-02' });
    await receive(firm, productId, 10, 30, { date: '2026-11-12' });
    const sale = await sell(15);
    await sell(2);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 3, value: 90 });
    const storno = await firm.call('POST', `/invoices/${sale.id}/storno`, {});
    expect(storno.status, storno.text).toBe(201);
    expect(await movedBy(firm, storno.body.data.id)).toEqual([expect.objectContaining({ quantity: 15, value: 350 })]);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 18, value: 440 });
    // The 10 units at 20 lei are the oldest again: the next sale takes them first.
    const after = await sell(12);
    expect(await movedBy(firm, after.id)).toEqual([expect.objectContaining({ quantity: -12, value: -260 })]);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 6, value: 180 });
  });

  it('a sale of the same product on two lines, and its storno, restore each take once', async () => {
    const { firm, clientId, productId } = await fifoShop();
    await receive(firm, productId, 2, 10, { date: '2026-11-02' });
    await receive(firm, productId, 2, 40, { date: '2026-11-03' });
    const line = (q: number) => ({ product_id: productId, description: 'Ulei', quantity: q, price: 50, vat_rate: 21 });
    const sale = await firm.ok('POST', '/invoices', { client_id: clientId, items: [line(1), line(2)] });
    const moved = await movedBy(firm, sale.id);
    expect(moved.reduce((s, m) => s + m.value, 0)).toBe(-60);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 1, value: 40 });
    const storno = await firm.ok('POST', `/invoices/${sale.id}/storno`, {});
    expect((await movedBy(firm, storno.id)).reduce((s, m) => s + m.value, 0)).toBe(60);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 4, value: 100 });
  });

  it('a transfer carries the lots with their costs and entry dates; a count books differences at FIFO', async () => {
    const { firm, productId, sell } = await fifoShop();
    const main = (await firm.ok('GET', '/warehouses')).data[0].id as string;
    const depot = (await firm.ok('POST', '/warehouses', { name: 'Depozit' })).id as string;
    await receive(firm, productId, 10, 20, { date: '2026-11-02' });
    await receive(firm, productId, 10, 30, { date: '2026-11-12' });
    const out = await firm.ok('POST', '/stock-transfers', { from_warehouse_id: main, to_warehouse_id: depot, lines: [{ product_id: productId, quantity: 12 }] });
    const moved = await movedBy(firm, out.id);
    expect(moved.find((m) => m.warehouse_id === main)).toMatchObject({ quantity: -12, value: -260 });
    expect(moved.find((m) => m.warehouse_id === depot)).toMatchObject({ quantity: 12, value: 260 });
    // Back 5: the depot's oldest are the 20-lei units of 2 November, and they stay the oldest in the shop.
    const back = await firm.ok('POST', '/stock-transfers', { from_warehouse_id: depot, to_warehouse_id: main, lines: [{ product_id: productId, quantity: 5 }] });
    expect((await movedBy(firm, back.id)).find((m) => m.warehouse_id === main)).toMatchObject({ quantity: 5, value: 100 });
    const sale = await sell(6);
    expect(await movedBy(firm, sale.id)).toEqual([expect.objectContaining({ value: -130 })]);

    // Shop: 7 × 30 left. Found 10: the 3 more enter at the shelf's cost (30).
    const count = await firm.ok('POST', '/stock-counts', { warehouse_id: main, lines: [{ product_id: productId, quantity: 10 }] });
    expect((await movedBy(firm, count.id))[0]).toMatchObject({ quantity: 3, value: 90 });
    // Depot: 5 × 20 + 2 × 30. Found 5: the 2 missing are the oldest, 2 × 20.
    const shortCount = await firm.ok('POST', '/stock-counts', { warehouse_id: depot, lines: [{ product_id: productId, quantity: 5 }] });
    expect((await movedBy(firm, shortCount.id))[0]).toMatchObject({ quantity: -2, value: -40 });
    const depotLevel = (await firm.ok('GET', `/stock?warehouse_id=${depot}`)).data[0];
    expect(depotLevel).toMatchObject({ quantity: 5, value: 120 });
    expect((await firm.ok('GET', '/stock/value')).value).toBe(300 + 120);
  });

  it('below zero (allowed): the missing units are valued at the latest cost and the next reception re-costs them', async () => {
    const { firm, productId, sell } = await fifoShop();
    await receive(firm, productId, 2, 10);
    const sale = await firm.call('POST', '/invoices', {
      client_id: (await newClient(firm)).id, items: [{ product_id: productId, description: 'Ulei', quantity: 5, price: 12, vat_rate: 21 }],
    });
    expect(sale.status).toBe(201);
    expect(sale.body.meta.warnings).toEqual([expect.objectContaining({ code: 'negative_stock', quantity_after: -3 })]);
    expect(await movedBy(firm, sale.body.data.id)).toEqual([expect.objectContaining({ quantity: -5, value: -50 })]);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: -3, value: -30 });
    const nir = await receive(firm, productId, 4, 12);
    // The 3 sold without stock are now worth 12 each: the entry carries 4 × 12 + 3 × 2 of correction.
    expect(await movedBy(firm, nir.id)).toEqual([expect.objectContaining({ quantity: 4, value: 42 })]);
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 1, value: 12 });
    expect((await movedBy(firm, (await sell(1)).id))[0]!.value).toBe(-12);
  });

  it('40 sales of one product at once, across three lots: no lost decrement, no unit taken twice', async () => {
    const { firm, productId, sell } = await fifoShop();
    await receive(firm, productId, 20, 5, { date: '2026-11-01' });
    await receive(firm, productId, 20, 6, { date: '2026-11-02' });
    await receive(firm, productId, 30, 7, { date: '2026-11-03' });
    const sales = await Promise.all(Array.from({ length: 40 }, () => sell(1.5)));
    expect(new Set(sales.map((s) => s.id)).size).toBe(40);
    // 60 units left: the first two lots whole (100 + 120 lei) and 20 of the third (140 lei).
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 10, value: 70, unit_cost: 7 });
    const moves = (await firm.ok('GET', `/stock/movements?product_id=${productId}&document_type=invoice&per_page=100`)).data as { quantity: number; value: number }[];
    expect(moves).toHaveLength(40);
    expect(moves.reduce((s, m) => s + m.quantity, 0)).toBe(-60);
    expect(Math.round(moves.reduce((s, m) => s + m.value, 0) * 100)).toBe(-36_000);
    // Under the level lock the sales took the lots one after another: 13 sales at 7,50 from the first lot,
    // one straddling it and the second (0,5 × 5 + 1 × 6), 12 at 9, one straddling the third (1 × 6 + 0,5 × 7), 13 at 10,50.
    const counted = new Map<number, number>();
    for (const m of moves) counted.set(m.value, (counted.get(m.value) ?? 0) + 1);
    expect(Object.fromEntries([...counted].sort((a, b) => a[0] - b[0]))).toEqual({ '-10.5': 13, '-9.5': 1, '-9': 12, '-8.5': 1, '-7.5': 13 });
  });

  it('with selling below zero blocked, parallel sales of the last lot sell exactly what is there', async () => {
    const { firm, clientId, productId } = await fifoShop();
    await firm.ok('PUT', '/stock/settings', { negative_stock: 'block' });
    await receive(firm, productId, 4, 2, { date: '2026-11-01' });
    await receive(firm, productId, 6, 3, { date: '2026-11-02' });
    const replies = await Promise.all(Array.from({ length: 16 }, () => firm.call('POST', '/invoices', {
      client_id: clientId, items: [{ product_id: productId, description: 'Ulei', quantity: 1, price: 12, vat_rate: 21 }],
    })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of replies.filter((x) => x.status !== 201)) expectError(r, 409, 'stock_insufficient');
    expect(await stockOf(firm, productId)).toMatchObject({ quantity: 0, value: 0 });
    const moves = (await firm.ok('GET', `/stock/movements?product_id=${productId}&document_type=invoice&per_page=100`)).data as { value: number }[];
    expect(moves.map((m) => m.value).sort((a, b) => a - b)).toEqual([-3, -3, -3, -3, -3, -3, -2, -2, -2, -2]);
  });
});
