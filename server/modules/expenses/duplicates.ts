import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { ApiError } from '../../platform/errors';
import { fromBani } from '../../../shared/money';
import { ACCOUNTING_CURRENCY } from '../../../shared/schemas/expense';
import {
  zDuplicateCheck,
  zDuplicateCheckReply,
  type DuplicateCandidate,
  type DuplicateCheck,
  type DuplicateMatchType,
} from '../../../shared/schemas/duplicate-candidate';
import { referenceKey } from './store';
import { documentedBody, parseBody } from './body';

/** The contract's duplicate amount tolerance, +/-0.02, in bani (inclusive). */
export const DUPLICATE_TOLERANCE_BANI = 2;

/**
 * The suppliers the probe names: by id when it exists in the company, else by CUI (prefix and
 * spaces stripped), else by exact name. Several suppliers may share a name; all of them count as
 * "the same supplier". Read-only: an unknown supplier is never created here.
 */
async function resolveSuppliers(db: Db, companyId: string, body: DuplicateCheck): Promise<string[]> {
  if (body.supplier_id) {
    const row = await db.selectFrom('suppliers').select('id').where('company_id', '=', companyId).where('id', '=', body.supplier_id).executeTakeFirst();
    if (row) return [row.id];
  }
  const data = body.supplier_data;
  if (!data) return [];
  const cui = data.cui?.replace(/\s+/g, '').replace(/^ro/i, '');
  if (cui && /^\d+$/.test(cui)) {
    const row = await db.selectFrom('suppliers').select('id').where('company_id', '=', companyId).where('cui', '=', cui).executeTakeFirst();
    if (row) return [row.id];
  }
  const name = data.name?.trim();
  if (!name) return [];
  const rows = await db.selectFrom('suppliers').select('id').where('company_id', '=', companyId).where('name', '=', name).execute();
  return rows.map((r) => r.id);
}

async function findCandidate(db: Db, companyId: string, body: DuplicateCheck, suppliers: string[]): Promise<DuplicateCandidate | null> {
  const refKey = referenceKey(body.reference);
  const base = () =>
    db
      .selectFrom('expenses')
      .select(['id', 'reference', 'date', 'net_bani', 'currency'])
      .where('company_id', '=', companyId)
      .orderBy('date', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id');
  const as = (row: { id: string; reference: string | null; date: string; net_bani: number; currency: string } | undefined, match: DuplicateMatchType) =>
    row ? { id: row.id, reference: row.reference, date: row.date, amount: fromBani(Number(row.net_bani)), currency: row.currency, match_type: match } : null;

  if (suppliers.length && refKey) {
    const row = await base().where('supplier_id', 'in', suppliers).where('reference_key', '=', refKey).executeTakeFirst();
    if (row) return as(row, 'exact');
  }
  if (suppliers.length && body.date && body.amount !== undefined) {
    const row = await base()
      .where('supplier_id', 'in', suppliers)
      .where('date', '=', body.date)
      .where('currency', '=', body.currency ?? ACCOUNTING_CURRENCY)
      .where('net_bani', '>=', body.amount - DUPLICATE_TOLERANCE_BANI)
      .where('net_bani', '<=', body.amount + DUPLICATE_TOLERANCE_BANI)
      .executeTakeFirst();
    if (row) return as(row, 'strong');
  }
  if (refKey) {
    let q = base().where('reference_key', '=', refKey);
    if (suppliers.length) q = q.where('supplier_id', 'not in', suppliers);
    const row = await q.executeTakeFirst();
    if (row) return as(row, 'likely');
  }
  return null;
}

export const checkDuplicate = defineRoute({
  method: 'POST',
  path: '/expenses/check-duplicate',
  operationId: 'checkExpenseDuplicate',
  summary: 'Probe for an existing expense that collides with a prospective one',
  description:
    'Read-only; never creates a supplier. Supplier by supplier_id, else supplier_data.cui (RO prefix stripped), else exact supplier_data.name; ' +
    'unmatched, only reference matches are considered. Precedence: exact (same supplier, same reference) > strong (same supplier, same date, ' +
    'same currency, net amount within +/-0.02) > likely (same reference, another supplier). References compare without spaces or case. ' +
    'Searches every work point of the company. Every malformed body answers 400 (validation_error with fields, or parameter_missing).',
  tags: ['expenses'],
  scope: 'expenses:read',
  // Checked in the handler: this endpoint answers 400, not the platform's 422, for any bad body.
  body: documentedBody(zDuplicateCheck),
  response: zDuplicateCheckReply,
  envelope: 'top',
  errors: { parameter_missing: 400, validation_error: 400, invalid_json: 400 },
  handler: async (ctx) => {
    const body = parseBody(zDuplicateCheck, ctx.body, ctx.locale, 400);
    if (!body.supplier_id && !body.supplier_data?.name?.trim()) {
      throw new ApiError(400, 'invalid_request_error', 'parameter_missing', { param: 'supplier_id', vars: { param: 'supplier_id | supplier_data.name' } });
    }
    const suppliers = await resolveSuppliers(ctx.db, ctx.companyId, body);
    return { duplicate: await findCandidate(ctx.db, ctx.companyId, body, suppliers) };
  },
});
