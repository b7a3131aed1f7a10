import { z } from 'zod';
import { defineRoute, type AnyRoute, type HandlerContext } from '../../platform/route';
import { changesListQuery, expandShape, expansions, listPageSchema, paginate } from '../../platform/list';
import { recordDeletion } from '../../platform/tombstones';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { DOCUMENT_TYPES } from '../../../shared/schemas/series';
import {
  INVOICE_STATUSES, PAID_STATES, zInvoice, zInvoiceCreate, zInvoiceIssue, zInvoiceUpdate,
} from '../../../shared/schemas/invoice';
import { isWalkInBuyer, walkInBuyer, zPartySnapshot, type Invoice } from '../../../shared/schemas/invoice';
import { fromMilli, fromPriceE4 } from '../../../shared/invoice-math';
import { AlreadyCreated, checkDraftSeries, isLateNumber, numberInvoice, planInvoiceNumber, type AssignContext } from './invoice-numbering';
import {
  findByLocalUuid, findInvoice, insertInvoice, invoiceViews, invoiceWithLines, INVOICE_EXPANSIONS,
} from './invoice-store';
import { invoiceView } from './invoice-view';
import { checkAndPrice, requireClient, resolveClient, storedRate } from './invoice-input';
import { assertEinvoicingReady } from './einvoicing-ready';
import { invalid } from './fail';
import { isUniqueViolation } from '../../platform/db-errors';
import { lockInvoiceRow } from './payment-store';
import { recordGap, todayAt } from './numbering';
import { buyerSnapshot, findClient } from './catalog-bridge';
import { adjustmentInput, adjustmentsJson, breakdownJson, lineRows, referencesJson, storedAdjustments, storedBaseMilli, storedPriced, storedPriceE4, storedReferences } from './pricing';
import { checkBeforeNumbering } from './efactura-check';
import { zDeleted } from '../../platform/envelope';
import type { InvoicesTable } from './tables';
import { moveStockForInvoice } from '../stock/invoice-stock';
import { insertRows } from '../../db/prepared';
import './messages';
import { emitEvent, webhooksListening } from '../webhooks/events';
import { INVOICES_SEARCH } from './migrations/0210_search';
import { INVOICE_CREATE_ALIASES, INVOICE_LIST_ALIASES, INVOICE_UPDATE_ALIASES } from './aliases';

const idParams = z.object({ id: z.string() });

export const assignContext = (ctx: HandlerContext<unknown, unknown, unknown>): AssignContext => ({
  db: ctx.db, dialect: ctx.dialect, companyId: ctx.companyId, workPointId: ctx.workPointId, locale: ctx.locale, now: ctx.now,
});

/**
 * Runs a create keyed by `client_local_uuid`: an earlier invoice with that uuid is the answer (a
 * replay: 200 with `Idempotent-Replayed`); two concurrent first attempts race to the unique index,
 * and the loser answers the winner's invoice.
 */
export async function onceByLocalUuid(
  ctx: HandlerContext<unknown, unknown, unknown>,
  uuid: string | undefined,
  create: () => Promise<Invoice>,
): Promise<Invoice> {
  if (uuid) {
    const existing = await findByLocalUuid(ctx.db, ctx.companyId, uuid);
    if (existing) {
      ctx.replayed();
      return invoiceWithLines(ctx.db, existing);
    }
  }
  try {
    return await create();
  } catch (error) {
    if (uuid && (isUniqueViolation(error) || error instanceof AlreadyCreated)) {
      const existing = await findByLocalUuid(ctx.db, ctx.companyId, uuid);
      if (existing) {
        ctx.replayed();
        return invoiceWithLines(ctx.db, existing);
      }
    }
    throw error;
  }
}

const INVOICE_ERRORS = {
  resource_missing: 404, forbidden: 403, series_locked: 409, series_not_locked: 409, number_out_of_sequence: 409,
  reservation_released: 409, reservation_consumed: 409, oauth_not_configured: 400, efactura_invalid_invoice: 422,
};

/**
 * An invoice may have MAX_INVOICE_LINES (5,000) lines, each with a description of up to 500 characters:
 * past the service's 1 MiB. 16 MiB holds 5,000 such lines even with every character escaped in the JSON.
 * The key and its budget are checked before the body is read (platform/route.ts), as for any route.
 */
const INVOICE_BODY_LIMIT = 16 * 1024 * 1024;

