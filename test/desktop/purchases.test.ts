import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayInBucharest } from '../../shared/dates';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { COMPANY, linkEfactura, startE2eServer, type E2eServer } from '../e2e/support/stack';
import { APP_SENDER, newCompany, openDevice, removeTempDirs, serverBehindProxyForTests, tempDir, type Device } from './support/harness';
import { receivedInvoiceXml } from './support/received-bill';

/**
 * Expenses, suppliers and supplier bills through the IPC handlers, against the real service: the
 * duplicate probe, an offline expense with a new supplier, an offline payment, the register's unpaid
 * totals, ANAF's PDF of a received bill, and the company profile written to the service.
 */

const today = todayInBucharest();

async function ipcError(device: Device, channel: Parameters<Device['call']>[0], input: unknown) {
  const reply = await device.router.dispatch(channel, input, APP_SENDER);
  if (reply.ok) throw new Error(`${channel} succeeded`);
  return reply.error;
}

describe('expenses and suppliers', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  const post = async (key: string, path: string, body: unknown) => {
    const r = await server.api(key, 'POST', path, body, { 'idempotency-key': randomUUID() });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.text}`);
    return r.body.data;
  };

  it('finds a duplicate before saving; records an expense (with a new supplier) and a payment offline; both land once', async () => {
    const company = await newCompany(server);
    const supplier = await post(company.apiKey, '/suppliers', { name: 'Prăjitoria de Cafea SRL', cui: 'RO14399840' });
    const existing = await post(company.apiKey, '/expenses', {
      supplier_id: supplier.id, reference: 'PC-1043', description: 'Cafea verde', date: today, amount: 121, vat: 21,
    });
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const register = await device.call('purchases.suppliers', { limit: 50 });
      expect(register.items).toEqual([expect.objectContaining({ id: supplier.id, name: 'Prăjitoria de Cafea SRL', cui: '14399840', vat_payer: true, bills: 0, unpaid: [] })]);
      expect((await device.call('purchases.suppliers', { search: 'prajitoria', limit: 50 })).total).toBe(1);
      expect((await device.call('purchases.suppliers', { search: 'RO1439', limit: 50 })).total).toBe(1);
      const listed = await device.call('purchases.expenses', { limit: 50 });
      expect(listed.items).toEqual([expect.objectContaining({ id: existing.id, supplier_name: 'Prăjitoria de Cafea SRL', total_bani: 12_100, status: 'unpaid', paid_date: null })]);

      // The probe: same supplier and number (case and spaces aside); then same supplier, day and net amount (±0.02); then nothing alike.
      const probe = { supplier_id: supplier.id, reference: ' pc-1043 ', date: today, amount_bani: 12_100 };
      expect((await device.call('expenses.checkDuplicate', probe)).duplicate).toEqual({
        id: existing.id, reference: 'PC-1043', date: today, amount_bani: 10_000, currency: 'RON', match_type: 'exact',
      });
      // 121.01 with VAT is 100.01 net: within the tolerance.
      expect((await device.call('expenses.checkDuplicate', { ...probe, reference: 'PC-2000', amount_bani: 12_101 })).duplicate?.match_type).toBe('strong');
      expect((await device.call('expenses.checkDuplicate', { ...probe, reference: 'PC-2000', amount_bani: 13_000 })).duplicate).toBeNull();
      // A supplier not in the register, by name: only a matching reference elsewhere is "likely".
      expect((await device.call('expenses.checkDuplicate', { supplier_name: 'Alt Furnizor SRL', reference: 'PC-1043', amount_bani: 500 })).duplicate?.match_type).toBe('likely');

      // Offline: the probe says so; the writes complete locally.
      proxy.setDown(true);
      expect(await ipcError(device, 'expenses.checkDuplicate', probe)).toMatchObject({ type: 'unavailable', code: 'offline' });
      const energy = await device.call('expenses.create', {
        supplier_name: 'Electrica Furnizare SA', supplier_cui: 'RO28909028', reference: 'EL-77812', description: 'Energie electrică',
        date: today, due_date: today, amount_bani: 41_230, vat_percent: 21, with_vat: true,
      });
      expect(energy).toMatchObject({ supplier_name: 'Electrica Furnizare SA', total_bani: 41_230, status: 'unpaid', sync: { state: 'pending', server_id: null } });
      const net = await device.call('expenses.create', { supplier_id: supplier.id, reference: 'PC-1051', date: today, amount_bani: 92_550, vat_percent: 21, with_vat: false });
      expect(net.total_bani).toBe(92_550 + 19_436);
      const mix = await device.call('expenses.create', { supplier_id: supplier.id, reference: 'BON-7', amount_bani: 10_000, vat_percent: 'mix', amount_vat_manual_bani: 1_500 });
      expect(mix.total_bani).toBe(11_500);
      const paid = await device.call('expenses.pay', { id: existing.id, paid_date: today, payment_type: 3 });
      expect(paid).toMatchObject({ status: 'paid', paid_date: today, sync: { state: 'pending' } });
      await expect(device.call('expenses.pay', { id: existing.id, payment_type: 3 })).rejects.toThrow(/already paid/);
      const outbox = await device.call('outbox.list');
      expect(outbox.items.map((i) => i.kind).sort()).toEqual(['expense.create', 'expense.create', 'expense.create', 'expense.pay', 'supplier.create']);
      const energyItem = outbox.items.find((i) => i.entity_id === energy.id)!;
      const supplierItem = outbox.items.find((i) => i.kind === 'supplier.create')!;
      expect(energyItem.blocked_by).toEqual([supplierItem.id]);

      proxy.setDown(false);
      await device.call('sync.now');
      expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      await device.call('sync.now');
      // Wire JSON, checked member by member below.
      type Wire = Record<string, unknown> & { id: string; reference: string; name: string };
      const remote = (await server.api(company.apiKey, 'GET', '/expenses?per_page=100')).body.data.data as Wire[];
      expect(remote).toHaveLength(4);
      const suppliers = (await server.api(company.apiKey, 'GET', '/suppliers?per_page=100')).body.data.data as Wire[];
      const electrica = suppliers.find((s) => s.name === 'Electrica Furnizare SA')!;
      expect(electrica).toMatchObject({ cui: '28909028', vat_payer: true });
      expect(remote.find((e) => e.reference === 'EL-77812')).toMatchObject({ supplier_id: electrica.id, amount: { total: '412.30', vat: '71.56' } });
      expect(remote.find((e) => e.reference === 'BON-7')).toMatchObject({ vat_percent: null, amount: { total: '115.00', without_vat: '100.00' } });
      expect(remote.find((e) => e.id === existing.id)).toMatchObject({ is_paid: true, paid_date: today, payment_type: { id: 3 } });
      // The device keeps its ids; the server's are beside them.
      const after = await device.call('purchases.expenses', { limit: 50 });
      expect(after.total).toBe(4);
      const mine = after.items.find((e) => e.id === energy.id)!;
      expect(mine.sync).toMatchObject({ state: 'synced', server_id: remote.find((e) => e.reference === 'EL-77812')!.id });
      expect(after.items.find((e) => e.id === existing.id)).toMatchObject({ status: 'paid', paid_date: today });
      expect((await device.call('purchases.suppliers', { limit: 50 })).items.map((s) => [s.name, s.sync.state])).toEqual([
        ['Electrica Furnizare SA', 'synced'], ['Prăjitoria de Cafea SRL', 'synced'],
      ]);
    } finally {
      await device.close();
    }
  });

  it('refuses an expense the service would refuse, naming the field; a payment lost in transit is not sent twice', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      expect((await ipcError(device, 'expenses.create', { amount_bani: 100 })).fields).toHaveProperty('supplier_id');
      expect((await ipcError(device, 'expenses.create', { supplier_name: 'X', amount_bani: 100, vat_percent: 'mix' })).fields).toHaveProperty('amount_vat_manual_bani');
      expect((await ipcError(device, 'expenses.create', { supplier_name: 'X', amount_bani: 100, vat_percent: 7 })).fields).toHaveProperty('vat_percent');
      expect((await ipcError(device, 'expenses.create', { supplier_name: 'X', amount_bani: 100, currency: 'EUR' })).fields).toHaveProperty('exchange_rate');
      expect((await ipcError(device, 'expenses.create', { supplier_name: 'X', supplier_cui: '1234', amount_bani: 100 })).fields).toHaveProperty('supplier_cui');
      expect((await device.call('outbox.list')).total).toBe(0);

      const expense = await device.call('expenses.create', { supplier_name: 'Furnizor Unic SRL', reference: 'F-1', amount_bani: 5_000 });
      await device.call('sync.now');
      await device.call('expenses.pay', { id: expense.id, payment_type: 1 });
      // The server pays it, and the reply is lost: the resend is answered `expense_already_paid`, which is what was asked.
      proxy.plan(['drop_after']);
      proxy.setFilter((method, path) => method === 'POST' && path.endsWith('/pay'));
      await device.call('sync.now');
      proxy.setFilter(null);
      await device.call('sync.now');
      expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const events = await server.api(company.apiKey, 'GET', `/expenses/${(await device.call('purchases.expenses', { limit: 5 })).items[0]!.sync.server_id}/events`);
      expect(events.body.data.data.filter((e: { type: string }) => e.type === 'paid')).toHaveLength(1);
      expect(proxy.counts.drop_after).toBeGreaterThanOrEqual(1);
    } finally {
      await device.close();
    }
  });

  it('adds up what is owed to each supplier from the supplier bills of this work point', async () => {
    const company = await newCompany(server);
    const supplier = await post(company.apiKey, '/suppliers', { name: 'Furnizor SRL', cui: '1590082' });
    await post(company.apiKey, '/supplier-bills', { supplier_id: supplier.id, invoice_number: 'F-77', issue_date: '2026-11-01', due_date: '2026-12-01', tax_exclusive: 100, tax: 21 });
    await post(company.apiKey, '/supplier-bills', { supplier_id: supplier.id, invoice_number: 'F-78', issue_date: '2026-11-02', tax_exclusive: 10, tax: 2.1 });
    await post(company.apiKey, '/supplier-bills', { supplier_id: supplier.id, invoice_number: 'F-79', currency: 'EUR', issue_date: '2026-11-03', tax_exclusive: 50, tax: 0 });
    await post(company.apiKey, '/suppliers', { name: 'Fără Facturi SRL' });
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const register = await device.call('purchases.suppliers', { limit: 50 });
      expect(register.items.map((s) => [s.name, s.bills, s.unpaid_bills, s.unpaid])).toEqual([
        ['Fără Facturi SRL', 0, 0, []],
        ['Furnizor SRL', 3, 3, [{ currency: 'RON', amount_bani: 13_310 }, { currency: 'EUR', amount_bani: 5_000 }]],
      ]);
      const bills = await device.call('purchases.supplierBills', { limit: 50 });
      // Entered by hand: ANAF has no PDF of them.
      expect(bills.items.every((b) => !b.has_efactura_pdf)).toBe(true);
      expect(await ipcError(device, 'purchases.supplierBillPdf', { id: bills.items[0]!.id })).toMatchObject({ code: 'efactura_not_available' });
    } finally {
      await device.close();
    }
  });
});

describe('ANAF PDF of a received bill, and the company profile', () => {
  let server: E2eServer;
  let proxy: FaultProxy;
  beforeAll(async () => {
    server = await startE2eServer({ anaf: true });
    await linkEfactura(server);
    proxy = await startFaultProxy(new URL(server.base).origin);
  }, 60_000);
  beforeEach(() => proxy.setDown(false));
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    removeTempDirs();
  });

  it('saves the PDF in the desktop app and hands its bytes to the browser in the web host', async () => {
    server.sim!.state.addReceivedInvoice({ buyerCif: COMPANY.cui, sellerCif: '12345674', xml: receivedInvoiceXml(COMPANY.cui, 'EF-1001'), env: 'prod' });
    const synced = await server.api('POST', '/supplier-bills/sync', {});
    expect(synced.body.data.imported).toBe(1);
    const folder = tempDir();
    const saved: string[] = [];
    const desktop = openDevice(proxy.base, server.apiKey, {
      host: {
        kind: 'electron',
        saveFile: async (bytes, fileName) => {
          const path = join(folder, fileName);
          await writeFile(path, bytes);
          saved.push(path);
          return { saved: true, path };
        },
      },
    });
    const web = openDevice(proxy.base, server.apiKey);
    try {
      await desktop.call('sync.now');
      const [bill] = (await desktop.call('purchases.supplierBills', { limit: 5 })).items;
      expect(bill).toMatchObject({ invoice_number: 'EF-1001', has_efactura_pdf: true });
      const r = await desktop.call('purchases.supplierBillPdf', { id: bill!.id });
      expect(r).toEqual({ saved: true, path: saved[0], file_name: 'Factura-furnizor-EF-1001.pdf', pdf_base64: null });
      expect(readFileSync(saved[0]!).subarray(0, 5).toString('latin1')).toBe('%PDF-');

      await web.call('sync.now');
      const fromWeb = await web.call('purchases.supplierBillPdf', { id: bill!.id });
      expect(fromWeb).toMatchObject({ saved: false, path: null, file_name: 'Factura-furnizor-EF-1001.pdf' });
      const bytes = Buffer.from(fromWeb.pdf_base64!, 'base64');
      expect(bytes.equals(readFileSync(saved[0]!))).toBe(true);

      proxy.setDown(true);
      expect(await ipcError(web, 'purchases.supplierBillPdf', { id: bill!.id })).toMatchObject({ type: 'unavailable', code: 'offline' });
      expect(await ipcError(web, 'purchases.supplierBillPdf', { id: 'sbill_nope' })).toMatchObject({ type: 'not_found' });
    } finally {
      await desktop.close();
      await web.close();
    }
  });

  it('writes the company profile to the service, with the share capital and "TVA la încasare", and prints it at once', async () => {
    const device = openDevice(proxy.base, server.apiKey);
    try {
      await device.call('sync.now');
      expect(await device.call('company.profile')).toMatchObject({ reg_com: 'J40/1234/2016', capital_social_bani: null, vat_on_collection: false });
      const updated = await device.call('company.updateProfile', { capital_social_bani: 20_000, vat_on_collection: true, city: 'București' });
      expect(updated).toMatchObject({ capital_social_bani: 20_000, vat_on_collection: true, city: 'București', reg_com: 'J40/1234/2016' });
      // The local copy (what prints offline) is the answer, without waiting for a sync.
      expect(await device.call('company.profile')).toEqual(updated);
      const remote = await server.api('GET', '/company/profile');
      expect(remote.body.data).toMatchObject({ capital_social_bani: 20_000, vat_on_collection: true });
      expect(await ipcError(device, 'company.updateProfile', { iban: 'RO00 BAD' })).toMatchObject({ type: 'validation_error', fields: { iban: expect.stringMatching(/IBAN/) } });
      expect(await ipcError(device, 'company.updateProfile', { capital_social_bani: -5 })).toMatchObject({ code: 'invalid_payload' });
      proxy.setDown(true);
      expect(await ipcError(device, 'company.updateProfile', { vat_on_collection: false })).toMatchObject({ code: 'offline' });
      // null clears the share capital (a PFA has none).
      proxy.setDown(false);
      const cleared = await device.call('company.updateProfile', { capital_social_bani: null, vat_on_collection: false });
      expect(cleared).toMatchObject({ capital_social_bani: null, vat_on_collection: false });
    } finally {
      await device.close();
    }
  });
});
