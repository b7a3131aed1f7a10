import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFindings, ublValidatorAvailability, validateUblFiles } from '../../../server/efactura/validator';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, invoice, sellerForTests, type Env, type Firm } from './helpers';

/**
 * Issue 14's cases through the service: what used to be numbered and then refused by our own XML
 * generator is now either written validly or refused before numbering, in Romanian at the field.
 */
const availability = ublValidatorAvailability();

describe.each(DIALECTS)('the e-Factura check before numbering on %s', (dialect) => {
  let env: Env;
  let seller: Firm;
  let dir: string;
  sellerForTests(dialect, 'pre-issue-http-', (started) => ({ env, seller, dir } = started));

  it('issues, with a valid XML, what used to break after numbering', async () => {
    const made = {
      swissVatId: await invoice(seller, {
        client: { type: 'company', name: 'Alpen AG', cui: 'CHE-123.456.789 MWST', address: 'Bahnhofstrasse 1', city: 'Zürich', country: 'CH' },
        items: [{ description: 'Mobilier', quantity: 1, price: 900, vat_rate: 0, vat_category: 'G' }],
      }),
      nameOnly: await invoice(seller, { client: { type: 'person', name: 'Ion Popescu' }, items: [{ description: 'Reparație', quantity: 1, price: 150, vat_rate: 21 }] }),
      sector4: await invoice(seller, {
        client: { type: 'company', name: 'Client Sector 4 SRL', cui: 'RO14186770', address: 'Str. Lipscani 1', city: 'București', county: 'Sector 4', country: 'RO' },
      }),
      // 500 lines of 0,02 lei at 21%: each line's own VAT rounds to 0; the rate's VAT on their sum is 2,10 lei
      // (BR-CO-17), which the arithmetic now shares out among the lines instead of refusing the invoice.
      manySmallLines: await invoice(seller, {
        client: { type: 'company', name: 'Client SRL', cui: 'RO14186770', address: 'Str. A 1', city: 'Iași', county: 'Iași' },
        items: Array.from({ length: 500 }, (_, i) => ({ description: `Șurub ${i + 1}`, quantity: 1, price: 0.02, vat_rate: 21 })),
      }),
    };
    const stored = (await seller.call('GET', `/invoices/${made.manySmallLines.id}`)).body.data as { totals: Record<string, number>; vat_breakdown: Record<string, number>[] };
    expect(stored.totals).toMatchObject({ net: 10, vat: 2.1, total: 12.1 });
    expect(stored.vat_breakdown).toMatchObject([{ vat_rate: 21, net: 10, vat: 2.1, total: 12.1 }]);
    // The rate's VAT is shared out: the stored lines carry it, 210 of them a ban each.
    const lines = (made.manySmallLines as unknown as { lines: { vat: number }[] }).lines;
    expect(lines.filter((l) => l.vat === 0.01)).toHaveLength(210);
    expect(lines.reduce((a, l) => a + Math.round(l.vat * 100), 0)).toBe(210);
    const files: string[] = [];
    for (const [name, inv] of Object.entries(made)) {
      const xml = await fetchRaw(env, seller.key, `/invoices/${inv.id}/efactura-xml`);
      expect(xml.status, name).toBe(200);
      const file = join(dir, `${name}.xml`);
      writeFileSync(file, xml.bytes);
      files.push(file);
    }
    if (availability.available) {
      const result = await validateUblFiles(files, 'strict');
      if (result.available) expect(formatFindings(result.findings.filter((f) => f.flag === 'fatal'))).toBe('');
    }
  }, 120_000);

  it('refuses before numbering, at the field and in Romanian, what ANAF would refuse', async () => {
    const first = await invoice(seller);
    const post = (body: Record<string, unknown>) => seller.call('POST', '/invoices?locale=ro', { document_type: 'fiscal', currency: 'RON', ...body });
    const zero = expectError(await post({ client: { type: 'company', name: 'Client SRL', cui: 'RO14186770', address: 'Str. A 1', city: 'Iași', county: 'Iași' }, items: [{ description: 'Serviciu', quantity: 1, price: 100, vat_rate: 0 }] }), 422, 'efactura_invalid_invoice');
    expect(Object.keys(zero.fields as object)).toEqual(['items.0.vat_exemption_reason']);
    expect((zero.fields as Record<string, string>)['items.0.vat_exemption_reason']).toMatch(/^O linie scutită cu 0% cere motivul scutirii/);
    const noSector = expectError(await post({ client: { type: 'company', name: 'Client Buc SRL', cui: 'RO14186770', address: 'Str. Lipscani 1', city: 'București', county: 'București' } , items: [{ description: 'Marfă', quantity: 1, price: 10, vat_rate: 21 }] }), 422, 'efactura_invalid_invoice');
    expect((noSector.fields as Record<string, string>)['buyer.address.city']).toMatch(/^În București e-Factura cere sectorul/);
    const next = await invoice(seller);
    expect(Number(next.number)).toBe(Number(first.number) + 1);
  }, 60_000);
});
