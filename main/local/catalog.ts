import { bpToPercent } from '../../shared/invoice-math';
import { sql } from '../db/sql';
import type { LocalContext } from './context';

export function listCurrencies(ctx: LocalContext) {
  return ctx.store.reader
    .all<{ code: string; description: string; is_default: number }>(sql`SELECT code, description, is_default FROM currencies ORDER BY is_default DESC, code`)
    .map((c) => ({ code: c.code, description: c.description, is_default: c.is_default === 1 }));
}

export function listVatRates(ctx: LocalContext) {
  return ctx.store.reader
    .all<{ id: string; rate_bp: number; name: string; is_custom: number }>(sql`SELECT id, rate_bp, name, is_custom FROM vat_rates WHERE is_deleted = 0 ORDER BY rate_bp DESC`)
    .map((r) => ({ id: r.id, rate: bpToPercent(r.rate_bp), name: r.name, is_custom: r.is_custom === 1 }));
}

export function listSupplierBills(ctx: LocalContext, input: { unpaid_only?: boolean | undefined; limit: number; offset: number }) {
  return ctx.store.snapshot((db) => {
    const where = input.unpaid_only ? sql`unpaid_bani > 0` : sql`1 = 1`;
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM supplier_bills WHERE ${where}`)?.n ?? 0;
    const items = db.all<{ id: string; invoice_number: string; supplier_name: string; issue_date: string | null; due_date: string | null; currency: string; tax_inclusive_bani: number; unpaid_bani: number; status: string; has_pdf: number }>(
      sql`SELECT id, invoice_number, supplier_name, issue_date, due_date, currency, tax_inclusive_bani, unpaid_bani, status,
                 json_extract(data, '$.efactura_message_id') IS NOT NULL AS has_pdf
          FROM supplier_bills WHERE ${where} ORDER BY due_date, id LIMIT ${input.limit} OFFSET ${input.offset}`,
    );
    return { items: items.map(({ has_pdf, ...b }) => ({ ...b, has_efactura_pdf: has_pdf === 1 })), total };
  });
}
