import { AnafTokenManager, MemoryTokenStore, type AnafOAuthConfig } from '../../server/anaf/oauth';
import { EfacturaClient } from '../../server/anaf/efactura-client';
import { AnafError } from '../../server/anaf/errors';
import type { HttpPolicy } from '../../server/anaf/http';
import type { Clock } from '../../server/platform/clock';
import { SIM_OAUTH_CLIENT, type AnafSimulator } from '../support/anaf-simulator';

export const COMPANY = 'company-1';

/** Fast retries so fault tests stay quick; the timeout is generous unless a test narrows it. */
export const fastPolicy: Partial<HttpPolicy> = { timeoutMs: 5_000, maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 };

export function oauthConfig(sim: AnafSimulator, clock?: Clock): AnafOAuthConfig {
  return { ...SIM_OAUTH_CLIENT, baseUrl: sim.baseUrls.oauth, http: fastPolicy, ...(clock ? { clock } : {}) };
}

/** Runs the consent the way a browser would: GET authorize, follow ANAF's redirect to our callback, keep the code. */
export async function consent(sim: AnafSimulator, authorizeUrl: string): Promise<URL> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`authorize answered ${res.status}`);
  return new URL(res.headers.get('location') ?? '');
}

/** A token manager already holding tokens for COMPANY, and an e-Factura client on the simulator's test environment. */
export async function connectedClient(sim: AnafSimulator, opts: { http?: Partial<HttpPolicy>; clock?: Clock } = {}) {
  const store = new MemoryTokenStore();
  const oauth = oauthConfig(sim, opts.clock);
  const tokens = new AnafTokenManager({ oauth, store, ...(opts.clock ? { clock: opts.clock } : {}) });
  const code = sim.state.issueCode(SIM_OAUTH_CLIENT.clientId, SIM_OAUTH_CLIENT.redirectUri);
  await tokens.connect(COMPANY, code);
  const client = new EfacturaClient({
    environment: 'test',
    companyId: COMPANY,
    tokens,
    baseUrls: { test: sim.baseUrls.efacturaTest, prod: sim.baseUrls.efacturaProd },
    publicBaseUrl: sim.baseUrls.pdf,
    http: { ...fastPolicy, ...opts.http },
  });
  return { client, tokens, store };
}

export interface InvoiceInput {
  id?: string;
  sellerCif?: string;
  buyerCif?: string;
  /** Leave out the seller's VAT identifier (breaks BR-RO-065). */
  withoutSellerVat?: boolean;
  root?: 'Invoice' | 'CreditNote';
}

/** A CIUS-RO invoice in the shape of shared/validators/ubl/samples/ro-minimal.xml. */
export function invoiceXml(input: InvoiceInput = {}): string {
  const id = input.id ?? 'TJG-2026-0001';
  const seller = input.sellerCif ?? '12345674';
  const buyer = input.buyerCif ?? '76543210';
  const root = input.root ?? 'Invoice';
  const ns = root === 'Invoice' ? 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2' : 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
  const typeCode = root === 'Invoice' ? '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>' : '<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>';
  const line = root === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const qty = root === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  const sellerVat = input.withoutSellerVat
    ? ''
    : `<cac:PartyTaxScheme><cbc:CompanyID>RO${seller}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="${ns}" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1</cbc:CustomizationID>
  <cbc:ID>${id}</cbc:ID>
  <cbc:IssueDate>2026-03-02</cbc:IssueDate>
  ${typeCode}
  <cbc:DocumentCurrencyCode>RON</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PostalAddress><cbc:StreetName>Str. Exemplu nr. 1</cbc:StreetName><cbc:CityName>SECTOR1</cbc:CityName><cbc:CountrySubentity>RO-B</cbc:CountrySubentity><cac:Country><cbc:IdentificationCode>RO</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    ${sellerVat}
    <cac:PartyLegalEntity><cbc:RegistrationName>Exemplu Furnizor SRL</cbc:RegistrationName><cbc:CompanyID>J40/1234/2020</cbc:CompanyID></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PostalAddress><cbc:StreetName>Str. Clientului nr. 2</cbc:StreetName><cbc:CityName>Cluj-Napoca</cbc:CityName><cbc:CountrySubentity>RO-CJ</cbc:CountrySubentity><cac:Country><cbc:IdentificationCode>RO</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>RO${buyer}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Exemplu Client SRL</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="RON">42.00</cbc:TaxAmount>
    <cac:TaxSubtotal><cbc:TaxableAmount currencyID="RON">200.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="RON">42.00</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="RON">200.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="RON">200.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="RON">242.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="RON">242.00</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:${line}><cbc:ID>1</cbc:ID><cbc:${qty} unitCode="H87">2</cbc:${qty}><cbc:LineExtensionAmount currencyID="RON">200.00</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Tejghea licenta anuala</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="RON">100.00</cbc:PriceAmount></cac:Price>
  </cac:${line}>
</${root}>
`;
}

export async function expectAnafError<T>(p: Promise<T>): Promise<AnafError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AnafError) return e;
    throw e;
  }
  throw new Error('expected an AnafError, the call succeeded');
}
