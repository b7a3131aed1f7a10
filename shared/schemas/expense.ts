import { z } from 'zod';
import { decimalStringToBani, isWireMoney, scaleExact, toBani, type Bani } from '../money';
import { isValidIsoDate } from '../dates';
import { toMilli } from '../invoice-math';
import { MAX_AMOUNT, MAX_AMOUNT_BANI, MAX_EXCHANGE_RATE, MAX_QUANTITY } from './common';

/**
 * Expenses on the wire. The contract fixes the Expense object, the pay and update bodies and the
 * VAT vocabulary; the create body, the line (item) shape, the events and accounting periods are our
 * design (docs/api-decisions.md, "Expenses"). Inputs take amounts as JSON numbers (the contract's
 * `amount (number)`); decimal strings are accepted too, so a client may echo back what it read.
 * Outputs write every expense amount as a decimal string with two decimals.
 *
 * Field messages are written `English|Română`: the server shows the caller's language.
 */

// ---------------------------------------------------------------------------------------------
// Vocabulary

/** Payment type codes of the contract, with their names in both languages. */
export const PAYMENT_TYPES = {
  1: { en: 'Cash', ro: 'Numerar' },
  2: { en: 'Bank transfer', ro: 'Transfer bancar' },
  3: { en: 'Card', ro: 'Card' },
  4: { en: 'Check', ro: 'Cec' },
  5: { en: 'Promissory note', ro: 'Bilet la ordin' },
  6: { en: 'Other', ro: 'Altele' },
  7: { en: 'Compensation', ro: 'Compensare' },
} as const satisfies Record<number, { en: string; ro: string }>;
export type PaymentTypeId = keyof typeof PAYMENT_TYPES;

/** Single VAT rates an expense (or one of its lines) may carry, in percent. */
export const EXPENSE_VAT_RATES = [0, 5, 9, 11, 19, 21] as const;
export type ExpenseVatRate = (typeof EXPENSE_VAT_RATES)[number];
/** `mix`: a multi-rate receipt whose total VAT is given by hand in `amount_vat_manual`. */
export type ExpenseVat = ExpenseVatRate | 'mix';

export const EXPENSE_STATUSES = ['unpaid', 'overdue', 'paid'] as const;
export type ExpenseStatus = (typeof EXPENSE_STATUSES)[number];

/** The firm accounting currency: `account_amount` is always in it. */
export const ACCOUNTING_CURRENCY = 'RON';

// ---------------------------------------------------------------------------------------------
// Input members built on z.unknown(): they give one clear message per member in both languages
// (zod's own union and type messages would say "Invalid input"), and `meta` documents the type in
// the OpenAPI document.

type Check<T> = { ok: true; value: T } | { ok: false; message: string };

const REQUIRED = 'Required.|Câmp obligatoriu.';

function member<T>(jsonSchema: Record<string, unknown>, check: (value: unknown) => Check<T>) {
  return z
    .unknown()
    .meta(jsonSchema)
    .transform((value, ctx): T => {
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', message: REQUIRED });
        return z.NEVER;
      }
      const result = check(value);
      if (result.ok) return result.value;
      ctx.addIssue({ code: 'custom', message: result.message });
      return z.NEVER;
    });
}

/** Bani, or null when not an amount; an amount past the range is ±Infinity, refused with its limit. */
function amountToBani(value: unknown): Bani | null {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && Math.abs(value) > MAX_AMOUNT) return value < 0 ? -Infinity : Infinity;
    return isWireMoney(value) ? toBani(value) : null;
  }
  if (typeof value === 'string') {
    try {
      return decimalStringToBani(value.trim());
    } catch {
      return /^-?\d+(\.\d{1,2})?$/.test(value.trim()) ? Infinity : null;
    }
  }
  return null;
}