const createInvoice = defineRoute({
  method: 'POST', path: '/invoices', operationId: 'createInvoice', summary: 'Create an invoice (draft or issued)',
  description:
    'An issued invoice takes a number: the reservation of `reservation_token` (with the owning `device_id`), the `number` the lock holder ' +
    'printed offline (with its `device_id`; continuity checked), or the next number of `series_id` (default: the primary series of the ' +
    'document type at the work point). A draft takes no number. Totals are computed on the server with the shared invoice arithmetic; ' +
    'an item with `price_includes_vat: true` is a shelf price: it costs exactly quantity x price (less its discount) and its VAT is ' +
    'extracted per rate. An item\'s `is_service` (default: its product\'s, else false) is kept on the line and decides the legal ground of a ' +
    'K or G line (art. 294 for goods, art. 278 alin. (2) for services). The buyer is `client_id`, a new `client`, or `walk_in: true` for a person who gives no identification ' +
    '(no client; the buyer is "Persoană fizică", e-Factura CNP 0000000000000); an issued invoice needs one of the three. ' +
    'A repeated `client_local_uuid` answers the invoice already created (200 instead of 201, header `Idempotent-Replayed: true`) and creates nothing. The reply includes `lines`.',
  tags: ['invoices'], scope: 'invoices:write', create: true, bodyLimit: INVOICE_BODY_LIMIT,
  body: zInvoiceCreate, aliases: INVOICE_CREATE_ALIASES, response: zInvoice, errors: INVOICE_ERRORS,
  handler: async (ctx) => {
    const b = ctx.body;
    return onceByLocalUuid(ctx, b.client_local_uuid, async () => {
      const issueDate = b.issue_date ?? todayAt(ctx.now);
      const extra: Record<string, string> = {};
      if (b.is_draft && (b.reservation_token !== undefined || b.number !== undefined)) {
        extra.is_draft = 'A draft takes no number: send neither reservation_token nor number.|O ciornă nu primește număr: nu trimiteți reservation_token sau number.';
      }
      const priced = await checkAndPrice(ctx.db, ctx.companyId, ctx.locale, { ...b, issue_date: issueDate }, extra);
      if (!b.is_draft && !b.client_id && !b.client && !b.walk_in) throw requireClient(ctx.locale);
      if (b.efactura_enabled) await assertEinvoicingReady(ctx.db, ctx.dialect, ctx.companyId);
      const created = await ctx.db.transaction().execute(async (trx) => {
        const resolved = await resolveClient(trx, ctx.companyId, ctx.locale, b, ctx.now);
        // A walk-in sale names no client: its buyer is "Persoană fizică", frozen like any other.
        const buyer = b.walk_in ? walkInBuyer() : (resolved?.buyer ?? null);
        const id = newId('inv');
        const exchangeRate = storedRate(b.currency, b.exchange_rate);
        // Before the number: an invoice ANAF would refuse never takes one.
        const seller = b.is_draft ? null : await checkBeforeNumbering(trx, ctx.companyId, ctx.locale, {
          documentType: b.document_type, efacturaEnabled: b.efactura_enabled, storno: false, issueDate, dueDate: b.due_date ?? null,
          deliveryDate: b.delivery_date ?? null, currency: b.currency, exchangeRate, reverseCharge: b.reverse_charge,
          paymentMethod: b.payment_method ?? null, observations: b.observations ?? null, buyer, priced, original: null, references: b.references,
        });
        // The number is planned here and taken last (numberInvoice), so the series stays locked only for that and the commit.
        const planned = b.is_draft ? null : await planInvoiceNumber(assignContext(ctx), trx, b, b.document_type, issueDate, id, b.client_local_uuid ?? null);
        const draftSeries = b.is_draft && b.series_id ? await checkDraftSeries(assignContext(ctx), trx, b.series_id, b.document_type) : null;
        const inserted = await insertInvoice(trx, {
          id, companyId: ctx.companyId, workPointId: ctx.workPointId, documentType: b.document_type,
          status: b.is_draft ? 'draft' : 'issued', draftSeries, assigned: planned, issueDate, dueDate: b.due_date ?? null, deliveryDate: b.delivery_date ?? null,
          clientId: resolved?.client.id ?? null, buyer, seller, currency: b.currency,
          exchangeRate, language: b.language, reverseCharge: b.reverse_charge, priced,
          paymentMethod: b.payment_method ?? null, observations: b.observations ?? null, references: b.references ?? null, stornoOf: null, convertedFrom: null,
          efacturaEnabled: b.efactura_enabled, spvEnvironment: b.spv_environment, clientLocalUuid: b.client_local_uuid ?? null,
          deviceId: b.device_id ?? null, now: ctx.now, warnings: ctx.warnings,
        });
        // Asked before the number is taken: nothing but the number and the event's insert stands between the lock and the commit.
        const listening = await webhooksListening(trx, ctx.companyId);
        const row = await numberInvoice(assignContext(ctx), trx, planned, inserted.row);
        // WEBHOOKS (issue 18): in the transaction of the change (outbox).
        await emitEvent(trx, ctx.companyId, b.is_draft ? 'invoice.created' : ['invoice.created', 'invoice.issued'], invoiceView(row), ctx.now, listening);
        return { row, lines: inserted.lines };
      });
      return invoiceView(created.row, { lines: created.lines });
    });
  },
});

