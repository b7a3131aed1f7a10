import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { RO_BUYER, SELLER_PROFILE, fetchRaw, firm, invoice, storno, startEnv, type Env, type Firm } from './helpers';

/**
 * Issued means frozen: an issued invoice keeps the seller and the buyer as they stood at issue. Later
 * edits of the company profile or of the client change neither its JSON nor its e-Factura XML.
 */
describe.each(DIALECTS)('an issued invoice is frozen on %s', (dialect) => {
  let env: Env;
  let seller: Firm;

  beforeAll(async () => {
    env = await startEnv(dialect);
    seller = await firm(env, { link: false });
  }, 60_000);

  afterAll(async () => {
    await env?.close();
  });

  async function snapshot(id: string): Promise<{ json: Record<string, unknown>; xml: string }> {
    const json = await seller.ok('GET', `/invoices/${id}`);
    const xml = await fetchRaw(env, seller.key, `/invoices/${id}/efactura-xml`);
    expect(xml.status).toBe(200);
    const { updated_at: _u, storno_id: _s, status: _st, efactura_status: _e, ...stable } = json.body.data as Record<string, unknown>;
    return { json: stable, xml: xml.bytes.toString('utf8') };
  }

  it('keeps seller and buyer through profile and client edits, for created, draft-issued, converted and storno invoices', async () => {
    const created = await invoice(seller, { client: { ...RO_BUYER, postal_code: '700001' } });
    const clientId = String(created.client_id);
    const draft = await invoice(seller, { is_draft: true });
    const issuedDraft = (await seller.ok('POST', `/invoices/${draft.id}/issue`, {})).body.data as { id: string };
    const proforma = await invoice(seller, { document_type: 'proforma' });
    const converted = (await seller.ok('POST', `/invoices/${proforma.id}/convert`, {}, 201)).body.data as { id: string };
    const reversed = await storno(seller, issuedDraft.id);
    const ids = [created.id, converted.id, reversed.id];
    const before = await Promise.all(ids.map((id) => snapshot(id)));
    expect(before[0]!.json.seller).toMatchObject({ name: SELLER_PROFILE.name, street: SELLER_PROFILE.street, county_code: 'RO-CJ', vat_on_collection: false });
    expect(before[0]!.xml).toContain('<cbc:PostalZone>700001</cbc:PostalZone>');

    await seller.ok('PUT', '/company/profile', {
      name: 'Alt Nume SRL', street: 'Bd. Nou 99', city: 'Sector 5', county: 'București', postal_code: '050001', iban: 'RO09BCYP0000001234567890',
      reg_com: 'J40/1/2026', email: 'nou@firma.test', phone: '0211234567', vat_on_collection: true, capital_social_bani: 100_000,
    });
    expect((await seller.call('PUT', `/clients/${clientId}`, { name: 'Client Redenumit SRL', address: 'Str. Alta 2', city: 'Vaslui', county: 'Vaslui', postal_code: '730001' })).status).toBeLessThan(300);

    const after = await Promise.all(ids.map((id) => snapshot(id)));
    for (let i = 0; i < ids.length; i += 1) {
      expect(after[i]!.json, ids[i]).toEqual(before[i]!.json);
      expect(after[i]!.xml, ids[i]).toBe(before[i]!.xml);
    }
    // A new invoice takes today's profile, with the VAT-on-collection code and mention.
    const fresh = await invoice(seller);
    const now = await snapshot(fresh.id);
    expect(now.json.seller).toMatchObject({ name: 'Alt Nume SRL', vat_on_collection: true });
    expect(now.xml).toContain('<cbc:DescriptionCode>432</cbc:DescriptionCode>');
    expect(now.xml).toContain('<cbc:CityName>SECTOR5</cbc:CityName>');
  });
});
