import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { newId } from '../../../server/platform/ids';
import { expectError, newFirm, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { expectStockInvariant, newProduct, receive, stockOf } from './helpers';

describe.each(DIALECTS)('reception (NIR), counts and transfers on %s', (dialect) => {
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

  /** A supplier e-Factura as the SPV sync stores it: supplier, bill and lines, written straight to the tables. */
  async function supplierBill(firm: Firm, supplierId: string | null, number: string, lines: { name: string; qty: number; priceBani: number; netBani?: number }[]) {
    const db = server.storage.db;
    const now = 1_790_000_000;
    const sid = supplierId ?? newId('sup');
    if (!supplierId) {
      await db.insertInto('suppliers').values({
        id: sid, company_id: firm.companyId, name: 'Angro Cafea SRL', cui: String(10_000_000 + Math.floor(Math.random() * 9_000_000)), vat_payer: 1,
        reg_com: null, address: null, email: null, phone: null, iban: null, created_at: now, updated_at: now,
      }).execute();
    }
    const id = newId('sbill');
    const net = lines.reduce((s, l) => s + (l.netBani ?? (l.qty * l.priceBani)), 0);
    await db.insertInto('supplier_bills').values({
      id, company_id: firm.companyId, work_point_id: firm.workPointId, supplier_id: sid, expense_id: null, client_id: null, efactura_message_id: null,
      source: 'spv', kind: 'invoice', invoice_number: number, invoice_type_code: '380', issue_date: '2026-11-02', due_date: null, currency: 'RON',
      tax_exclusive_bani: net, tax_bani: 0, tax_inclusive_bani: net, payable_bani: net, paid_bani: 0, status: 'unpaid', payment_date: null,
      payment_amount_bani: null, order_reference: null, note: null, supplier_json: null, references_json: null, created_at: now, updated_at: now,
    }).execute();
    await db.insertInto('supplier_bill_lines').values(lines.map((l, i) => ({
      id: newId('sbl'), bill_id: id, position: i + 1, line_id: String(i + 1), name: l.name, description: null, quantity_milli: l.qty * 1000,
      unit_code: 'H87', unit_price_bani: l.priceBani, price_amount: null, line_net_bani: l.netBani ?? l.qty * l.priceBani, allowance_bani: 0, charge_bani: 0,
      vat_category: 'S', vat_rate_bp: 2100,
    }))).execute();
    return { id, supplierId: sid };
  }

  it('a supplier bill becomes a NIR: unmapped lines listed, mapping remembered, differences kept, sale price proposed, its own numbering', async () => {
    const firm = await newFirm(server);
    const coffee = await newProduct(firm, { name: 'Cafea boabe 1kg' });
    const tea = await newProduct(firm, { name: 'Ceai verde' });
    const first = await supplierBill(firm, null, 'ACF-100', [{ name: 'Cafea Boabe  1KG', qty: 10, priceBani: 4000 }, { name: 'Ceai verde 100g', qty: 5, priceBani: 1000, netBani: 4500 }]);

    const unmapped = await firm.call('POST', '/nirs?locale=ro', { supplier_bill_id: first.id });
    expectError(unmapped, 422, 'validation_error');
    expect(Object.keys(unmapped.body.error.fields)).toEqual(['lines.0.product_id', 'lines.1.product_id']);
    expect(unmapped.body.error.fields['lines.0.product_id']).toContain('Cafea Boabe  1KG');
    expect((await firm.ok('GET', '/nirs')).total).toBe(0);

    const nir = await firm.ok('POST', '/nirs', {
      supplier_bill_id: first.id,
      lines: [{ line_id: '1', product_id: coffee.id, quantity_received: 9 }, { line_id: '2', product_id: tea.id }],
    });
    expect(nir).toMatchObject({ number: 1, full_number: 'NIR1', supplier_name: 'Angro Cafea SRL', document_number: 'ACF-100', supplier_bill_id: first.id, total_cost: 405 });
    expect(nir.lines).toEqual([
      expect.objectContaining({ product_id: coffee.id, quantity_invoiced: 10, quantity_received: 9, difference: -1, unit_cost: 40, value: 360, proposed_sale_price: 52 }),
      // The allowance on the line (50 lei for 5 units, 45 net) makes the unit cost 9, not 10.
      expect.objectContaining({ product_id: tea.id, quantity_invoiced: 5, quantity_received: 5, difference: 0, unit_cost: 9, value: 45 }),
    ]);
    expect(await stockOf(firm, coffee.id)).toMatchObject({ quantity: 9, value: 360 });
    expect(await firm.ok('GET', `/nirs/${nir.id}`)).toEqual(nir);

    const again = await firm.call('POST', '/nirs?locale=ro', { supplier_bill_id: first.id, lines: [{ line_id: '1', product_id: coffee.id }, { line_id: '2', product_id: tea.id }] });
    expectError(again, 409, 'nir_bill_received');
    expect(again.body.error.message).toBe('Factura furnizorului ACF-100 a fost deja recepționată prin NIR-ul NIR1.');

    // Next month's bill of the same supplier maps itself, names spelled a little differently included.
    const second = await supplierBill(firm, first.supplierId, 'ACF-101', [{ name: 'cafea boabe 1kg', qty: 2, priceBani: 5000 }, { name: 'Ceai verde 100g', qty: 1, priceBani: 900 }]);
    const nir2 = await firm.ok('POST', '/nirs', { supplier_bill_id: second.id });
    expect(nir2.full_number).toBe('NIR2');
    expect(nir2.lines.map((l: { product_id: string }) => l.product_id)).toEqual([coffee.id, tea.id]);
    // CMP: (360 + 100) / 11 units.
    expect(await stockOf(firm, coffee.id)).toMatchObject({ quantity: 11, value: 460, unit_cost: 41.81818 });
  });

  it('refuses bad receptions with Romanian messages at the field', async () => {
    const firm = await newFirm(server);
    const service = await newProduct(firm, { name: 'Transport', is_service: true });
    const goods = await newProduct(firm, { name: 'Zahăr' });
    const negative = await firm.call('POST', '/nirs?locale=ro', {
      supplier: { name: 'X SRL' }, lines: [{ supplier_item: 'Zahăr', product_id: goods.id, quantity_invoiced: 5, quantity_received: -1, unit_cost: 3 }],
    });
    expectError(negative, 422, 'validation_error');
    expect(negative.body.error.fields).toEqual({ 'lines.0.quantity_received': 'Nu poate fi negativă' });
    const toService = await firm.call('POST', '/nirs?locale=ro', {
      supplier: { name: 'X SRL' }, lines: [{ supplier_item: 'Transport', product_id: service.id, quantity_invoiced: 1, unit_cost: 3 }],
    });
    expectError(toService, 422, 'validation_error');
    expect(toService.body.error.fields).toEqual({ 'lines.0.product_id': '„Transport” este un serviciu: nu are stoc.' });
    const noSupplier = await firm.call('POST', '/nirs', { lines: [] });
    expectError(noSupplier, 422, 'validation_error');
    expectError(await firm.call('POST', '/nirs', { supplier_bill_id: 'sbill_nope' }), 404, 'resource_missing');
    expect((await firm.ok('GET', '/stock')).total).toBe(0);
    // A typed-in supplier's item maps itself the next time too.
    await receive(firm, goods.id, 5, 3);
    const mapped = await firm.ok('POST', '/nirs', { supplier: { name: 'Furnizor Test SRL' }, lines: [{ supplier_item: 'marfă', quantity_invoiced: 1, unit_cost: 3 }] });
    expect(mapped.lines[0].product_id).toBe(goods.id);
  });

  it('books a count\'s differences and moves goods between warehouses', async () => {
    const firm = await newFirm(server);
    const a = await newProduct(firm, { name: 'Făină' });
    const b = await newProduct(firm, { name: 'Ulei' });
    const other = await newProduct(firm, { name: 'Orez' });
    await receive(firm, a.id, 10, 4);
    await receive(firm, b.id, 3, 10);
    const count = await firm.ok('POST', '/stock-counts', { lines: [{ product_id: a.id, quantity: 8 }, { product_id: b.id, quantity: 4.5 }] });
    expect(count.lines).toEqual([
      { product_id: a.id, quantity: 8, expected: 10, difference: -2 },
      { product_id: b.id, quantity: 4.5, expected: 3, difference: 1.5 },
    ]);
    expect(await stockOf(firm, a.id)).toMatchObject({ quantity: 8, value: 32 });
    expect(await stockOf(firm, b.id)).toMatchObject({ quantity: 4.5, value: 45 });
    const notThere = await firm.call('POST', '/stock-counts?locale=ro', { lines: [{ product_id: other.id, quantity: 1 }] });
    expectError(notThere, 422, 'validation_error');
    expect(notThere.body.error.fields['lines.0.product_id']).toBe('Acest produs nu este în stocul acestei gestiuni.');

    const home = (await firm.ok('GET', '/warehouses')).data[0].id;
    const depot = (await firm.ok('POST', '/warehouses', { name: 'Depozit' })).id;
    const same = await firm.call('POST', '/stock-transfers?locale=ro', { from_warehouse_id: home, to_warehouse_id: home, lines: [{ product_id: a.id, quantity: 1 }] });
    expectError(same, 422, 'validation_error');
    expect(same.body.error.fields.to_warehouse_id).toContain('trebuie să difere');
    const moved = await firm.ok('POST', '/stock-transfers', { from_warehouse_id: home, to_warehouse_id: depot, lines: [{ product_id: a.id, quantity: 3 }] });
    expect(moved.object).toBe('stock_transfer');
    const levels = (await firm.ok('GET', `/stock?product_id=${a.id}`)).data;
    expect(levels.map((l: { warehouse_id: string; quantity: number; value: number }) => [l.warehouse_id, l.quantity, l.value]).sort())
      .toEqual([[home, 5, 20], [depot, 3, 12]].sort());
    const value = await firm.ok('GET', '/stock/value');
    expect(value.value).toBe(32 + 45);
    expect(await firm.ok('GET', '/stock/value?date=2000-01-01')).toMatchObject({ value: 0, warehouses: [] });
    expect((await firm.ok('GET', `/stock/movements?product_id=${a.id}`)).data.map((m: { document_type: string }) => m.document_type).sort())
      .toEqual(['count', 'nir', 'transfer', 'transfer']);
    expect((await firm.ok('GET', '/stock?search=făi')).total).toBe(2);
  });
});