const listInvoices = defineRoute({
  method: 'GET', path: '/invoices', operationId: 'listInvoices', summary: 'List the invoices of the work point',
  description:
    '`search` matches the printed number and the buyer name; `start_date`/`end_date` filter on `issue_date`. `updated_since` keeps the ' +
    'invoices changed at or after that instant, derived changes included (paid state, voided by storno, converted, e-Factura status); ' +
    '`sort=updated_at` orders by it. Deleted invoices are listed by GET /deleted-records. `overdue=true` keeps the issued invoices not ' +
    'fully paid whose `due_date` is before today (Europe/Bucharest). `sort` may also be `due_date`.',
  tags: ['invoices'], scope: 'invoices:read', aliases: INVOICE_LIST_ALIASES,
  query: changesListQuery(['issue_date', 'due_date', 'number', 'total', 'created_at'] as const, INVOICE_EXPANSIONS).extend({
    status: z.enum(INVOICE_STATUSES).optional(),
    client_id: z.string().optional(),
    series_id: z.string().optional(),
    document_type: z.enum(DOCUMENT_TYPES).optional(),
    paid_state: z.enum(PAID_STATES).optional(),
    overdue: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  }),
  response: listPageSchema(zInvoice),
  handler: async (ctx) => {
    const q = ctx.query;
    let base = ctx.db.selectFrom('invoices').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    if (q.status) base = base.where('status', '=', q.status);
    if (q.client_id) base = base.where('client_id', '=', q.client_id);
    if (q.series_id) base = base.where('series_id', '=', q.series_id);
    if (q.document_type) base = base.where('document_type', '=', q.document_type);
    if (q.paid_state) base = base.where('paid_state', '=', q.paid_state);
    if (q.overdue !== undefined) {
      // Overdue: issued, not fully paid, due before today. `false` keeps every other invoice.
      const today = todayAt(ctx.now);
      base = q.overdue
        ? base.where('status', '=', 'issued').where('paid_state', '!=', 'paid').where('due_date', '<', today)
        : base.where((eb) => eb.or([eb('status', '!=', 'issued'), eb('paid_state', '=', 'paid'), eb('due_date', 'is', null), eb('due_date', '>=', today)]));
    }
    const page = await paginate(base, q, {
      sortColumns: { issue_date: 'issue_date', due_date: 'due_date', number: 'number', total: 'total_bani', created_at: 'created_at' },
      defaultSort: 'issue_date', defaultOrder: 'desc', searchIndex: { spec: INVOICES_SEARCH, dialect: ctx.dialect }, dateColumn: 'issue_date', tieBreaker: 'id',
      updatedColumn: 'updated_at', createdColumn: 'created_at',
    });
    return { ...page, data: await invoiceViews(ctx.db, ctx.companyId, page.data, expansions(q), ctx.locale) };
  },
});

const getInvoice = defineRoute({
  method: 'GET', path: '/invoices/:id', operationId: 'getInvoice', summary: 'Retrieve an invoice',
  tags: ['invoices'], scope: 'invoices:read', params: idParams, query: z.object(expandShape(INVOICE_EXPANSIONS)),
  response: zInvoice, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await findInvoice(ctx.db, ctx.companyId, ctx.params.id);
    if (!row) throw notFound('id');
    const [view] = await invoiceViews(ctx.db, ctx.companyId, [row], expansions(ctx.query), ctx.locale);
    return view!;
  },
});

