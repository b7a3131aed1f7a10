import type { Generated } from 'kysely';

/**
 * Tables of the expenses module (Kysely row types). Money is integer bani; flags are 0/1 integers
 * (the same on SQLite and PostgreSQL); timestamps are Unix seconds; dates `YYYY-MM-DD` text.
 */

export interface SuppliersTable {
  id: string;
  company_id: string;
  name: string;
  /** Digits only, never the `RO` prefix; unique within a company. */
  cui: string | null;
  vat_payer: number;
  reg_com: string | null;
  address: string | null;
  email: string | null;
  phone: string | null;
  iban: string | null;
  created_at: number;
  updated_at: number | null;
}

export interface ExpenseCategoriesTable {
  id: Generated<number>;
  company_id: string;
  name: string;
  /** lower-cased name: what uniqueness is checked on. */
  name_key: string;
  created_at: number;
  updated_at: number | null;
}

export interface ExpensesTable {
  id: string;
  company_id: string;
  work_point_id: string;
  supplier_id: string;
  category_id: number | null;
  user_id: number | null;
  reference: string | null;
  /** The reference normalised for duplicate checks: no whitespace, upper case. */
  reference_key: string | null;
  description: string | null;
  date: string;
  due_date: string | null;
  paid_date: string | null;
  is_paid: number;
  payment_type: number | null;
  currency: string;
  /** Lei per unit of `currency`, in millionths; null for RON. */
  exchange_rate_micro: number | null;
  /** null: several rates (`mix`, or lines of different rates). */
  vat_percent: number | null;
  with_vat: number;
  /** 1 when the header is derived from lines the caller sent. */
  itemized: number;
  /** The `amount` as the caller gave it (net or gross per `with_vat`); null when itemized. */
  entered_amount_bani: number | null;
  /** `amount_vat_manual` of a `mix` expense. */
  vat_manual_bani: number | null;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
  account_net_bani: number;
  account_vat_bani: number;
  account_total_bani: number;
  created_at: number;
  updated_at: number;
}

export interface ExpenseLinesTable {
  id: string;
  expense_id: string;
  company_id: string;
  position: number;
  /** `item`: sent by the caller; `vat_group`: one per rate, made from a `mix` breakdown. */
  kind: 'item' | 'vat_group';
  description: string | null;
  quantity_milli: number;
  unit_price_bani: number;
  vat_percent: number;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
}

export interface ExpenseEventsTable {
  id: string;
  company_id: string;
  expense_id: string;
  seq: number;
  type: 'created' | 'updated' | 'paid' | 'unpaid';
  /** JSON object. */
  data: string;
  key_id: string;
  work_point_id: string;
  created_at: number;
}

export interface AccountingPeriodsTable {
  company_id: string;
  /** `YYYY-MM`. A row means the month is closed. */
  month: string;
  closed_at: number;
  closed_by_key: string;
}

export interface ExpensesTables {
  suppliers: SuppliersTable;
  expense_categories: ExpenseCategoriesTable;
  expenses: ExpensesTable;
  expense_lines: ExpenseLinesTable;
  expense_events: ExpenseEventsTable;
  accounting_periods: AccountingPeriodsTable;
}
