import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * The counter's host side against the real service: a barcode goes both ways through sync and wins
 * a search by exact match; searches ignore case and Romanian diacritics (comma and cedilla forms);
 * one cart gives one document whatever fails between the device and the service.
 */
describe('counter: finding things and selling once', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('syncs a barcode both ways, finds the product by it before any name, and folds diacritics in searches', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      // Made here, pushed: the service holds the barcode.
      const made = await device.call('products.create', { name: 'Ciocolată amăruie', code: 'CIOC-1', barcode: '5941234000024', price_bani: 899, vat_rate: 21, price_includes_vat: true });
      // A product whose name contains the same digits must not win a scan.
      await device.call('products.create', { name: 'Cutie 5941234000024', price_bani: 100, vat_rate: 21 });
      await device.call('sync.now');
      const remote = await server.api(company.apiKey, 'GET', '/products?barcode=5941234000024');
      expect(remote.body.data.data.map((p: { name: string }) => p.name)).toEqual(['Ciocolată amăruie']);
      // Made on the service, pulled: the device holds it.
      await server.api(company.apiKey, 'POST', '/products', { name: 'Ţuică de prune', barcode: '5941234000031', price: 45, vat_rate: 21 });
      await device.call('sync.now');
      const scanned = await device.call('products.list', { search: '5941234000031', limit: 10, offset: 0 });
      expect(scanned.items.map((p) => p.name)).toEqual(['Ţuică de prune']);
      expect(scanned.items[0]!.barcode).toBe('5941234000031');
      const exact = await device.call('products.list', { search: '5941234000024', limit: 10, offset: 0 });
      expect(exact.items.map((p) => p.id)).toEqual([made.id]);
      // The counter's scan lookup: code or barcode exactly, never a name or a part of a code.
      expect((await device.call('products.byCode', { code: '5941234000024' }))?.id).toBe(made.id);
      expect((await device.call('products.byCode', { code: 'CIOC-1' }))?.id).toBe(made.id);
      expect((await device.call('products.byCode', { code: '5941234000031' }))?.name).toBe('Ţuică de prune');
      expect(await device.call('products.byCode', { code: '594123400002' })).toBeNull();
      expect(await device.call('products.byCode', { code: 'Cutie' })).toBeNull();
      // Folded search: cedilla ţ and comma ț, ă, any case.
      expect((await device.call('products.list', { search: 'TUICA', limit: 10, offset: 0 })).items.map((p) => p.name)).toEqual(['Ţuică de prune']);
      expect((await device.call('products.list', { search: 'țuică', limit: 10, offset: 0 })).items.map((p) => p.name)).toEqual(['Ţuică de prune']);
      expect((await device.call('products.list', { search: 'amaruie', limit: 10, offset: 0 })).items.map((p) => p.name)).toEqual(['Ciocolată amăruie']);
      await device.call('clients.create', { type: 'person', name: 'Ștefan Popescu', country: 'RO' });
      await device.call('clients.create', { type: 'person', name: 'Ştefania Ionescu', country: 'RO' });
      const clients = await device.call('clients.list', { search: 'stefan', limit: 10, offset: 0 });
      expect(clients.items.map((c) => c.name).sort()).toEqual(['Ştefania Ionescu', 'Ștefan Popescu']);
      // An edit of the barcode goes up too, and clearing it as well.
      await device.call('products.update', { id: made.id, patch: { barcode: null } });
      await device.call('sync.now');
      const cleared = await server.api(company.apiKey, 'GET', '/products?barcode=5941234000024');
      expect(cleared.body.data.data).toEqual([]);
    } finally {
      await device.close();
    }
  });

  it('sells a cart once: the same cart again, the reply lost on the way back, 500 and 429 from the service: one invoice, one payment, one chitanță', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'TC');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 5, low_water: 2 });
      const client = await device.call('clients.create', { type: 'person', name: 'Ana Pop', country: 'RO' });
      const cart = '3f1d4c2a-9b8e-4f6a-8c1d-2e3f4a5b6c7d';
      const sale = {
        cart_id: cart, series_id: seriesId, client_id: client.id, payment_method: 'receipt' as const, card_bani: 500,
        lines: [{ description: 'Pâine', quantity: 2, unit_price_bani: 826, vat_rate: 21 }],
      };
      // The service fails in every way a counter's network does while the sale goes up.
      proxy.plan(['status500', 'status429', 'drop_after', 'drop_after', 'drop_after']);
      const first = await device.call('counter.sell', sale);
      expect(first.replayed).toBe(false);
      const again = await device.call('counter.sell', sale);
      expect(again.replayed).toBe(true);
      expect(again.invoice.id).toBe(first.invoice.id);
      expect(again.invoice.full_number).toBe(first.invoice.full_number);
      for (let i = 0; i < 8; i++) {
        const s = await device.call('sync.now');
        if (s.outbox.pending === 0 && s.outbox.in_flight === 0 && s.outbox.failed === 0) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      // The faults did happen: the service acted on requests whose replies were lost.
      expect(proxy.counts.drop_after).toBeGreaterThanOrEqual(3);
      expect(proxy.counts.status500).toBeGreaterThanOrEqual(1);
      const invoices = await server.api(company.apiKey, 'GET', '/invoices?per_page=100');
      expect(invoices.body.data.total).toBe(1);
      const inv = invoices.body.data.data[0];
      expect(inv.full_number).toBe(first.invoice.full_number);
      expect(inv.client_local_uuid).toBe(cart);
      const expanded = await server.api(company.apiKey, 'GET', `/invoices/${inv.id}?expand[]=payments`);
      expect(expanded.body.data.paid_state).toBe('paid');
      const card = expanded.body.data.payments.filter((p: { type: string }) => p.type === 'card');
      expect(card.map((p: { amount: number }) => p.amount)).toEqual([5]);
      const receipts = await server.api(company.apiKey, 'GET', '/receipts?per_page=100');
      const mine = receipts.body.data.data.filter((r: { invoice: { id: string } | null }) => r.invoice?.id === inv.id);
      expect(mine.map((r: { amount: number }) => r.amount)).toEqual([Number((first.invoice.totals.total_bani / 100 - 5).toFixed(2))]);
      // The same cart after sync still answers the first sale.
      const later = await device.call('counter.sell', sale);
      expect(later.replayed).toBe(true);
      expect((await server.api(company.apiKey, 'GET', '/invoices?per_page=100')).body.data.total).toBe(1);
    } finally {
      await device.close();
    }
  });

  it('gives a cash sale its chitanță number at once on two counters offline, never the same number, and the service keeps them paired', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'TD');
    const rs = await server.api(company.apiKey, 'POST', '/receipt-series', { prefix: 'CD' });
    expect(rs.status).toBeLessThan(300);
    const receiptSeriesId: string = rs.body.data.id;
    const counters = [openDevice(proxy.base, company.apiKey), openDevice(proxy.base, company.apiKey)];
    try {
      const clients: string[] = [];
      for (const device of counters) {
        await device.call('sync.now');
        await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 4, low_water: 0 });
        await device.call('series.setMode', { id: receiptSeriesId, mode: 'shared', pool_target: 3, low_water: 0 });
        clients.push((await device.call('clients.create', { type: 'person', name: 'Cumpărător', country: 'RO' })).id);
      }
      proxy.setDown(true);
      const sold: { invoice: string; receipt: string | null; cart: string }[] = [];
      for (let i = 0; i < 3; i++) {
        for (const [k, device] of counters.entries()) {
          const cart = `0000000${k}-0000-4000-8000-00000000000${i}`;
          const sale = await device.call('counter.sell', {
            cart_id: cart, series_id: seriesId, client_id: clients[k]!, payment_method: 'receipt',
            lines: [{ description: `Articol ${k}.${i}`, quantity: 1, unit_price_bani: 1000 + i, vat_rate: 21 }],
          });
          // Printable right away: the chitanță has its final number, offline.
          expect(sale.receipt?.receipt_number).toMatch(/^CD-\d+$/);
          sold.push({ invoice: sale.invoice.full_number ?? '', receipt: sale.receipt!.receipt_number, cart });
        }
      }
      const numbers = sold.map((s) => s.receipt);
      expect(new Set(numbers).size).toBe(6);
      expect(new Set(sold.map((s) => s.invoice)).size).toBe(6);
      proxy.setDown(false);
      for (const device of counters) {
        await device.call('sync.now');
        expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      }
      const receipts = await server.api(company.apiKey, 'GET', '/receipts?per_page=100');
      const remote = receipts.body.data.data as { receipt_number: string; invoice: { number: string } | null }[];
      expect(remote.map((r) => r.receipt_number).sort()).toEqual([...numbers].sort());
      for (const s of sold) expect(remote.find((r) => r.receipt_number === s.receipt)?.invoice?.number).toBe(s.invoice);
    } finally {
      for (const device of counters) await device.close();
    }
  });
});