const AMOUNT_RANGE_MESSAGE = `Must be at most ${MAX_AMOUNT} in absolute value.|Trebuie să fie cel mult ${MAX_AMOUNT} în valoare absolută.`;
const outOfRange = (bani: Bani) => Math.abs(bani) > MAX_AMOUNT_BANI;

const AMOUNT_SCHEMA = {
  type: ['number', 'string'],
  description: 'Amount in the expense currency: a number with at most 2 decimals, or a decimal string such as "12.34".',
};

/** An amount > 0, in bani. */
export const zPositiveAmount = member<Bani>({ ...AMOUNT_SCHEMA, exclusiveMinimum: 0 }, (v) => {
  const bani = amountToBani(v);
  if (bani === null) return { ok: false, message: 'Must be an amount with at most 2 decimals.|Trebuie să fie o sumă cu cel mult 2 zecimale.' };
  if (outOfRange(bani)) return { ok: false, message: AMOUNT_RANGE_MESSAGE };
  if (bani <= 0) return { ok: false, message: 'Must be greater than 0.|Trebuie să fie mai mare decât 0.' };
  return { ok: true, value: bani };
});

/** An amount >= 0, in bani. */
export const zNonNegativeAmount = member<Bani>({ ...AMOUNT_SCHEMA, minimum: 0 }, (v) => {
  const bani = amountToBani(v);
  if (bani === null) return { ok: false, message: 'Must be an amount with at most 2 decimals.|Trebuie să fie o sumă cu cel mult 2 zecimale.' };
  if (outOfRange(bani)) return { ok: false, message: AMOUNT_RANGE_MESSAGE };
  if (bani < 0) return { ok: false, message: 'Must be 0 or more.|Trebuie să fie cel puțin 0.' };
  return { ok: true, value: bani };
});

/** Any amount (the duplicate probe compares, it does not store), in bani. */
export const zAnyAmount = member<Bani>(AMOUNT_SCHEMA, (v) => {
  const bani = amountToBani(v);
  if (bani === null) return { ok: false, message: 'Must be an amount with at most 2 decimals.|Trebuie să fie o sumă cu cel mult 2 zecimale.' };
  if (outOfRange(bani)) return { ok: false, message: AMOUNT_RANGE_MESSAGE };
  return { ok: true, value: bani };
});

/** `YYYY-MM-DD`, a day that exists. */
export const zExpenseDate = member<string>({ type: 'string', format: 'date' }, (v) =>
  isValidIsoDate(v)
    ? { ok: true, value: v }
    : { ok: false, message: 'Must be a date written YYYY-MM-DD.|Trebuie să fie o dată scrisă AAAA-LL-ZZ.' },
);

/** The contract's "flag 0/1 or boolean". */
export const zFlag = member<boolean>({ type: ['boolean', 'integer'], enum: [true, false, 0, 1] }, (v) =>
  v === true || v === 1 || v === false || v === 0
    ? { ok: true, value: v === true || v === 1 }
    : { ok: false, message: 'Must be true, false, 1 or 0.|Trebuie să fie true, false, 1 sau 0.' },
);

export const PAYMENT_TYPE_MESSAGE =
  'Payment type must be an integer between 1 and 7 (1 Cash, 2 Bank transfer, 3 Card, 4 Check, 5 Promissory note, 6 Other, 7 Compensation).' +
  '|Tipul plății trebuie să fie un număr întreg între 1 și 7 (1 Numerar, 2 Transfer bancar, 3 Card, 4 Cec, 5 Bilet la ordin, 6 Altele, 7 Compensare).';

export const zPaymentTypeId = member<PaymentTypeId>(
  { type: 'integer', minimum: 1, maximum: 7, description: '1 Cash, 2 Bank transfer, 3 Card, 4 Check, 5 Promissory note, 6 Other, 7 Compensation' },
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 7
      ? { ok: true, value: v as PaymentTypeId }
      : { ok: false, message: PAYMENT_TYPE_MESSAGE },
);

