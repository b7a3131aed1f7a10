import { bpToPercent } from '../../shared/invoice-math';
import { join, sql, type Sql } from '../db/sql';
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

export function listExpenses(ctx: LocalContext, input: { from?: string | undefined; to?: string | undefined; limit: number; offset: number }) {
  return ctx.store.snapshot((db) => {
    const conditions: Sql[] = [sql`1 = 1`];
    if (input.from) conditions.push(sql`date >= ${input.from}`);
    if (input.to) conditions.push(sql`date <= ${input.to}`);
    const where = join(conditions, ' AND ');
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM expenses WHERE ${where}`)?.n ?? 0;
    const items = db.all<{ id: string; reference: string | null; description: string | null; total_bani: number; currency: string; date: string; due_date: string | null; status: string }>(
      sql`SELECT id, reference, description, total_bani, currency, date, due_date, status FROM expenses WHERE ${where}
          ORDER BY date DESC, id LIMIT ${input.limit} OFFSET ${input.offset}`,
    );
    return { items, total };
  });
}

export function listSupplierBills(ctx: LocalContext, input: { unpaid_only?: boolean | undefined; limit: number; offset: number }) {
  return ctx.store.snapshot((db) => {
    const where = input.unpaid_only ? sql`unpaid_bani > 0` : sql`1 = 1`;
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM supplier_bills WHERE ${where}`)?.n ?? 0;
    const items = db.all<{ id: string; invoice_number: string; supplier_name: string; issue_date: string | null; due_date: string | null; currency: string; tax_inclusive_bani: number; unpaid_bani: number; status: string }>(
      sql`SELECT id, invoice_number, supplier_name, issue_date, due_date, currency, tax_inclusive_bani, unpaid_bani, status
          FROM supplier_bills WHERE ${where} ORDER BY due_date, id LIMIT ${input.limit} OFFSET ${input.offset}`,
    );
    return { items, total };
  });
}
