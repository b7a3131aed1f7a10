import { fromBani, mulDivRound } from '../../../shared/money';
import { computeTotals, fromMilli, percentToBp, toMilli } from '../../../shared/invoice-math';
import type { Invoice, InvoiceLine, LineVatCategory } from '../../../shared/schemas/invoice';
import type { Receipt } from '../../../shared/schemas/receipt';
import type { Seller } from '../../../shared/print/seller';

/** Documents for the print tests, with every amount computed by shared/invoice-math like the app does. */

export const SELLER: Seller = {
  name: 'Tejghea Demo SRL',
  cui: '18547290',
  vat_payer: true,
  reg_com: 'J40/1234/2016',
  address: 'Str. Lipscani nr. 12',
  city: 'București, Sector 3',
  county: 'București',
  country: 'RO',
  iban: 'RO49AAAA1B31007593840000',
  bank: 'Banca Transilvania',
  capital_social_bani: 20_000,
};

export interface LineSpec {
  description: string;
  quantity: number;
  price: number;
  vat_rate: number;
  unit?: string;
  discount_percent?: number;
  vat_exemption_reason?: string;
  vat_category?: LineVatCategory;
}

export function makeInvoice(specs: LineSpec[], overrides: Partial<Invoice> = {}): Invoice {
  const reverse = overrides.reverse_charge === true;
  const inputs = specs.map((s) => ({
    quantity_milli: toMilli(s.quantity),
    unit_price_bani: Math.round(s.price * 100),
    vat_rate_bp: percentToBp(s.vat_rate),
    discount_bp: percentToBp(s.discount_percent ?? 0),
    vat_category: s.vat_category,
  }));
  const totals = computeTotals(inputs, { reverse_charge: reverse });
  const lines: InvoiceLine[] = specs.map((s, i) => {
    const a = totals.lines[i]!;
    return {
      id: `invl_${i + 1}`,
      object: 'invoice_line',
      position: i + 1,
      product_id: null,
      description: s.description,
      quantity: fromMilli(inputs[i]!.quantity_milli),
      unit: s.unit ?? 'buc',
      unit_code: 'H87',
      price: s.price,
      vat_rate: reverse ? 0 : s.vat_rate,
      discount_percent: s.discount_percent ?? 0,
      vat_exemption_reason: s.vat_exemption_reason ?? null,
      // As the service answers: a 0% line's category, E when none was given; none above 0%.
      vat_category: s.vat_rate === 0 ? (s.vat_category ?? 'E') : null,
      discount: fromBani(a.discount_bani),
      net: fromBani(a.net_bani),
      vat: fromBani(a.vat_bani),
      total: fromBani(a.total_bani),
    };
  });
  const currency = overrides.currency ?? 'RON';
  const rate = overrides.exchange_rate ?? null;
  const ron = (b: number) => (rate ? fromBani(mulDivRound(b, Math.round(rate * 10_000), 10_000)) : 0);
  const base: Invoice = {
    id: 'inv_test0001',
    object: 'invoice',
    work_point_id: 'wp_1',
    document_type: 'fiscal',
    status: 'issued',
    is_draft: false,
    series_id: 'ser_1',
    series_name: 'TJ',
    number: 42,
    full_number: 'TJ-2026-0042',
    issue_date: '2026-11-21',
    due_date: '2026-12-05',
    client_id: 'cli_1',
    buyer: {
      name: 'Client Exemplu SRL',
      cui: '14399840',
      vat_payer: true,
      reg_com: 'J12/345/2001',
      cnp: null,
      address: 'Bd. Eroilor nr. 5',
      city: 'Cluj-Napoca',
      county: 'Cluj',
      country: 'RO',
      iban: 'RO09BCYP0000001234567890',
      bank: null,
    },
    currency,
    exchange_rate: rate,
    language: 'ro',
    reverse_charge: reverse,
    totals: {
      net: fromBani(totals.net_bani),
      vat: fromBani(totals.vat_bani),
      total: fromBani(totals.total_bani),
      discount: fromBani(totals.discount_bani),
    },
    vat_breakdown: totals.breakdown.map((b) => ({
      vat_rate: b.vat_rate_bp / 100,
      vat_category: b.vat_category,
      net: fromBani(b.net_bani),
      vat: fromBani(b.vat_bani),
      total: fromBani(b.total_bani),
    })),
    totals_ron:
      currency !== 'RON' && rate
        ? {
            net: ron(totals.net_bani),
            vat: ron(totals.vat_bani),
            total: ron(totals.net_bani) + ron(totals.vat_bani),
            discount: ron(totals.discount_bani),
          }
        : null,
    paid_state: 'unpaid',
    amount_paid: 0,
    amount_due: fromBani(totals.total_bani),
    payment_method: null,
    observations: null,
    storno_of: null,
    storno_id: null,
    converted_from: null,
    converted_to: null,
    efactura_enabled: false,
    spv_environment: 'test',
    efactura_status: 'not_sent',
    client_local_uuid: null,
    device_id: null,
    lines,
    issued_at: 1_795_000_000,
    created_at: 1_795_000_000,
    updated_at: null,
  };
  return { ...base, ...overrides, lines, totals: base.totals, vat_breakdown: base.vat_breakdown, totals_ron: overrides.totals_ron ?? base.totals_ron };
}

export function makeReceipt(overrides: Partial<Receipt> = {}): Receipt {
  return {
    id: 'rcpt_test0001',
    object: 'receipt',
    receipt_number: 'CH-0007',
    series_id: 'ser_ch',
    amount: 1234.5,
    amount_without_vat: 1020.25,
    amount_vat: 214.25,
    currency: 'RON',
    date: '2026-11-21',
    observations: null,
    language: 'ro',
    is_draft: false,
    is_deleted: false,
    exchange_rate: null,
    exchange_currency: null,
    type: 'receipt',
    client: { id: 'cli_1', name: 'Client Exemplu SRL' },
    invoice: { id: 'inv_test0001', number: 'TJ-2026-0042', total: 1234.5, currency: 'RON', is_paid: true },
    payment: null,
    client_local_uuid: null,
    created_at: 1_795_000_000,
    updated_at: null,
    ...overrides,
  };
}