const updateInvoice = defineRoute({
  method: 'PUT', path: '/invoices/:id', operationId: 'updateInvoice', summary: 'Update a draft invoice',
  description: 'Drafts only (409 `invoice_not_draft`). `items`, when sent, replaces every line. The reply includes `lines`.',
  tags: ['invoices'], scope: 'invoices:write', params: idParams, body: zInvoiceUpdate, aliases: INVOICE_UPDATE_ALIASES, response: zInvoice,
  bodyLimit: INVOICE_BODY_LIMIT,
  errors: { resource_missing: 404, invoice_not_draft: 409, oauth_not_configured: 400 },
  handler: async (ctx) => {
    const b = ctx.body;
    const row = await ctx.db.transaction().execute(async (trx) => {
      const current = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
      if (!current) throw notFound('id');
      if (current.status !== 'draft') throw conflict('invoice_not_draft', 'id');
      const currency = b.currency ?? current.currency;
      const exchangeRate = b.exchange_rate !== undefined ? b.exchange_rate : current.exchange_rate;
      const issueDate = b.issue_date ?? current.issue_date;
      const dueDate = b.due_date !== undefined ? b.due_date : current.due_date;
      const reverseCharge = b.reverse_charge ?? Boolean(current.reverse_charge);
      const items = b.items ?? (await currentItems(trx, current.id));
      const allowancesCharges = b.allowances_charges ?? storedAdjustments(current.allowances_charges_json).map(adjustmentInput);
      const priced = await checkAndPrice(trx, ctx.companyId, ctx.locale, {
        currency, exchange_rate: exchangeRate, issue_date: issueDate, due_date: dueDate, reverse_charge: reverseCharge, items,
        language: b.language, allowances_charges: allowancesCharges,
      });
      if (b.efactura_enabled === true) await assertEinvoicingReady(trx, ctx.dialect, ctx.companyId);
      let client: { id: string | null; buyer: string | null; name: string | null } = { id: current.client_id, buyer: current.buyer_json, name: current.buyer_name };
      if (b.walk_in && b.client_id) {
        throw invalid(ctx.locale, { walk_in: 'A walk-in sale has no client: send walk_in or client_id, not both.|O vânzare fără client nu are client: trimiteți walk_in sau client_id, nu amândouă.' });
      }
      if (b.walk_in) {
        const walkIn = walkInBuyer();
        client = { id: null, buyer: JSON.stringify(walkIn), name: walkIn.name };
      } else if (b.client_id === null || (b.client_id === undefined && b.walk_in === false && storedWalkIn(current.buyer_json))) {
        client = { id: null, buyer: null, name: null };
      } else if (b.client_id !== undefined) {
        const resolved = await resolveClient(trx, ctx.companyId, ctx.locale, { client_id: b.client_id }, ctx.now);
        client = { id: resolved!.client.id, buyer: JSON.stringify(resolved!.buyer), name: resolved!.buyer.name };
      }
      let series = { id: current.series_id, name: current.series_name };
      if (b.series_id !== undefined) {
        const s = await checkDraftSeries(assignContext(ctx), trx, b.series_id, current.document_type);
        series = { id: s.id, name: s.name };
      }
      const t = priced.totals;
      const next: InvoicesTable = {
        ...current,
        series_id: series.id, series_name: series.name, issue_date: issueDate, due_date: dueDate,
        delivery_date: b.delivery_date !== undefined ? b.delivery_date : current.delivery_date,
        client_id: client.id, buyer_json: client.buyer, buyer_name: client.name,
        currency, exchange_rate: storedRate(currency, exchangeRate), language: b.language ?? current.language,
        reverse_charge: reverseCharge ? 1 : 0, net_bani: t.net_bani, vat_bani: t.vat_bani, total_bani: t.total_bani,
        discount_bani: t.discount_bani, vat_breakdown_json: breakdownJson(t), allowances_charges_json: adjustmentsJson(priced),
        efactura_enabled: b.efactura_enabled !== undefined ? (b.efactura_enabled ? 1 : 0) : current.efactura_enabled,
        spv_environment: b.spv_environment ?? current.spv_environment,
        payment_method: b.payment_method !== undefined ? b.payment_method : current.payment_method,
        observations: b.observations !== undefined ? b.observations : current.observations,
        references_json: b.references !== undefined ? referencesJson(b.references) : current.references_json,
        updated_at: ctx.now,
      };
      const { id: _id, company_id: _c, ...changes } = next;
      await trx.updateTable('invoices').set(changes).where('id', '=', current.id).execute();
      await trx.deleteFrom('invoice_lines').where('invoice_id', '=', current.id).execute();
      // In chunks: a draft of 5,000 lines has more values than one statement may bind.
      await insertRows(trx, 'invoice_lines', lineRows(current.id, ctx.companyId, priced, () => newId('invl')));
      await emitEvent(trx, ctx.companyId, 'invoice.updated', invoiceView(next), ctx.now);
      return next;
    });
    return invoiceWithLines(ctx.db, row);
  },
});

