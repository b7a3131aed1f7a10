import type { z } from 'zod';
import type { zDashboardSummary } from '../../shared/ipc/contract';
import { addDays } from '../../shared/dates';
import { bpToPercent } from '../../shared/invoice-math';
import { sql } from '../db/sql';
import { counts } from '../sync/outbox';
import type { LocalContext } from './context';

type Summary = z.infer<typeof zDashboardSummary>;

/** The counter's overview, from the local cache only (answers the same offline). */
export function dashboardSummary(ctx: LocalContext, cashLimits: Summary['cash_limits'], date?: string): Summary {
  const day = date ?? ctx.today();
  const monthStart = `${day.slice(0, 7)}-01`;
  return ctx.store.snapshot((db) => {
    const issued = (from: string, to: string) =>
      db.get<{ count: number; total: number | null }>(sql`SELECT COUNT(*) AS count, SUM(total_bani) AS total FROM invoices
        WHERE is_deleted = 0 AND status IN ('issued', 'voided', 'storno') AND document_type = 'fiscal'
        AND issue_date >= ${from} AND issue_date <= ${to}`) ?? { count: 0, total: 0 };
    const today = issued(day, day);
    const month = issued(monthStart, day);
    const cash = db.get<{ count: number; total: number | null }>(sql`SELECT COUNT(*) AS count, SUM(amount_bani) AS total FROM receipts
      WHERE is_deleted = 0 AND type = 'receipt' AND date = ${day}`) ?? { count: 0, total: 0 };
    const unpaid = db.get<{ count: number; total: number | null }>(sql`SELECT COUNT(*) AS count, SUM(total_bani - amount_paid_bani) AS total
      FROM invoices WHERE is_deleted = 0 AND status = 'issued' AND paid_state <> 'paid' AND document_type = 'fiscal'`) ?? { count: 0, total: 0 };
    const drafts = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM invoices WHERE is_deleted = 0 AND status = 'draft'`)?.n ?? 0;
    // The day's VAT per rate, from the stored breakdowns (the amounts printed on each invoice).
    const vatRows = db.all<{ rate: number; net: number; vat: number }>(sql`
      SELECT CAST(json_extract(b.value, '$.vat_rate_bp') AS INTEGER) AS rate, SUM(json_extract(b.value, '$.net_bani')) AS net,
             SUM(json_extract(b.value, '$.vat_bani')) AS vat
      FROM invoices i, json_each(i.vat_breakdown) b
      WHERE i.is_deleted = 0 AND i.status IN ('issued', 'voided', 'storno') AND i.document_type = 'fiscal' AND i.issue_date = ${day}
      GROUP BY rate ORDER BY rate DESC`);
    const from = addDays(day, -29);
    const perDay = new Map(
      db.all<{ d: string; count: number; total: number }>(sql`
        SELECT issue_date AS d, COUNT(*) AS count, SUM(total_bani) AS total FROM invoices
        WHERE is_deleted = 0 AND status IN ('issued', 'voided', 'storno') AND document_type = 'fiscal'
          AND issue_date >= ${from} AND issue_date <= ${day}
        GROUP BY issue_date`).map((r) => [r.d, r]),
    );
    const daily = Array.from({ length: 30 }, (_v, i) => {
      const d = addDays(from, i);
      const r = perDay.get(d);
      return { date: d, count: r?.count ?? 0, total_bani: r?.total ?? 0 };
    });
    return {
      date: day,
      invoices_today: { count: today.count, total_bani: today.total ?? 0 },
      invoices_month: { count: month.count, total_bani: month.total ?? 0 },
      cash_today: { count: cash.count, total_bani: cash.total ?? 0 },
      unpaid: { count: unpaid.count, total_bani: unpaid.total ?? 0 },
      drafts,
      outbox: counts(db),
      cash_limits: cashLimits,
      vat_today: vatRows.map((r) => ({ vat_rate: bpToPercent(r.rate), net_bani: r.net, vat_bani: r.vat })),
      daily,
    };
  });
}