const VAT_MESSAGE = 'VAT must be one of 0, 5, 9, 11, 19, 21 or "mix".|TVA trebuie să fie una dintre 0, 5, 9, 11, 19, 21 sau "mix".';
const RATE_MESSAGE = 'VAT rate must be one of 0, 5, 9, 11, 19, 21.|Cota de TVA trebuie să fie una dintre 0, 5, 9, 11, 19, 21.';

function isRate(v: unknown): v is ExpenseVatRate {
  return typeof v === 'number' && (EXPENSE_VAT_RATES as readonly number[]).includes(v);
}

/** The header `vat`: a single rate, or `mix`. */
export const zExpenseVat = member<ExpenseVat>({ enum: [...EXPENSE_VAT_RATES, 'mix'] }, (v) =>
  isRate(v) || v === 'mix' ? { ok: true, value: v } : { ok: false, message: VAT_MESSAGE },
);

/** The rate of one line or one breakdown entry (never `mix`). */
export const zExpenseVatRate = member<ExpenseVatRate>({ enum: [...EXPENSE_VAT_RATES] }, (v) =>
  isRate(v) ? { ok: true, value: v } : { ok: false, message: RATE_MESSAGE },
);

/** Exchange rate to RON, up to 6 decimals (a BNR rate with 4, divided by its multiplier), in millionths. */
export const zExchangeRateMicro = member<number>(
  { type: 'number', exclusiveMinimum: 0, description: 'Lei for one unit of the currency, at most 6 decimals.' },
  (v) => {
    if (typeof v !== 'number' || !(v > 0)) return { ok: false, message: 'Must be a number greater than 0.|Trebuie să fie un număr mai mare decât 0.' };
    if (v > MAX_EXCHANGE_RATE) return { ok: false, message: `Must be at most ${MAX_EXCHANGE_RATE}.|Trebuie să fie cel mult ${MAX_EXCHANGE_RATE}.` };
    try {
      return { ok: true, value: scaleExact(v, 6, 'Exchange rate') };
    } catch {
      return { ok: false, message: 'At most 6 decimals.|Cel mult 6 zecimale.' };
    }
  },
);

/** Quantity of a line: > 0, at most 3 decimals, in thousandths. */
export const zLineQuantityMilli = member<number>({ type: 'number', exclusiveMinimum: 0, description: 'At most 3 decimals.' }, (v) => {
  if (typeof v !== 'number' || !(v > 0)) return { ok: false, message: 'Must be a number greater than 0.|Trebuie să fie un număr mai mare decât 0.' };
  if (v > MAX_QUANTITY) return { ok: false, message: `Must be at most ${MAX_QUANTITY}.|Trebuie să fie cel mult ${MAX_QUANTITY}.` };
  try {
    return { ok: true, value: toMilli(v) };
  } catch {
    return { ok: false, message: 'At most 3 decimals.|Cel mult 3 zecimale.' };
  }
});

export const zCurrency = member<string>({ type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }, (v) =>
  typeof v === 'string' && /^[A-Za-z]{3}$/.test(v.trim())
    ? { ok: true, value: v.trim().toUpperCase() }
    : { ok: false, message: 'Must be a three-letter ISO 4217 code.|Trebuie să fie un cod ISO 4217 de trei litere.' },
);

const text = (max: number) => z.string().trim().max(max);

// ---------------------------------------------------------------------------------------------
// Bodies

/** One line of an itemized expense (create and update alike). */
export const zExpenseItemInput = z.object({
  description: text(500).min(1),
  /** Default 1. */
  quantity: zLineQuantityMilli.optional(),
  /** Price of one unit; VAT-inclusive when the expense's `with_vat` is true. */
  unit_price: zNonNegativeAmount,
  vat: zExpenseVatRate,
}).superRefine((item, ctx) => {
  // The line's amount is an amount too, under the same limit as any member.
  if (Math.abs((item.quantity ?? 1000) * item.unit_price) / 1000 > MAX_AMOUNT_BANI) {
    ctx.addIssue({
      code: 'custom', path: ['unit_price'],
      message: `quantity × unit_price must be at most ${MAX_AMOUNT}.|cantitate × preț unitar trebuie să fie cel mult ${MAX_AMOUNT}.`,
    });
  }
});
export type ExpenseItemInput = z.output<typeof zExpenseItemInput>;