/** The draft's stored buyer is a walk-in's (it then has no client to snapshot at issue). */
export function storedWalkIn(buyerJson: string | null): boolean {
  if (!buyerJson) return false;
  const parsed = zPartySnapshot.safeParse(JSON.parse(buyerJson));
  return parsed.success && isWalkInBuyer(parsed.data);
}

/** The stored lines of a draft as wire input, so a PUT without `items` re-prices them with the new header. */
export async function currentItems(trx: Parameters<typeof findInvoice>[0], invoiceId: string) {
  const rows = await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoiceId).orderBy('position').execute();
  return rows.map((r) => ({
    product_id: r.product_id, description: r.description, quantity: Number(r.quantity_milli) / 1000, unit: r.unit,
    unit_code: r.unit_code, price: fromPriceE4(storedPriceE4(r)), base_quantity: fromMilli(storedBaseMilli(r)), vat_rate: Number(r.vat_rate_bp) / 100,
    discount_percent: Number(r.discount_bp) / 100, vat_exemption_reason: r.vat_exemption_reason, vat_category: r.vat_category,
    price_includes_vat: Number(r.price_includes_vat) === 1,
    is_service: Number(r.is_service) === 1,
  }));
}

const issueInvoice = defineRoute({
  method: 'POST', path: '/invoices/:id/issue', operationId: 'issueInvoice', summary: 'Issue a draft: it takes its number',
  description:
    'The draft takes the next number of `series_id` (default: its own series, else the primary one), or a reservation, or the lock ' +
    'holder\'s `number`, exactly as POST /invoices. The issue date defaults to today and the buyer snapshot is copied from the client now. ' +
    'Repeating the call with the same `reservation_token` or `number` answers the issued invoice again (header `Idempotent-Replayed: true`). ' +
    'Answers 200, not 201: the invoice existed as a draft.',
  tags: ['invoices'], scope: 'invoices:write', create: true, successStatus: 200, params: idParams, body: zInvoiceIssue, response: zInvoice,
  errors: { ...INVOICE_ERRORS, invoice_not_draft: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const row = await ctx.db.transaction().execute(async (trx) => {
      const current = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
      if (!current) throw notFound('id');
      if (current.status !== 'draft') {
        const sameClaim =
          (b.reservation_token !== undefined && current.reservation_token === b.reservation_token) ||
          (b.number !== undefined && Number(current.number) === b.number && (!b.series_id || b.series_id === current.series_id));
        if (sameClaim) {
          ctx.replayed();
          return current;
        }
        throw conflict('invoice_not_draft', 'id');
      }
      const walkIn = !current.client_id && storedWalkIn(current.buyer_json);
      if (!current.client_id && !walkIn) throw requireClient(ctx.locale);
      const client = current.client_id ? await findClient(trx, ctx.companyId, current.client_id) : undefined;
      if (current.client_id && !client) throw notFound('client_id');
      if (Number(current.efactura_enabled) === 1) await assertEinvoicingReady(trx, ctx.dialect, ctx.companyId);
      const issueDate = b.issue_date ?? todayAt(ctx.now);
      if (current.due_date && current.due_date < issueDate) {
        throw invalid(ctx.locale, { issue_date: 'The draft\'s due date is before this issue date.|Scadența ciornei este înaintea acestei date de emitere.' });
      }
      const buyer = client ? buyerSnapshot(client) : walkInBuyer();
      const draftLines = await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', current.id).orderBy('position').execute();
      const seller = await checkBeforeNumbering(trx, ctx.companyId, ctx.locale, {
        documentType: current.document_type, efacturaEnabled: Number(current.efactura_enabled) === 1, storno: false, issueDate,
        dueDate: current.due_date, deliveryDate: current.delivery_date, currency: current.currency, exchangeRate: current.exchange_rate,
        reverseCharge: Boolean(Number(current.reverse_charge)), paymentMethod: current.payment_method, observations: current.observations,
        references: storedReferences(current.references_json), buyer, priced: storedPriced(draftLines, Boolean(Number(current.reverse_charge)), storedAdjustments(current.allowances_charges_json)), original: null,
      });
      const planned = await planInvoiceNumber(
        assignContext(ctx), trx,
        { series_id: b.series_id ?? current.series_id, reservation_token: b.reservation_token, number: b.number, device_id: b.device_id },
        current.document_type, issueDate, current.id, current.client_local_uuid,
      );
      // A planned number is NULL here and written last by numberInvoice, as in POST /invoices.
      const taken = isLateNumber(planned) ? null : planned;
      const issued: InvoicesTable = {
        ...current, status: 'issued', seller_json: JSON.stringify(seller), series_id: planned.series.id, series_name: planned.series.name, year: planned.year,
        number: taken?.number ?? null, full_number: taken?.full_number ?? null, issue_date: issueDate, buyer_json: JSON.stringify(buyer),
        buyer_name: buyer.name, device_id: b.device_id ?? current.device_id, reservation_token: taken?.reservation_token ?? null,
        issued_at: ctx.now, updated_at: ctx.now,
      };
      const { id: _id, company_id: _c, ...changes } = issued;
      await trx.updateTable('invoices').set(changes).where('id', '=', current.id).execute();
      // STOCK (issue 15): a draft issued here never passes through insertInvoice; its goods move now.
      await moveStockForInvoice(trx, issued, null, ctx.now, ctx.warnings);
      const listening = await webhooksListening(trx, ctx.companyId);
      const next = await numberInvoice(assignContext(ctx), trx, planned, issued);
      await emitEvent(trx, ctx.companyId, 'invoice.issued', invoiceView(next), ctx.now, listening);
      return next;
    });
    return invoiceWithLines(ctx.db, row);
  },
});

