import type { InvoiceView, ReceiptView } from '../../shared/ipc';
import { fromBani, mulDivRound } from '../../shared/money';
import { fromPriceE4 } from '../../shared/invoice-math';
import type { Invoice } from '../../shared/schemas/invoice';
import type { Receipt } from '../../shared/schemas/receipt';

/**
 * The host's views carry bani and local ids; the print templates take the API's resource shapes
 * (zInvoice, zReceipt: wire numbers in lei), the same ones the server returns. These adapters are
 * the one place that converts, so the templates stay usable with a server document as well.
 */
/**
 * BT-106..108 as the service sends them, only on an invoice with discounts or charges on the whole of it:
 * the lines' sum, and each kind's sum with the invoice's sign (the stored amounts carry it).
 */
function documentAdjustmentTotals(view: InvoiceView): { lines_net?: number; allowances?: number; charges?: number } {
  if (!view.allowances_charges.length) return {};
  const allowances = view.allowances_charges.filter((a) => !a.charge).reduce((sum, a) => sum + a.amount_bani, 0);
  const charges = view.allowances_charges.filter((a) => a.charge).reduce((sum, a) => sum + a.amount_bani, 0);
  return { lines_net: fromBani(view.totals.net_bani + allowances - charges), allowances: fromBani(allowances), charges: fromBani(charges) };
}

export function invoiceForPrint(view: InvoiceView): Invoice {
  const rate = view.exchange_rate;
  const toRon = (bani: number) => (rate ? fromBani(mulDivRound(bani, Math.round(rate * 10_000), 10_000)) : 0);
  return {
    id: view.id,
    object: 'invoice',
    work_point_id: '',
    document_type: view.document_type,
    status: view.status,
    is_draft: view.status === 'draft',
    series_id: view.series_id,
    series_name: view.series_name,
    number: view.number,
    full_number: view.full_number,
    issue_date: view.issue_date,
    due_date: view.due_date,
    delivery_date: view.delivery_date,
    client_id: view.client_id,
    buyer: view.buyer,
    currency: view.currency,
    exchange_rate: view.exchange_rate,
    language: view.language,
    reverse_charge: view.reverse_charge,
    totals: {
      net: fromBani(view.totals.net_bani),
      vat: fromBani(view.totals.vat_bani),
      total: fromBani(view.totals.total_bani),
      discount: fromBani(view.totals.discount_bani),
      ...documentAdjustmentTotals(view),
    },
    allowances_charges: view.allowances_charges.map((a) => ({
      charge: a.charge, amount: fromBani(a.amount_bani), vat_rate: a.vat_rate, vat_category: a.vat_category, reason: a.reason, reason_code: a.reason_code, vat: fromBani(a.vat_bani),
    })),
    references: view.references,
    vat_breakdown: view.vat_breakdown.map((b) => ({
      vat_rate: b.vat_rate,
      vat_category: b.vat_category,
      net: fromBani(b.net_bani),
      vat: fromBani(b.vat_bani),
      total: fromBani(b.total_bani),
    })),
    totals_ron:
      view.currency !== 'RON' && rate
        ? {
            net: toRon(view.totals.net_bani),
            vat: toRon(view.totals.vat_bani),
            total: fromBani(
              mulDivRound(view.totals.net_bani, Math.round(rate * 10_000), 10_000) + mulDivRound(view.totals.vat_bani, Math.round(rate * 10_000), 10_000),
            ),
            discount: toRon(view.totals.discount_bani),
          }
        : null,
    paid_state: view.paid_state,
    amount_paid: fromBani(view.amount_paid_bani),
    amount_due: fromBani(view.amount_due_bani),
    payment_method: view.payment_method,
    observations: view.observations,
    storno_of: view.storno_of,
    storno_id: view.storno_id,
    converted_from: null,
    converted_to: null,
    efactura_enabled: view.efactura_enabled,
    spv_environment: view.spv_environment,
    efactura_status: (['not_sent', 'pending', 'accepted', 'rejected'] as const).find((s) => s === view.efactura_status) ?? 'not_sent',
    client_local_uuid: null,
    device_id: null,
    lines: view.lines.map((l) => ({
      id: `${view.id}-${l.position}`,
      object: 'invoice_line',
      position: l.position,
      product_id: l.product_id,
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unit_code: l.unit_code,
      price: fromPriceE4(l.unit_price_e4),
      base_quantity: l.base_quantity,
      price_includes_vat: l.price_includes_vat,
      vat_rate: l.vat_rate,
      discount_percent: l.discount_percent,
      vat_exemption_reason: l.vat_exemption_reason,
      vat_category: l.vat_category,
      is_service: l.is_service,
      discount: fromBani(l.discount_bani),
      net: fromBani(l.net_bani),
      vat: fromBani(l.vat_bani),
      total: fromBani(l.total_bani),
    })),
    issued_at: view.issued_at,
    created_at: view.created_at,
    updated_at: view.updated_at,
  };
}

export function receiptForPrint(view: ReceiptView): Receipt {
  return {
    id: view.id,
    object: 'receipt',
    receipt_number: view.receipt_number ?? '',
    series_id: null,
    amount: fromBani(view.amount_bani),
    amount_without_vat: fromBani(view.amount_without_vat_bani),
    amount_vat: fromBani(view.amount_vat_bani),
    currency: view.currency,
    date: view.date,
    observations: view.observations,
    language: view.language,
    is_draft: view.is_draft,
    is_deleted: view.is_deleted,
    exchange_rate: null,
    exchange_currency: null,
    type: view.type,
    client: { id: view.client_id, name: view.client_name },
    invoice: view.invoice_id ? { id: view.invoice_id, number: view.invoice_full_number, total: 0, currency: view.currency, is_paid: false } : null,
    payment: null,
    client_local_uuid: null,
    created_at: view.created_at,
    updated_at: view.updated_at,
  };
}