/** One per-rate entry of a multi-rate receipt, as printed on it. */
export const zVatBreakdownInput = z.object({
  rate: zExpenseVatRate,
  net: zNonNegativeAmount,
  vat_amount: zNonNegativeAmount,
  gross: zNonNegativeAmount,
});
export type VatBreakdownInput = z.output<typeof zVatBreakdownInput>;

const zVatBreakdownList = z.array(zVatBreakdownInput).min(2).max(EXPENSE_VAT_RATES.length);
const zItemList = z.array(zExpenseItemInput).max(500);

const nullableText = (max: number) => text(max).nullable();

/** Members shared by create and update; required-ness differs and is set below. */
const expenseMembers = {
  supplier_id: z.string().min(1).max(64),
  category_id: z.number().int().positive().nullable(),
  reference: nullableText(100),
  description: nullableText(2000),
  date: zExpenseDate,
  due_date: zExpenseDate.nullable(),
  amount: zPositiveAmount,
  vat: zExpenseVat,
  amount_vat_manual: zNonNegativeAmount,
  with_vat: zFlag,
  items: zItemList,
  vat_breakdown: zVatBreakdownList,
  currency: zCurrency,
  exchange_rate: zExchangeRateMicro,
  is_paid: zFlag,
  paid_date: zExpenseDate,
  payment_type: zPaymentTypeId,
  /** The desktop operator who recorded it (API keys are not users). */
  user_id: z.number().int().positive().nullable(),
};

/**
 * POST /expenses. `amount` and `vat` are required unless `items` has lines (then the header is
 * derived from them); that rule needs the whole body, so the server checks it, not this schema.
 */
export const zExpenseCreate = z.object({
  ...expenseMembers,
  category_id: expenseMembers.category_id.optional(),
  reference: expenseMembers.reference.optional(),
  description: expenseMembers.description.optional(),
  date: expenseMembers.date.optional(),
  due_date: expenseMembers.due_date.optional(),
  amount: expenseMembers.amount.optional(),
  vat: expenseMembers.vat.optional(),
  amount_vat_manual: expenseMembers.amount_vat_manual.optional(),
  with_vat: expenseMembers.with_vat.optional(),
  items: expenseMembers.items.optional(),
  vat_breakdown: expenseMembers.vat_breakdown.optional(),
  currency: expenseMembers.currency.optional(),
  exchange_rate: expenseMembers.exchange_rate.optional(),
  is_paid: expenseMembers.is_paid.optional(),
  paid_date: expenseMembers.paid_date.optional(),
  payment_type: expenseMembers.payment_type.optional(),
  user_id: expenseMembers.user_id.optional(),
});
export type ExpenseCreateInput = z.input<typeof zExpenseCreate>;
export type ExpenseCreate = z.output<typeof zExpenseCreate>;

/** PUT /expenses/{id}: every member optional; omitted members keep their values. */
export const zExpenseUpdate = zExpenseCreate.extend({ supplier_id: expenseMembers.supplier_id.optional() });
export type ExpenseUpdateInput = z.input<typeof zExpenseUpdate>;
export type ExpenseUpdate = z.output<typeof zExpenseUpdate>;

/** POST /expenses/{id}/pay. */
export const zExpensePay = z.object({ paid_date: zExpenseDate, payment_type: zPaymentTypeId });
export type ExpensePayInput = z.input<typeof zExpensePay>;

// ---------------------------------------------------------------------------------------------
// Replies

/** '12.34', '0.00', '-1.05': every expense amount on the wire. */
export const zDecimal2 = z.string().regex(/^-?\d+\.\d{2}$/);

