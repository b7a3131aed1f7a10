import { bpToPercent, fromMilli, fromPriceE4, storedBreakdownCategory } from '../../../shared/invoice-math';
import { fromBani } from '../../../shared/money';
import { lineVatCategory, type Invoice, type InvoiceLine, type LineVatCategory, type SellerSnapshot } from '../../../shared/schemas/invoice';
import type { Client } from '../../../shared/schemas/client';
import type { Payment } from '../../../shared/schemas/receipt';
import type { InvoiceLinesTable, InvoicesTable } from './tables';
import { bool, toRonBani } from './views';
import { storedAdjustments, storedBaseMilli, storedPriceE4, storedReferences } from './pricing';

interface StoredBreakdown {
  vat_rate_bp: number;
  /** Absent in invoices stored before the breakdown was split by category, when every 0% line was E. */
  vat_category?: LineVatCategory | null;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
}

export function lineView(row: InvoiceLinesTable): InvoiceLine {
  return {
    id: row.id,
    object: 'invoice_line',
    position: Number(row.position),
    product_id: row.product_id,
    description: row.description,
    quantity: fromMilli(Number(row.quantity_milli)),
    unit: row.unit,
    unit_code: row.unit_code,
    price: fromPriceE4(storedPriceE4(row)),
    base_quantity: fromMilli(storedBaseMilli(row)),
    price_includes_vat: Number(row.price_includes_vat) === 1,
    vat_rate: bpToPercent(Number(row.vat_rate_bp)),
    discount_percent: bpToPercent(Number(row.discount_bp)),
    vat_exemption_reason: row.vat_exemption_reason,
    vat_category: lineVatCategory(Number(row.vat_rate_bp), row.vat_category),
    is_service: Number(row.is_service) === 1,
    discount: fromBani(Number(row.discount_bani)),
    net: fromBani(Number(row.net_bani)),
    vat: fromBani(Number(row.vat_bani)),
    total: fromBani(Number(row.total_bani)),
  };
}

export interface InvoiceExtras {
  lines?: InvoiceLinesTable[];
  payments?: Payment[];
  client?: Client | null;
}

export function invoiceView(row: InvoicesTable, extras: InvoiceExtras = {}): Invoice {
  const net = Number(row.net_bani);
  const vat = Number(row.vat_bani);
  const total = Number(row.total_bani);
  const discount = Number(row.discount_bani);
  const paid = Number(row.amount_paid_bani);
  const rate = row.exchange_rate === null ? null : Number(row.exchange_rate);
  const breakdown = JSON.parse(row.vat_breakdown_json) as StoredBreakdown[];
  const adjustments = storedAdjustments(row.allowances_charges_json);
  const allowances = adjustments.reduce((s, a) => s + (a.charge ? 0 : a.amount_bani), 0);
  const charges = adjustments.reduce((s, a) => s + (a.charge ? a.amount_bani : 0), 0);
  return {
    id: row.id,
    object: 'invoice',
    work_point_id: row.work_point_id,
    document_type: row.document_type,
    status: row.status,
    is_draft: row.status === 'draft',
    series_id: row.series_id,
    series_name: row.series_name,
    number: row.number === null ? null : Number(row.number),
    full_number: row.full_number,
    issue_date: row.issue_date,
    due_date: row.due_date,
    delivery_date: row.delivery_date,
    client_id: row.client_id,
    buyer: row.buyer_json === null ? null : (JSON.parse(row.buyer_json) as Invoice['buyer']),
    seller: row.seller_json ? (JSON.parse(row.seller_json) as SellerSnapshot) : null,
    currency: row.currency,
    exchange_rate: rate,
    language: row.language,
    reverse_charge: bool(row.reverse_charge),
    totals: {
      net: fromBani(net), vat: fromBani(vat), total: fromBani(total), discount: fromBani(discount),
      ...(adjustments.length ? adjustmentTotals(net, allowances, charges) : {}),
    },
    allowances_charges: adjustments.map((a) => ({
      charge: a.charge, amount: fromBani(a.amount_bani), vat_rate: bpToPercent(a.vat_rate_bp), vat_category: a.vat_category,
      reason: a.reason, reason_code: a.reason_code, vat: fromBani(a.vat_bani),
    })),
    references: storedReferences(row.references_json),
    vat_breakdown: breakdown.map((b) => ({
      vat_rate: bpToPercent(b.vat_rate_bp),
      vat_category: storedBreakdownCategory(b, bool(row.reverse_charge)),
      net: fromBani(b.net_bani),
      vat: fromBani(b.vat_bani),
      total: fromBani(b.total_bani),
    })),
    totals_ron: row.currency !== 'RON' && rate !== null ? ronTotals({ net, vat, discount, allowances, charges }, rate) : null,
    paid_state: row.paid_state,
    amount_paid: fromBani(paid),
    amount_due: fromBani(total - paid),
    payment_method: row.payment_method as Invoice['payment_method'],
    observations: row.observations,
    storno_of: row.storno_of,
    storno_id: row.storno_id,
    converted_from: row.converted_from,
    converted_to: row.converted_to,
    efactura_enabled: bool(row.efactura_enabled),
    spv_environment: row.spv_environment,
    efactura_status: row.efactura_status,
    client_local_uuid: row.client_local_uuid,
    device_id: row.device_id,
    ...(extras.lines ? { lines: extras.lines.map(lineView) } : {}),
    ...(extras.payments ? { payments: extras.payments } : {}),
    ...(extras.client !== undefined ? { client: extras.client } : {}),
    issued_at: row.issued_at === null ? null : Number(row.issued_at),
    created_at: Number(row.created_at),
    updated_at: row.updated_at === null ? null : Number(row.updated_at),
  };
}

/**
 * The totals in RON, made to add up: the net and the VAT are converted (the VAT exactly as the XML's
 * BT-111, the same rate to six decimals, rounded half away from zero), and the total is their sum, so
 * net + VAT = total in RON as in the invoice currency. Converting the total on its own could differ by a ban.
 */
function ronTotals(t: { net: number; vat: number; discount: number; allowances: number; charges: number }, rate: number): Invoice['totals_ron'] {
  const net = toRonBani(t.net, rate);
  const vat = toRonBani(t.vat, rate);
  const allowances = toRonBani(t.allowances, rate);
  const charges = toRonBani(t.charges, rate);
  return {
    net: fromBani(net), vat: fromBani(vat), total: fromBani(net + vat), discount: fromBani(toRonBani(t.discount, rate)),
    ...(t.allowances || t.charges ? adjustmentTotals(net, allowances, charges) : {}),
  };
}

/** BT-106..108, sent only on an invoice with discounts or charges on the whole of it (its `net` is then not the lines' sum). */
function adjustmentTotals(net: number, allowances: number, charges: number): { lines_net: number; allowances: number; charges: number } {
  return { lines_net: fromBani(net + allowances - charges), allowances: fromBani(allowances), charges: fromBani(charges) };
}

/** Paid state from what was received: nothing, part, or all of the total. */
export function paidState(totalBani: number, paidBani: number): InvoicesTable['paid_state'] {
  if (paidBani === 0) return 'unpaid';
  if (totalBani > 0 && paidBani >= totalBani) return 'paid';
  if (totalBani <= 0) return 'paid';
  return 'partially_paid';
}
