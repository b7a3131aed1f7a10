import { z } from 'zod';
import { sql } from 'kysely';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { validationFailed } from '../../platform/errors';
import { fromBani } from '../../../shared/money';
import { zDate, zPaymentMethodType } from '../../../shared/schemas/common';

/**
 * Issue 18: Contazen's payment statistics and its list of units of measure, answered from what we
 * hold (the payments of the work point; the units our products and e-Factura know).
 */

const zSum = z.object({ currency: z.string(), count: z.number().int(), total: z.number() });

const paymentStats = defineRoute({
  method: 'GET', path: '/payments/stats', operationId: 'getPaymentStats', summary: 'Payment totals of the work point',
  description:
    'Contazen\'s `GET /payments/stats`. The payments `GET /payments` lists (the work point\'s, receipts\' payments included), with ' +
    'its filters: `start_date`/`end_date` on the payment date (inclusive; none: every payment), `client_id`, `invoice_id`, `type`. ' +
    'Sums are exact in each currency (never added across currencies): `by_currency`, and `by_type` per method and currency.',
  tags: ['payments', 'compat'], scope: 'payments:read',
  query: z.object({
    start_date: zDate.optional(), end_date: zDate.optional(), client_id: z.string().optional(), invoice_id: z.string().optional(),
    type: zPaymentMethodType.optional(),
  }),
  response: z.object({
    object: z.literal('payment_stats'), start_date: z.string().nullable(), end_date: z.string().nullable(), count: z.number().int(),
    by_currency: z.array(zSum), by_type: z.array(zSum.extend({ type: z.string() })),
  }),
  handler: async (ctx) => {
    const q = ctx.query;
    if (q.start_date && q.end_date && q.start_date > q.end_date) {
      throw validationFailed({ end_date: 'Before start_date.|Este înainte de start_date.' });
    }
    let base = ctx.db.selectFrom('payments').where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    if (q.start_date) base = base.where('date', '>=', q.start_date);
    if (q.end_date) base = base.where('date', '<=', q.end_date);
    if (q.client_id) base = base.where('client_id', '=', q.client_id);
    if (q.invoice_id) base = base.where('invoice_id', '=', q.invoice_id);
    if (q.type) base = base.where('type', '=', q.type);
    const rows = await base
      .select(['type', 'currency', sql<string | number>`count(*)`.as('n'), sql<string | number>`sum(amount_bani)`.as('bani')])
      .groupBy(['currency', 'type'])
      .orderBy('currency').orderBy('type')
      .execute();
    // Summed as integer bani (PostgreSQL answers a bigint sum as text), in lei only at the end.
    const byCurrency = new Map<string, { count: number; bani: number }>();
    for (const r of rows) {
      const c = byCurrency.get(r.currency) ?? { count: 0, bani: 0 };
      byCurrency.set(r.currency, { count: c.count + Number(r.n), bani: c.bani + Number(r.bani) });
    }
    return {
      object: 'payment_stats' as const, start_date: q.start_date ?? null, end_date: q.end_date ?? null,
      count: rows.reduce((n, r) => n + Number(r.n), 0),
      by_currency: [...byCurrency].map(([currency, c]) => ({ currency, count: c.count, total: fromBani(c.bani) })),
      by_type: rows.map((r) => ({ type: r.type, currency: r.currency, count: Number(r.n), total: fromBani(Number(r.bani)) })),
    };
  },
});

/**
 * The units Romanian shops write, each with its UN/ECE rec. 20 code for e-Factura (the codes the
 * product import and Contazen's SDK map them to).
 */
export const UNITS: ReadonlyArray<{ code: string; name: string; name_en: string; ubl_um: string }> = [
  { code: 'buc', name: 'bucată', name_en: 'piece', ubl_um: 'H87' },
  { code: 'kg', name: 'kilogram', name_en: 'kilogram', ubl_um: 'KGM' },
  { code: 'g', name: 'gram', name_en: 'gram', ubl_um: 'GRM' },
  { code: 't', name: 'tonă', name_en: 'tonne', ubl_um: 'TNE' },
  { code: 'l', name: 'litru', name_en: 'litre', ubl_um: 'LTR' },
  { code: 'ml', name: 'mililitru', name_en: 'millilitre', ubl_um: 'MLT' },
  { code: 'm', name: 'metru', name_en: 'metre', ubl_um: 'MTR' },
  { code: 'mp', name: 'metru pătrat', name_en: 'square metre', ubl_um: 'MTK' },
  { code: 'mc', name: 'metru cub', name_en: 'cubic metre', ubl_um: 'MTQ' },
  { code: 'km', name: 'kilometru', name_en: 'kilometre', ubl_um: 'KMT' },
  { code: 'ore', name: 'oră', name_en: 'hour', ubl_um: 'HUR' },
  { code: 'zi', name: 'zi', name_en: 'day', ubl_um: 'DAY' },
  { code: 'luna', name: 'lună', name_en: 'month', ubl_um: 'MON' },
  { code: 'an', name: 'an', name_en: 'year', ubl_um: 'ANN' },
  { code: 'set', name: 'set', name_en: 'set', ubl_um: 'SET' },
  { code: 'pereche', name: 'pereche', name_en: 'pair', ubl_um: 'PR' },
  { code: 'pachet', name: 'pachet', name_en: 'pack', ubl_um: 'PK' },
  { code: 'cutie', name: 'cutie', name_en: 'box', ubl_um: 'BX' },
  { code: 'kwh', name: 'kilowatt-oră', name_en: 'kilowatt hour', ubl_um: 'KWH' },
  { code: 'serviciu', name: 'serviciu', name_en: 'service', ubl_um: 'C62' },
];

const zUnit = z.object({
  object: z.literal('unit_of_measure'), code: z.string(), name: z.string(), name_en: z.string().nullable(), ubl_um: z.string(),
  /** Products of the firm use it. */
  in_use: z.boolean(),
});

const units = defineRoute({
  method: 'GET', path: '/settings/units', operationId: 'listUnitsOfMeasure', summary: 'Units of measure, with their e-Factura codes',
  description:
    'Contazen\'s `GET /settings/units`, as a plain array: the common Romanian units with their UN/ECE rec. 20 code (`ubl_um`, our ' +
    'product\'s `unit_code`), then every other unit the firm\'s products use (with the code they carry). `in_use`: some product of ' +
    'the firm has it. A product may have any unit; this list is a help, not a limit.',
  tags: ['products', 'compat'], scope: 'products:read',
  response: z.array(zUnit),
  handler: async (ctx) => {
    const used = await ctx.db.selectFrom('products').select(['unit', sql<string>`min(unit_code)`.as('unit_code')])
      .where('company_id', '=', ctx.companyId).groupBy('unit').orderBy('unit').execute();
    const inUse = new Set(used.map((u) => u.unit));
    const known = new Set(UNITS.map((u) => u.code));
    return [
      ...UNITS.map((u) => ({ object: 'unit_of_measure' as const, ...u, in_use: inUse.has(u.code) })),
      ...used.filter((u) => !known.has(u.unit)).map((u) => ({
        object: 'unit_of_measure' as const, code: u.unit, name: u.unit, name_en: null, ubl_um: u.unit_code, in_use: true,
      })),
    ];
  },
});

export const paymentsSdkRoutes: AnyRoute[] = [paymentStats, units];