export const zExpenseAmount = z.object({ total: zDecimal2, without_vat: zDecimal2, vat: zDecimal2, currency: z.string() });

export const zExpenseLine = z.object({
  id: z.string(),
  /** `item`: a line the caller sent; `vat_group`: one line per rate made from a `mix` breakdown. */
  kind: z.enum(['item', 'vat_group']),
  description: z.string().nullable(),
  quantity: z.number(),
  unit_price: zDecimal2,
  vat_percent: z.number().int(),
  amount: z.object({ total: zDecimal2, without_vat: zDecimal2, vat: zDecimal2 }),
});
export type ExpenseLine = z.infer<typeof zExpenseLine>;

export const zVatBreakdownEntry = z.object({ rate: z.number().int(), net: zDecimal2, vat_amount: zDecimal2, gross: zDecimal2 });

/** `YYYY-MM-DD HH:MM:SS`, Europe/Bucharest wall time. */
export const zDateTimeText = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

/** The contract's Expense, plus `object`, `work_point_id`, `exchange_rate`, `is_locked`, `items`, `vat_breakdown`. */
export const zExpense = z.object({
  id: z.string(),
  object: z.literal('expense'),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  amount: zExpenseAmount,
  account_amount: zExpenseAmount,
  /** null on a multi-rate (`mix`) expense. */
  vat_percent: z.number().int().nullable(),
  with_vat: z.boolean(),
  date: z.string(),
  due_date: z.string().nullable(),
  paid_date: z.string().nullable(),
  is_paid: z.boolean(),
  payment_type: z.object({ id: z.number().int().min(1).max(7), name: z.string() }).nullable(),
  status: z.enum(EXPENSE_STATUSES),
  supplier_id: z.string(),
  category_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  currency: z.string(),
  exchange_rate: z.number().nullable(),
  work_point_id: z.string(),
  /** Dated in a closed accounting month: PUT answers `expense_locked`. */
  is_locked: z.boolean(),
  items: z.array(zExpenseLine),
  vat_breakdown: z.array(zVatBreakdownEntry),
  created_at: zDateTimeText,
  updated_at: zDateTimeText,
});
export type Expense = z.infer<typeof zExpense>;

/** `{ success: true, expense, message }` of PUT /expenses/{id} and POST /expenses/{id}/pay. */
export const zExpenseActionReply = z.object({ expense: zExpense, message: z.string() });

/** One row of the audit trail of an expense (our design). */
export const EXPENSE_EVENT_TYPES = ['created', 'updated', 'paid', 'unpaid'] as const;
export const zExpenseEvent = z.object({
  id: z.string(),
  object: z.literal('expense_event'),
  expense_id: z.string(),
  /** 1, 2, 3... in the order they happened to this expense. */
  seq: z.number().int(),
  type: z.enum(EXPENSE_EVENT_TYPES),
  /** created: {}; updated: { changes: { member: { from, to } } }; paid: { paid_date, payment_type, via }; unpaid: { paid_date }. */
  data: z.record(z.string(), z.unknown()),
  key_id: z.string(),
  work_point_id: z.string(),
  created_at: z.number().int(),
});
export type ExpenseEvent = z.infer<typeof zExpenseEvent>;

// ---------------------------------------------------------------------------------------------
// Accounting periods (our design): closing a month locks the expenses dated in it.

export const zMonth = member<string>({ type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }, (v) =>
  typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(v)
    ? { ok: true, value: v }
    : { ok: false, message: 'Must be a month written YYYY-MM.|Trebuie să fie o lună scrisă AAAA-LL.' },
);

export const zAccountingPeriodClose = z.object({ month: zMonth });

export const zAccountingPeriod = z.object({
  object: z.literal('accounting_period'),
  month: z.string(),
  status: z.literal('closed'),
  closed_at: z.number().int(),
});
export type AccountingPeriod = z.infer<typeof zAccountingPeriod>;
