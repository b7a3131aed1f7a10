import { describe, expect, it } from 'vitest';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { createSeries, LINE, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

describe('proformas, payments, e-Factura and the seller profile', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('converts a proforma and records a bank payment offline; both reach the server once', async () => {
    const company = await newCompany(server);
    const fiscal = await createSeries(server, company.apiKey, 'FF');
    const proformaSeries = await createSeries(server, company.apiKey, 'PF', { document_type: 'proforma' });
    const device = openDevice(proxy.base, company.apiKey);
    try {
      expect(await device.call('company.profile')).toBeNull();
      await device.call('sync.now');
      expect(await device.call('company.profile')).toMatchObject({ object: 'company_profile', cui: expect.any(String) });
      await device.call('series.setMode', { id: fiscal, mode: 'shared', pool_target: 3, low_water: 0 });
      await device.call('series.setMode', { id: proformaSeries, mode: 'exclusive' });
      proxy.setDown(true);
      const client = await device.call('clients.create', { type: 'person', name: 'Proforma', country: 'RO' });
      const proforma = await device.call('invoices.issue', { series_id: proformaSeries, document_type: 'proforma', client_id: client.id, lines: [LINE, { ...LINE, vat_rate: 21 }] });
      expect(proforma.full_number).toBe('PF-2026-0001');
      await expect(device.call('invoices.issue', { series_id: proformaSeries, client_id: client.id, lines: [LINE] })).rejects.toThrow(/another document type/);
      const invoice = await device.call('invoices.convert', { id: proforma.id, series_id: fiscal });
      expect(invoice).toMatchObject({ document_type: 'fiscal', full_number: 'FF-2026-0001', converted_from: proforma.id, totals: proforma.totals });
      expect((await device.call('invoices.get', { id: proforma.id })).converted_to).toBe(invoice.id);
      await expect(device.call('invoices.convert', { id: proforma.id, series_id: fiscal })).rejects.toThrow(/already converted/);
      const payment = await device.call('payments.create', { invoice_id: invoice.id, amount_bani: 1000, type: 'card' });
      expect(payment.sync.state).toBe('pending');
      await expect(device.call('payments.create', { invoice_id: invoice.id, amount_bani: 1_000_000 })).rejects.toThrow(/amount due/);
      expect((await device.call('invoices.get', { id: invoice.id })).amount_paid_bani).toBe(1000);
      await expect(device.call('invoices.sendToSpv', { id: invoice.id })).rejects.toThrow(/invalid_state/);
      const summary = await device.call('dashboard.summary');
      expect(summary.daily).toHaveLength(30);
      expect(summary.daily[29]).toMatchObject({ count: 1, total_bani: invoice.totals.total_bani });
      expect(summary.vat_today.map((v) => v.vat_rate)).toEqual([21, 11]);
      expect(summary.vat_today.reduce((s, v) => s + v.vat_bani, 0)).toBe(invoice.totals.vat_bani);

      proxy.setDown(false);
      await device.call('sync.now');
      expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const remoteProforma = await server.api(company.apiKey, 'GET', `/invoices/${(await device.call('invoices.get', { id: proforma.id })).sync.server_id}`);
      const fiscalServerId = (await device.call('invoices.get', { id: invoice.id })).sync.server_id;
      expect(remoteProforma.body.data.converted_to).toBe(fiscalServerId);
      const remoteFiscal = await server.api(company.apiKey, 'GET', `/invoices/${fiscalServerId}`);
      expect(remoteFiscal.body.data).toMatchObject({ full_number: 'FF-2026-0001', amount_paid: 10, paid_state: 'partially_paid' });
      const payments = await device.call('payments.list', { invoice_id: invoice.id });
      expect(payments.items.map((p) => [p.amount_bani, p.type, p.sync.state])).toEqual([[1000, 'card', 'synced']]);
      // e-Factura: the invoice is on the server now; the company has no ANAF link, and the server says so.
      const spv = await device.router.dispatch('invoices.sendToSpv', { id: invoice.id }, { host: 'web', url: 'x', isMainFrame: true });
      expect(spv).toMatchObject({ ok: false, error: { type: 'configuration_error' } });
    } finally {
      await device.close();
    }
  });

  it('online-only calls say offline when the server cannot be reached', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      proxy.setDown(true);
      const reply = await device.router.dispatch('clients.lookupCui', { cui: '1590082' }, { host: 'web', url: 'x', isMainFrame: true });
      expect(reply).toMatchObject({ ok: false, error: { type: 'unavailable', code: 'offline' } });
      expect(device.services.engine.status().mode).toBe('offline');
    } finally {
      await device.close();
    }
  });

  it('mirrors supplier bills for the counter (read-only)', async () => {
    const company = await newCompany(server);
    const bill = await server.api(company.apiKey, 'POST', '/supplier-bills', {
      supplier: { name: 'Furnizor SRL', cui: '1590082' }, invoice_number: 'F-77', issue_date: '2026-11-01', due_date: '2026-12-01', tax_exclusive: 100, tax: 21,
    }, { 'idempotency-key': crypto.randomUUID() });
    expect(bill.status).toBeLessThan(300);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const bills = await device.call('purchases.supplierBills', { unpaid_only: true });
      expect(bills.items).toEqual([expect.objectContaining({ invoice_number: 'F-77', supplier_name: 'Furnizor SRL', tax_inclusive_bani: 12100, unpaid_bani: 12100 })]);
    } finally {
      await device.close();
    }
  });
});
