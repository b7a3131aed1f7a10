import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { AnafError, type AccessTokenSource } from '../../anaf/index';
import { binaryReply, defineRoute, type HandlerContext } from '../../platform/route';
import { ApiError, conflict, notFound, validationFailed } from '../../platform/errors';
import { changesListQuery, listPageSchema, mapPage, paginate } from '../../platform/list';
import { scopeAllows } from '../../platform/api-keys';
import { newId } from '../../platform/ids';
import { fromBani, toBani } from '../../../shared/money';
import { validateCui } from '../../../shared/ro/cui';
import { zExpenseCreate } from '../../../shared/schemas/expense';
import {
  SUPPLIER_BILL_STATUSES,
  zSupplierBill,
  zSupplierBillCreate,
  zSupplierBillEnvelope,
  zSupplierBillPay,
  zSupplierBillSync,
  zSupplierBillSyncResult,
  zSupplierBillToExpense,
  type SupplierBillExpansion,
} from '../../../shared/schemas/supplier-bill';
import { createExpenseRecord } from '../expenses/expense-routes';
import { anafDetail, toApiError } from './anaf-errors';
import { assertLinked } from './oauth-routes';
import { requireAnaf } from './token-store';
import { DEFAULT_EXPAND, billStatus, billView, findBill, findOrCreateSupplier, parseExpand, type BillRow } from './supplier-bill-store';
import { syncSupplierBills } from './supplier-bill-sync';
import './messages';

const tags = ['supplier_bills'];
const idParams = z.object({ id: z.string().min(1).max(64) });
const expandQuery = z.object({ expand: z.string().max(200).optional(), 'expand[]': z.union([z.string(), z.array(z.string())]).optional() });

