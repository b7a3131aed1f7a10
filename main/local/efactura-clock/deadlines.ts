import { addDays } from '../../../shared/dates';
import type { EfacturaDeadline } from '../../../shared/ipc/contract';
import { uploadDeadlineState } from '../../../shared/ro/working-days';
import { sql } from '../../db/sql';
import type { LocalContext } from '../context';

/**
 * The fiscal invoices ANAF has not accepted yet whose upload deadline (5 working days from issue) is
 * near, today or past: what the sync centre warns about. Every fiscal invoice must reach RO e-Factura
 * (B2B and, since 2025, B2C), so all of them count, not only those marked for sending.
 */
export function efacturaDeadlines(ctx: LocalContext): { today: string; items: EfacturaDeadline[] } {
  const today = ctx.today();
  // Older than a month is long overdue and already reported: the list stays bounded.
  const rows = ctx.store.reader.all<{ id: string; full_number: string | null; issue_date: string; efactura_status: string; efactura_enabled: number }>(sql`
    SELECT id, full_number, issue_date, efactura_status, efactura_enabled FROM invoices
    WHERE is_deleted = 0 AND document_type = 'fiscal' AND status IN ('issued', 'storno') AND efactura_status <> 'accepted'
      AND efactura_status <> 'pending' AND issue_date >= ${addDays(today, -31)}
    ORDER BY issue_date, full_number LIMIT 500`);
  const items: EfacturaDeadline[] = [];
  for (const r of rows) {
    const { deadline, state } = uploadDeadlineState(r.issue_date, today);
    if (state === 'ok') continue;
    items.push({ id: r.id, full_number: r.full_number, issue_date: r.issue_date, deadline, state, efactura_status: r.efactura_status, efactura_enabled: r.efactura_enabled === 1 });
  }
  return { today, items };
}
