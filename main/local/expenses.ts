import type { z } from 'zod';
import { fromBani, mulDivRound } from '../../shared/money';
import type { ExpenseView, SupplierView, zExpenseInput, zExpensePayInput } from '../../shared/ipc/contract';
import type { DuplicateCheckInput } from '../../shared/schemas/duplicate-candidate';
import { foldForSearch } from '../../shared/text/search-fold';
import { validateCui } from '../../shared/ro/cui';
import { join, sql, type Sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { invalidInput, invalidState, notFound } from '../errors';
import { enqueue, openItemsOf } from '../sync/outbox';
import type { LocalContext } from './context';
import { likePattern, recordSyncs } from './records';

type ExpenseInput = z.output<typeof zExpenseInput>;
type PayInput = z.output<typeof zExpensePayInput>;

/**
 * Expenses and the supplier register on the device. Pulled expenses are the server's; one recorded
 * here is written at once with its outbox row (POST /expenses, the item's id as Idempotency-Key) in
 * the same transaction, like an invoice, and so is a payment (POST /expenses/{id}/pay). A supplier
 * named on a new expense and not in the register is created with it (POST /suppliers first; the
 * expense's item waits for it through its `supplier_id` ref).
 */

interface ExpenseRow {
  id: string;
  server_id: string | null;
  reference: string | null;
  description: string | null;
  supplier_id: string | null;
  supplier_name: string | null;
  total_bani: number;
  currency: string;
  date: string;
  due_date: string | null;
  paid_date: string | null;
  status: string;
}

/** The amounts as the service splits them (server/modules/expenses/amounts.ts): VAT rounded half away from zero. */
export function expenseAmounts(input: Pick<ExpenseInput, 'amount_bani' | 'vat_percent' | 'with_vat' | 'amount_vat_manual_bani'>): { net: number; vat: number; total: number } {
  if (input.vat_percent === 'mix') {
    const vat = input.amount_vat_manual_bani ?? 0;
    return { net: input.amount_bani, vat, total: input.amount_bani + vat };
  }
  const rate = input.vat_percent;
  if (input.with_vat) {
    const vat = mulDivRound(input.amount_bani, rate, 100 + rate);
    return { net: input.amount_bani - vat, vat, total: input.amount_bani };
  }
  const vat = mulDivRound(input.amount_bani, rate, 100);
  return { net: input.amount_bani, vat, total: input.amount_bani + vat };
}

/** Paid, overdue (its due date has passed) or unpaid, as of today: a pulled `status` ages. */
function statusSql(today: string): Sql {
  return sql`CASE WHEN e.paid_date IS NOT NULL OR e.status = 'paid' THEN 'paid'
                  WHEN e.due_date IS NOT NULL AND e.due_date < ${today} THEN 'overdue' ELSE 'unpaid' END`;
}

function expenseSelect(today: string): Sql {
  return sql`SELECT e.id, e.server_id, e.reference, e.description, e.supplier_id, s.name AS supplier_name, e.total_bani, e.currency, e.date,
                    e.due_date, e.paid_date, ${statusSql(today)} AS status
             FROM expenses e LEFT JOIN suppliers s ON s.id = e.supplier_id`;
}

function views(db: ReadDb, rows: ExpenseRow[]): ExpenseView[] {
  const syncs = recordSyncs(db, 'expense', rows);
  return rows.map(({ server_id: _server, ...r }) => ({ ...r, sync: syncs.get(r.id)! }));
}

function expenseView(db: ReadDb, ctx: LocalContext, id: string): ExpenseView {
  const row = db.get<ExpenseRow>(sql`${expenseSelect(ctx.today())} WHERE e.id = ${id}`);
  if (!row) throw notFound('Expense');
  return views(db, [row])[0]!;
}

export function listExpenses(ctx: LocalContext, input: { from?: string | undefined; to?: string | undefined; limit: number; offset: number }) {
  return ctx.store.snapshot((db) => {
    const conditions: Sql[] = [sql`1 = 1`];
    if (input.from) conditions.push(sql`e.date >= ${input.from}`);
    if (input.to) conditions.push(sql`e.date <= ${input.to}`);
    const where = join(conditions, ' AND ');
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM expenses e WHERE ${where}`)?.n ?? 0;
    const rows = db.all<ExpenseRow>(sql`${expenseSelect(ctx.today())} WHERE ${where} ORDER BY e.date DESC, e.id LIMIT ${input.limit} OFFSET ${input.offset}`);
    return { items: views(db, rows), total };
  });
}

/** A CUI as the register keeps it (digits only), or null when it is not one. */
function cuiDigits(text: string | undefined): string | null {
  if (!text?.trim()) return null;
  const checked = validateCui(text);
  return checked.ok ? checked.value : null;
}

/** The register's supplier with this CUI, or the one with exactly this name when no CUI is given. */
function findSupplier(db: ReadDb, name: string, cui: string | null): string | null {
  if (cui) return db.get<{ id: string }>(sql`SELECT id FROM suppliers WHERE cui = ${cui} LIMIT 1`)?.id ?? null;
  return db.get<{ id: string }>(sql`SELECT id FROM suppliers WHERE name = ${name} COLLATE NOCASE ORDER BY server_id IS NULL, id LIMIT 1`)?.id ?? null;
}

/** The supplier of a new expense: the one chosen, the one the register already has, or a new one queued for the server. */
function resolveSupplier(db: WriteDb, ctx: LocalContext, input: ExpenseInput): string {
  if (input.supplier_id) {
    if (!db.get(sql`SELECT 1 AS ok FROM suppliers WHERE id = ${input.supplier_id}`)) throw invalidInput({ supplier_id: 'Unknown supplier|Furnizor necunoscut' });
    return input.supplier_id;
  }
  const name = input.supplier_name!.trim();
  if (input.supplier_cui?.trim() && !cuiDigits(input.supplier_cui)) {
    throw invalidInput({ supplier_cui: 'Not a valid CUI (check for a typo)|CUI nevalid (verificați dacă e o greșeală de scriere)' });
  }
  const cui = cuiDigits(input.supplier_cui);
  const existing = findSupplier(db, name, cui);
  if (existing) return existing;
  const id = ctx.uuid();
  const now = ctx.clock.now();
  const vatPayer = /^\s*ro/i.test(input.supplier_cui ?? '');
  db.run(sql`INSERT INTO suppliers (id, server_id, name, cui, vat_payer, reg_com, address, created_at, updated_at)
             VALUES (${id}, NULL, ${name}, ${cui}, ${vatPayer}, NULL, NULL, ${now}, ${now})`);
  enqueue(db, ctx, {
    kind: 'supplier.create',
    entityType: 'supplier',
    entityId: id,
    request: {
      method: 'POST', path: '/suppliers', create: true, refs: [],
      body: { name, ...(input.supplier_cui?.trim() ? { cui: input.supplier_cui.trim() } : {}) },
      label: `Furnizor ${name}`,
    },
  });
  return id;
}

export function createExpense(ctx: LocalContext, input: ExpenseInput): ExpenseView {
  return ctx.store.write((db) => {
    const supplierId = resolveSupplier(db, ctx, input);
    const id = ctx.uuid();
    const date = input.date ?? ctx.today();
    if (input.due_date && input.due_date < date) throw invalidInput({ due_date: 'Must not be before the date|Nu poate fi înaintea datei' });
    const amounts = expenseAmounts(input);
    const body: Record<string, unknown> = {
      supplier_id: supplierId,
      date,
      amount: fromBani(input.amount_bani),
      vat: input.vat_percent,
      currency: input.currency,
    };
    if (input.vat_percent === 'mix') body.amount_vat_manual = fromBani(input.amount_vat_manual_bani ?? 0);
    else body.with_vat = input.with_vat;
    if (input.reference) body.reference = input.reference;
    if (input.description) body.description = input.description;
    if (input.due_date) body.due_date = input.due_date;
    if (input.exchange_rate !== undefined) body.exchange_rate = input.exchange_rate;
    db.run(sql`INSERT INTO expenses (id, server_id, reference, description, total_bani, currency, date, due_date, paid_date, status, supplier_id, data, updated_at)
               VALUES (${id}, NULL, ${input.reference ?? null}, ${input.description ?? null}, ${amounts.total}, ${input.currency}, ${date},
               ${input.due_date ?? null}, NULL, 'unpaid', ${supplierId}, ${JSON.stringify(body)}, NULL)`);
    const supplierName = db.get<{ name: string }>(sql`SELECT name FROM suppliers WHERE id = ${supplierId}`)?.name ?? '';
    enqueue(db, ctx, {
      kind: 'expense.create',
      entityType: 'expense',
      entityId: id,
      request: {
        method: 'POST', path: '/expenses', body, create: true, refs: [{ at: 'supplier_id', type: 'supplier', id: supplierId }],
        label: `Cheltuială ${input.reference ?? ''} ${supplierName}`.replace(/\s+/g, ' ').trim(),
      },
    });
    return expenseView(db, ctx, id);
  });
}

export function payExpense(ctx: LocalContext, input: PayInput): ExpenseView {
  return ctx.store.write((db) => {
    const row = db.get<ExpenseRow>(sql`${expenseSelect(ctx.today())} WHERE e.id = ${input.id}`);
    if (!row) throw notFound('Expense');
    if (row.status === 'paid') throw invalidState('The expense is already paid');
    const paidDate = input.paid_date ?? ctx.today();
    if (paidDate > ctx.today()) throw invalidInput({ paid_date: 'Must not be in the future|Nu poate fi în viitor' });
    if (paidDate < row.date) throw invalidInput({ paid_date: 'Must not be before the expense date|Nu poate fi înaintea datei cheltuielii' });
    db.run(sql`UPDATE expenses SET paid_date = ${paidDate}, status = 'paid' WHERE id = ${input.id}`);
    enqueue(db, ctx, {
      kind: 'expense.pay',
      entityType: 'expense',
      entityId: input.id,
      request: {
        method: 'POST', path: '/expenses/:id/pay', body: { paid_date: paidDate, payment_type: input.payment_type }, create: false,
        refs: [{ at: ':id', type: 'expense', id: input.id }],
        label: `Plată cheltuială ${row.reference ?? ''} ${row.supplier_name ?? ''}`.replace(/\s+/g, ' ').trim(),
      },
    });
    return expenseView(db, ctx, input.id);
  });
}

/** Undoes an expense or supplier the server never saw (outbox discard); a payment not sent is taken back. */
export function discardExpenseIn(db: WriteDb, kind: 'expense.create' | 'expense.pay' | 'supplier.create', entityId: string): void {
  if (kind === 'expense.create') db.run(sql`DELETE FROM expenses WHERE id = ${entityId}`);
  if (kind === 'supplier.create') db.run(sql`DELETE FROM suppliers WHERE id = ${entityId} AND server_id IS NULL`);
  if (kind === 'expense.pay') {
    // Paid on the server by someone else meanwhile? The next pull says so; until then it is unpaid here.
    const stillPaying = openItemsOf(db, 'expense', entityId).some((i) => i.kind === 'expense.pay');
    if (!stillPaying) db.run(sql`UPDATE expenses SET paid_date = NULL, status = 'unpaid' WHERE id = ${entityId}`);
  }
}

/**
 * The probe body of POST /expenses/check-duplicate for a prospective expense: the supplier by its
 * server id when it has one, else by name and CUI; the amount is the net, as the service compares.
 */
export function duplicateProbe(ctx: LocalContext, input: ExpenseInput): DuplicateCheckInput {
  const db = ctx.store.reader;
  const supplier = input.supplier_id
    ? db.get<{ server_id: string | null; name: string; cui: string | null }>(sql`SELECT server_id, name, cui FROM suppliers WHERE id = ${input.supplier_id}`)
    : undefined;
  if (input.supplier_id && !supplier) throw invalidInput({ supplier_id: 'Unknown supplier|Furnizor necunoscut' });
  const body: DuplicateCheckInput = {
    date: input.date ?? ctx.today(),
    amount: fromBani(expenseAmounts(input).net),
    currency: input.currency,
  };
  if (input.reference) body.reference = input.reference;
  if (supplier?.server_id) body.supplier_id = supplier.server_id;
  else {
    const name = supplier?.name ?? input.supplier_name ?? '';
    const cui = supplier?.cui ?? input.supplier_cui?.trim();
    body.supplier_data = { name, ...(cui ? { cui } : {}) };
  }
  return body;
}

/** A server expense id as this device names it (its local id when the expense is cached). */
export function expenseLocalId(db: ReadDb, serverId: string): string {
  return db.get<{ id: string }>(sql`SELECT id FROM expenses WHERE server_id = ${serverId}`)?.id ?? serverId;
}

interface SupplierRow {
  id: string;
  server_id: string | null;
  name: string;
  cui: string | null;
  vat_payer: number;
  reg_com: string | null;
  address: string | null;
  bills: number;
  unpaid_bills: number;
}

/**
 * The register with what is owed to each supplier on the supplier bills in the local cache (those of
 * this work point). Search: name and CUI, diacritics folded in the term and in the name.
 */
export function listSuppliers(ctx: LocalContext, input: { search?: string | undefined; limit: number; offset: number }): { items: SupplierView[]; total: number } {
  return ctx.store.snapshot((db) => {
    const conditions: Sql[] = [sql`1 = 1`];
    const term = foldForSearch(input.search);
    if (term) {
      const like = likePattern(term);
      const digits = term.replace(/^ro/, '').replace(/\s+/g, '');
      conditions.push(sql`(tejghea_fold(s.name) LIKE ${like} ESCAPE '\\' OR (${digits} <> '' AND s.cui LIKE ${`${digits}%`}))`);
    }
    const where = join(conditions, ' AND ');
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM suppliers s WHERE ${where}`)?.n ?? 0;
    const rows = db.all<SupplierRow>(sql`
      SELECT s.id, s.server_id, s.name, s.cui, s.vat_payer, s.reg_com, s.address,
             (SELECT COUNT(*) FROM supplier_bills b WHERE b.supplier_id = s.id) AS bills,
             (SELECT COUNT(*) FROM supplier_bills b WHERE b.supplier_id = s.id AND b.unpaid_bani <> 0) AS unpaid_bills
      FROM suppliers s WHERE ${where} ORDER BY tejghea_fold(s.name), s.id LIMIT ${input.limit} OFFSET ${input.offset}`);
    const owed = new Map<string, { currency: string; amount_bani: number }[]>();
    for (const r of rows) {
      owed.set(r.id, db.all<{ currency: string; amount_bani: number }>(sql`
        SELECT currency, SUM(unpaid_bani) AS amount_bani FROM supplier_bills WHERE supplier_id = ${r.id} AND unpaid_bani <> 0
        GROUP BY currency ORDER BY currency <> 'RON', currency`));
    }
    const syncs = recordSyncs(db, 'supplier', rows);
    return {
      total,
      items: rows.map((r) => ({
        id: r.id, name: r.name, cui: r.cui, vat_payer: r.vat_payer === 1, reg_com: r.reg_com, address: r.address, bills: r.bills,
        unpaid_bills: r.unpaid_bills, unpaid: owed.get(r.id) ?? [], sync: syncs.get(r.id)!,
      })),
    };
  });
}