/** `https://host/v1` as the caller reached us: efactura_pdf_url is a link the caller can follow as is. */
function apiBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/v1`;
}

// Context of any route of this file: only the members the views read.
type AnyCtx = Pick<HandlerContext<unknown, unknown, unknown>, 'db' | 'request' | 'locale' | 'now' | 'dialect'>;

function viewOptions(ctx: AnyCtx, expand: Set<SupplierBillExpansion>, balance: boolean) {
  return { expand, balance, base: apiBase(ctx.request), locale: ctx.locale, now: ctx.now, dialect: ctx.dialect };
}

async function loadBill(ctx: AnyCtx & { companyId: string }, id: string): Promise<BillRow> {
  const row = await findBill(ctx.db, ctx.companyId, id);
  if (!row) throw notFound('id');
  return row;
}

const listBills = defineRoute({
  method: 'GET',
  path: '/supplier-bills',
  operationId: 'listSupplierBills',
  summary: 'List supplier bills',
  description:
    'The selected work point’s bills. Filters: `status`, `supplier_id`, `source` (spv, manual); `search` matches the invoice number; `start_date`/`end_date` filter the issue date. `expand` as on the single bill, default none. ' +
    '`updated_since` keeps the bills changed at or after that instant (paid, linked to an expense, completed by the SPV inbox); `sort=updated_at` orders by it. ' +
    'Expanded members (the supplier) are copies of other resources: their changes show in those resources, not here.',
  tags,
  scope: 'supplier_bills:read',
  query: changesListQuery(['issue_date', 'due_date', 'created_at'] as const).extend({
    status: z.enum(SUPPLIER_BILL_STATUSES).optional(),
    supplier_id: z.string().optional(),
    source: z.enum(['spv', 'manual']).optional(),
    ...expandQuery.shape,
  }),
  response: listPageSchema(zSupplierBill),
  handler: async (ctx) => {
    const expand = parseExpand(ctx.query, '');
    let q = ctx.db.selectFrom('supplier_bills').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    if (ctx.query.status) q = q.where('status', '=', ctx.query.status);
    if (ctx.query.supplier_id) q = q.where('supplier_id', '=', ctx.query.supplier_id);
    if (ctx.query.source) q = q.where('source', '=', ctx.query.source);
    const page = await paginate(q, ctx.query, {
      sortColumns: { issue_date: 'issue_date', due_date: 'due_date', created_at: 'created_at' },
      defaultSort: 'issue_date',
      searchColumns: ['invoice_number'],
      dateColumn: 'issue_date',
      tieBreaker: 'id',
      // Set at creation already: no COALESCE needed.
      updatedColumn: 'updated_at',
    });
    const data = [];
    for (const row of page.data) data.push(await billView(ctx.db, row, viewOptions(ctx, expand, false)));
    return mapPage({ ...page, data }, (b) => b);
  },
});

const getBill = defineRoute({
  method: 'GET',
  path: '/supplier-bills/:id',
  operationId: 'getSupplierBill',
  summary: 'Retrieve a supplier bill',
  description:
    '`expand` (string): default `supplier,expense,client,efactura_message,lines`; an empty value skips all expansions; a comma list selects a subset. `supplier_balance` aggregates the supplier’s outstanding bills in this bill’s currency across all work points of the company, with the next due bill.',
  tags,
  scope: 'supplier_bills:read',
  params: idParams,
  query: expandQuery,
  response: zSupplierBillEnvelope,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const expand = parseExpand(ctx.query, DEFAULT_EXPAND);
    const row = await loadBill(ctx, ctx.params.id);
    return { supplier_bill: await billView(ctx.db, row, viewOptions(ctx, expand, true)) };
  },
});

const createBill = defineRoute({
  method: 'POST',
  path: '/supplier-bills',
  operationId: 'createSupplierBill',
  summary: 'Record a supplier bill by hand',
  description:
    'Our design: a bill that did not come through the SPV inbox (no e-Factura message, so GET …/efactura-pdf answers 404 `efactura_not_available`). The supplier is `supplier_id`, or `supplier` matched by CUI and else created. When the e-Factura of the same supplier, number and date arrives later, the sync completes this bill instead of adding a second one.',
  tags,
  scope: 'supplier_bills:write',
  create: true,
  body: zSupplierBillCreate,
  response: zSupplierBillEnvelope,
  errors: { resource_missing: 404, supplier_bill_exists: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    let supplierId: string;
    if (b.supplier_id) {
      const s = await ctx.db.selectFrom('suppliers').select('id').where('id', '=', b.supplier_id).where('company_id', '=', ctx.companyId).executeTakeFirst();
      if (!s) throw notFound('supplier_id');
      supplierId = s.id;
    } else {
      const raw = b.supplier!;
      let cui: string | null = null;
      if (raw.cui) {
        const checked = validateCui(raw.cui);
        if (!checked.ok) throw validationFailed({ 'supplier.cui': 'Not a valid CUI (check digit).|CUI nevalid (cifra de control).' });
        cui = checked.value;
      }
      supplierId = await findOrCreateSupplier(
        ctx.db, ctx.companyId,
        { name: raw.name, cui, vat_id: raw.cui && /^\s*ro/i.test(raw.cui) ? `RO${cui}` : null, reg_com: null, address: null, email: null, phone: null },
        ctx.now,
      );
    }
    const twin = await ctx.db
      .selectFrom('supplier_bills')
      .select('id')
      .where('company_id', '=', ctx.companyId)
      .where('supplier_id', '=', supplierId)
      .where('invoice_number', '=', b.invoice_number)
      .executeTakeFirst();
    if (twin) throw new ApiError(409, 'invalid_request_error', 'supplier_bill_exists', { param: 'invoice_number', vars: { invoice_number: b.invoice_number, id: twin.id } });
    const credit = b.invoice_type_code === '381';
    const signed = (bani: number) => (credit ? -Math.abs(bani) : bani);
    const net = signed(toBani(b.tax_exclusive));
    const tax = signed(toBani(b.tax));
    const id = newId('sbill');
    await ctx.db
      .insertInto('supplier_bills')
      .values({
        id, company_id: ctx.companyId, work_point_id: ctx.workPointId, supplier_id: supplierId, expense_id: null, client_id: null,
        efactura_message_id: null, source: 'manual', kind: credit ? 'credit_note' : 'invoice', invoice_number: b.invoice_number,
        invoice_type_code: b.invoice_type_code, issue_date: b.issue_date, due_date: b.due_date ?? null, currency: b.currency,
        tax_exclusive_bani: net, tax_bani: tax, tax_inclusive_bani: net + tax, payable_bani: net + tax, paid_bani: 0,
        status: billStatus(net + tax, 0), payment_date: null, payment_amount_bani: null, order_reference: b.order_reference ?? null,
        note: b.note ?? null, supplier_json: null, references_json: null, created_at: ctx.now, updated_at: ctx.now,
      })
      .execute();
    const row = await loadBill(ctx, id);
    return { supplier_bill: await billView(ctx.db, row, viewOptions(ctx, parseExpand({}, DEFAULT_EXPAND), true)) };
  },
});

const payBill = defineRoute({
  method: 'POST',
  path: '/supplier-bills/:id/pay',
  operationId: 'paySupplierBill',
  summary: 'Record a payment of a supplier bill',
  description:
    'Our design. `amount` (default: all that is unpaid) is added to what was paid; `status` becomes `partially_paid` or `paid`; `payment_date` and `payment_amount` describe this latest payment. Paying more than is unpaid answers 422; a paid bill answers 409 `supplier_bill_already_paid`.',
  tags,
  scope: 'supplier_bills:write',
  params: idParams,
  body: zSupplierBillPay,
  response: zSupplierBillEnvelope,
  errors: { resource_missing: 404, supplier_bill_already_paid: 409 },
  handler: async (ctx) => {
    await ctx.db.transaction().execute(async (trx) => {
      let q = trx.selectFrom('supplier_bills').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId);
      if (ctx.dialect === 'postgres') q = q.forUpdate();
      const row = await q.executeTakeFirst();
      if (!row) throw notFound('id');
      const payable = Number(row.payable_bani);
      const paid = Number(row.paid_bani);
      const unpaid = payable - paid;
      if (row.status === 'paid' || unpaid <= 0) throw conflict('supplier_bill_already_paid', 'id');
      const amount = ctx.body.amount === undefined ? unpaid : toBani(ctx.body.amount);
      if (amount > unpaid) {
        throw validationFailed({ amount: `At most the unpaid ${fromBani(unpaid)}.|Cel mult restul de plată, ${fromBani(unpaid)}.` });
      }
      await trx
        .updateTable('supplier_bills')
        .set({ paid_bani: paid + amount, status: billStatus(payable, paid + amount), payment_date: ctx.body.payment_date, payment_amount_bani: amount, updated_at: ctx.now })
        .where('id', '=', row.id)
        .execute();
    });
    const row = await loadBill(ctx, ctx.params.id);
    return { supplier_bill: await billView(ctx.db, row, viewOptions(ctx, parseExpand({}, DEFAULT_EXPAND), true)) };
  },
});

/** `transformare` is a public service: the client never asks for a token there. */
const NO_TOKENS: AccessTokenSource = {
  accessToken: () => Promise.reject(new Error('the XML-to-PDF service needs no token')),
  accessTokenAfterRejection: () => Promise.reject(new Error('the XML-to-PDF service needs no token')),
};

const EXPENSE_RATES = new Set([0, 500, 900, 1100, 1900, 2100]);
const roundHalfAway = (n: number) => Math.sign(n) * Math.round(Math.abs(n));

const toExpense = defineRoute({
  method: 'POST',
  path: '/supplier-bills/:id/expense',
  operationId: 'createExpenseFromSupplierBill',
  summary: 'Record a supplier bill as an expense',
  description:
    'Our design. Creates the expense through the expenses module (POST /expenses rules apply: closed months, categories) with the bill’s supplier, number, dates and amounts: one VAT rate when every line has the same allowed rate and the bill’s VAT equals it, else `mix` with the bill’s VAT. A paid bill makes a paid expense. Needs `expenses:write` too. A foreign-currency bill needs `exchange_rate`.',
  tags,
  scope: 'supplier_bills:write',
  create: true,
  params: idParams,
  body: zSupplierBillToExpense.extend({ exchange_rate: z.number().positive().optional(), payment_type: z.number().int().min(1).max(7).optional() }),
  response: zSupplierBillEnvelope,
  errors: { resource_missing: 404, supplier_bill_has_expense: 409, insufficient_permissions: 403 },
  handler: async (ctx) => {
    if (!scopeAllows(ctx.auth.scopes, 'expenses:write')) {
      throw new ApiError(403, 'permission_error', 'insufficient_permissions', { vars: { scope: 'expenses:write' } });
    }
    const row = await loadBill(ctx, ctx.params.id);
    if (row.expense_id) throw new ApiError(409, 'invalid_request_error', 'supplier_bill_has_expense', { param: 'id', vars: { expense_id: row.expense_id } });
    const net = Number(row.tax_exclusive_bani);
    const tax = Number(row.tax_bani);
    if (net <= 0) throw validationFailed({ id: 'A credit note or a zero bill cannot become an expense.|O notă de credit sau o factură zero nu poate deveni cheltuială.' });
    if (row.currency !== 'RON' && ctx.body.exchange_rate === undefined) {
      throw validationFailed({ exchange_rate: 'A foreign-currency bill needs the exchange rate to RON.|O factură în valută cere cursul de schimb în lei.' });
    }
    const lines = await ctx.db.selectFrom('supplier_bill_lines').select(['vat_rate_bp', 'vat_category']).where('bill_id', '=', row.id).execute();
    const rates = new Set(lines.map((l) => Number(l.vat_rate_bp)));
    const [only] = [...rates];
    const single = rates.size === 1 && only !== undefined && EXPENSE_RATES.has(only) && roundHalfAway((net * only) / 10_000) === tax;
    const vatFields = single
      ? { amount: fromBani(net), vat: only! / 100 }
      : { amount: fromBani(net), vat: 'mix', amount_vat_manual: fromBani(Math.max(tax, 0)) };
    const paid = row.status === 'paid';
    const input = {
      supplier_id: row.supplier_id,
      ...(ctx.body.category_id ? { category_id: ctx.body.category_id } : {}),
      reference: row.invoice_number.slice(0, 100),
      description: ctx.body.description ?? `Factura ${row.invoice_number}`,
      date: row.issue_date,
      ...(row.due_date && row.due_date >= row.issue_date ? { due_date: row.due_date } : {}),
      ...vatFields,
      with_vat: false,
      currency: row.currency,
      ...(ctx.body.exchange_rate !== undefined ? { exchange_rate: ctx.body.exchange_rate } : {}),
      ...(paid ? { is_paid: true, paid_date: row.payment_date ?? row.issue_date, payment_type: ctx.body.payment_type ?? 2 } : {}),
    };
    const parsed = zExpenseCreate.safeParse(input);
    if (!parsed.success) {
      throw validationFailed(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'id', i.message])));
    }
    // One transaction: the expense (the expenses module's own create, with its checks and audit trail)
    // and the bill's link to it commit together. The link is conditional, so of two concurrent
    // requests one links its expense and the other rolls its own back.
    await ctx.db.transaction().execute(async (trx) => {
      const expense = await createExpenseRecord(
        trx,
        { companyId: ctx.companyId, workPointId: row.work_point_id, keyId: ctx.auth.keyId, now: ctx.now, locale: ctx.locale },
        parsed.data,
      );
      const linked = await trx
        .updateTable('supplier_bills')
        .set({ expense_id: expense.id, updated_at: ctx.now })
        .where('id', '=', row.id)
        .where('expense_id', 'is', null)
        .executeTakeFirst();
      if (Number(linked.numUpdatedRows) !== 1) {
        const now = await findBill(trx, ctx.companyId, row.id);
        throw new ApiError(409, 'invalid_request_error', 'supplier_bill_has_expense', { param: 'id', vars: { expense_id: now?.expense_id ?? '' } });
      }
    });
    const after = await loadBill(ctx, row.id);
    return { supplier_bill: await billView(ctx.db, after, viewOptions(ctx, parseExpand({}, DEFAULT_EXPAND), true)) };
  },
});

const efacturaPdf = defineRoute({
  method: 'GET',
  path: '/supplier-bills/:id/efactura-pdf',
  operationId: 'getSupplierBillEfacturaPdf',
  summary: 'ANAF’s PDF of a supplier bill received through e-Factura',
  description:
    'On first request the original e-Factura XML is sent to ANAF’s XML-to-PDF service (validating; when ANAF’s validator refuses the XML, rendered without validation) and the PDF is cached; later requests are served from the cache. Content type `application/pdf`. 404 `efactura_not_available` for a bill without an e-Factura message (entered by hand); 404 `resource_missing` for an unknown bill; 502 `anaf_unavailable` / 504 `anaf_timeout` when ANAF’s service fails (nothing is cached; try again).',
  tags,
  scope: 'supplier_bills:read',
  params: idParams,
  response: z.string(),
  produces: 'application/pdf',
  errors: { resource_missing: 404, efactura_not_available: 404, anaf_unavailable: 502, anaf_timeout: 504 },
  handler: async (ctx) => {
    const row = await loadBill(ctx, ctx.params.id);
    const filename = `${row.invoice_number.replace(/[^\w.-]+/g, '_')}.pdf`;
    const message = row.efactura_message_id === null
      ? undefined
      : await ctx.db.selectFrom('efactura_messages').select(['id', 'xml', 'environment']).where('id', '=', row.efactura_message_id).executeTakeFirst();
    if (!message?.xml) throw notFound('id', 'efactura_not_available');
    const cached = await ctx.db.selectFrom('supplier_bill_pdfs').select('pdf').where('message_row_id', '=', Number(message.id)).executeTakeFirst();
    if (cached) return binaryReply('application/pdf', Buffer.from(cached.pdf, 'base64'), filename);
    // transformare is public: the client needs no token for it, so the link with ANAF is not required.
    const anaf = requireAnaf(ctx.services, 'XML to PDF').efactura('prod', ctx.companyId, NO_TOKENS);
    const standard = row.kind === 'credit_note' ? 'FCN' : 'FACT1';
    let pdf: Uint8Array;
    let validated = 1;
    try {
      pdf = await anaf.xmlToPdf(message.xml, { standard, validate: true });
    } catch (error) {
      if (!(error instanceof AnafError && error.kind === 'rejected')) throw toApiError(error);
      // ANAF's validator refused the XML (it may have changed since the invoice was filed): render it anyway.
      try {
        pdf = await anaf.xmlToPdf(message.xml, { standard, validate: false });
        validated = 0;
      } catch (second) {
        if (second instanceof AnafError && second.kind === 'rejected') {
          throw new ApiError(502, 'api_error', 'anaf_unavailable', { vars: { detail: anafDetail(second) } });
        }
        throw toApiError(second);
      }
    }
    await ctx.db
      .insertInto('supplier_bill_pdfs')
      .values({ message_row_id: Number(message.id), company_id: ctx.companyId, pdf: Buffer.from(pdf).toString('base64'), validated, created_at: ctx.now })
      .onConflict((oc) => oc.column('message_row_id').doNothing())
      .execute();
    return binaryReply('application/pdf', Buffer.from(pdf), filename);
  },
});

const syncBills = defineRoute({
  method: 'POST',
  path: '/supplier-bills/sync',
  operationId: 'syncSupplierBills',
  summary: 'Import the invoices received in the SPV inbox',
  description:
    'Our design. Lists the received invoices (ANAF filter P) of the last `days` (default 60, ANAF’s limit), downloads each new message, reads its UBL and records a supplier bill with its lines, the supplier matched by CUI or created. Idempotent: a message already imported is skipped (one bill per company and message). Bills land on the selected work point. A message that cannot be read is reported in `errors` and tried again by the next sync.',
  tags,
  scope: 'supplier_bills:write',
  body: zSupplierBillSync,
  response: zSupplierBillSyncResult,
  errors: { oauth_not_configured: 400, oauth_reconsent_required: 400, anaf_unavailable: 502, anaf_timeout: 504, anaf_not_configured: 503 },
  handler: async (ctx) => {
    requireAnaf(ctx.services, 'e-Factura');
    await assertLinked(ctx.db, ctx.companyId);
    return syncSupplierBills(ctx.services, { db: ctx.db, companyId: ctx.companyId, workPointId: ctx.workPointId, environment: ctx.body.environment, now: ctx.now }, ctx.body.days);
  },
});

export const supplierBillRoutes = [syncBills, listBills, createBill, getBill, payBill, toExpense, efacturaPdf];