const deleteInvoice = defineRoute({
  method: 'DELETE', path: '/invoices/:id', operationId: 'deleteInvoice', summary: 'Delete a draft, a voided invoice or a storno',
  description:
    'Contract general rule 4. A draft is removed and leaves no gap. A voided invoice or a storno invoice is removed, and its number ' +
    'stays used: it enters the gap register with reason `deleted`. Paid or partially paid: 409 `invoice_paid`. Issued and not voided: ' +
    '409 `invoice_not_deletable` (void it by storno). Sent to e-Factura: 409 `invoice_in_efactura`. The deletion is listed by GET /deleted-records.',
  tags: ['invoices'], scope: 'invoices:write', params: idParams, response: zDeleted('invoice'), envelope: 'top',
  errors: { resource_missing: 404, invoice_paid: 409, invoice_not_deletable: 409, invoice_in_efactura: 409 },
  handler: async (ctx) => {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
      if (!row) throw notFound('id');
      if (row.efactura_status === 'pending' || row.efactura_status === 'accepted') throw conflict('invoice_in_efactura', 'id');
      if (row.status !== 'draft') {
        if (Number(row.amount_paid_bani) !== 0) throw conflict('invoice_paid', 'id');
        if (row.status === 'issued') throw conflict('invoice_not_deletable', 'id');
        const series = row.series_id
          ? await trx.selectFrom('number_series').selectAll().where('id', '=', row.series_id).executeTakeFirst()
          : undefined;
        if (series && row.number !== null && row.year !== null) {
          await recordGap(trx, {
            companyId: ctx.companyId, series, year: Number(row.year), number: Number(row.number), reason: 'deleted',
            deviceId: row.device_id, reservationToken: row.reservation_token, now: ctx.now,
          });
        }
      }
      await trx.deleteFrom('invoice_lines').where('invoice_id', '=', row.id).execute();
      await trx.deleteFrom('invoices').where('id', '=', row.id).execute();
      await recordDeletion(trx, { resource: 'invoices', id: row.id, companyId: ctx.companyId, workPointId: row.work_point_id, now: ctx.now });
      await emitEvent(trx, ctx.companyId, 'invoice.deleted', invoiceView(row), ctx.now);
    });
    return { object: 'invoice' as const, id: ctx.params.id, deleted: true as const };
  },
});

export const invoiceRoutes: AnyRoute[] = [createInvoice, listInvoices, getInvoice, updateInvoice, issueInvoice, deleteInvoice];
