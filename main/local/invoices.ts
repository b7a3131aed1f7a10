import { z } from 'zod';
import { bpToPercent, computeTotals, fromMilli, fromPriceE4, LINE_VAT_CATEGORIES, percentToBp, storedBreakdownCategory, toMilli, type InvoiceTotals } from '../../shared/invoice-math';
import { fromBani, roundHalfAwayFromZero } from '../../shared/money';
import type { InvoiceSummary, InvoiceView, zInvoiceDraftInput, zInvoiceListInput } from '../../shared/ipc/contract';
import {
  isWalkInBuyer, lineVatCategory, noReferences, normalizeReferences, sellerSnapshotOf, walkInBuyer, zPartySnapshot, zSellerSnapshot,
  type InvoiceReferencesView, type LineVatCategory, type SellerSnapshot,
} from '../../shared/schemas/invoice';
import { buildEInvoiceDocument, mustPassEFactura, NUMBER_NOT_YET_ASSIGNED } from '../../shared/efactura/invoice-document';
import { companyProfile } from './settings';
import { foldForSearch } from '../../shared/text/search-fold';
import type { InvoiceLineRow, InvoiceRow } from '../db/rows';
import { join, sql, type Sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { AppError, invalidInput, invalidState, notFound } from '../errors';
import { deleteItem, dependentsOf, enqueue, isMutable, openItemsOf, rewrite, type OutboxRequest, type Ref } from '../sync/outbox';
import { assertClientUsable, buyerSnapshot, getClientRow } from './clients';
import type { LocalContext } from './context';
import { likePattern, recordSync, recordSyncs } from './records';
import { getSeriesRow, giveBackNumber, setLockTail, takeNumber } from './series';

type DraftInput = z.output<typeof zInvoiceDraftInput>;
type ListInput = z.output<typeof zInvoiceListInput>;

interface ComputedLine {
  product_id: string | null;
  description: string;
  quantity_milli: number;
  unit: string;
  unit_code: string;
  /** The price rounded to the ban; `price_e4` is the price. */
  price_bani: number;
  /** The price in ten-thousandths of a leu (up to 4 decimals), as the service keeps it. */
  price_e4: number;
  /** The quantity the price is for, in thousandths (1000: per unit). */
  base_quantity_milli: number;
  vat_rate_bp: number;
  discount_bp: number;
  vat_exemption_reason: string | null;
  vat_category: LineVatCategory | null;
  price_includes_vat: boolean;
  /** The line sells a service: as the input said, else as its product is (kept from then on, as the service keeps it). */
  is_service: boolean;
}

/** A stored line's exact price: `price_e4`, or `price_bani` x 100 on a line from before migration 0014. */
function storedPriceE4(l: Pick<InvoiceLineRow, 'price_bani' | 'price_e4'>): number {
  return l.price_e4 ?? l.price_bani * 100;
}

const zBreakdown = z.array(z.object({
  vat_rate_bp: z.number(),
  // Absent in rows written before the breakdown was split by category (storedBreakdownCategory).
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable().optional(),
  net_bani: z.number(), vat_bani: z.number(), total_bani: z.number(),
}));

/** A discount or charge on the whole invoice in integers; `amount_bani` has the invoice's sign (negative on a storno). */
interface Adjustment {
  charge: boolean;
  amount_bani: number;
  vat_rate_bp: number;
  vat_category: LineVatCategory | null;
  reason: string | null;
  reason_code: string | null;
}
/** As `invoices.allowances_charges` keeps it (the service's `allowances_charges_json` shape): with the VAT it moved. */
type StoredAdjustment = Adjustment & { vat_bani: number };

const zStoredAdjustments = z.array(z.object({
  charge: z.boolean(), amount_bani: z.number().int(), vat_rate_bp: z.number().int(), vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(),
  reason: z.string().nullable(), reason_code: z.string().nullable(), vat_bani: z.number().int(),
}));

function toAdjustments(items: DraftInput['allowances_charges']): Adjustment[] {
  return items.map((a) => ({
    charge: a.charge, amount_bani: a.amount_bani, vat_rate_bp: percentToBp(a.vat_rate), vat_category: a.vat_category ?? null,
    reason: a.reason ?? null, reason_code: a.reason_code ?? null,
  }));
}

/** The stored discounts and charges (negated for a storno, as the service negates them). */
function storedAdjustments(json: string | null, sign: 1 | -1 = 1): Adjustment[] {
  if (!json) return [];
  const parsed = zStoredAdjustments.safeParse(JSON.parse(json));
  return (parsed.success ? parsed.data : []).map(({ vat_bani: _vat, ...a }) => ({ ...a, amount_bani: sign * a.amount_bani }));
}

function adjustmentsJson(adjustments: readonly Adjustment[], totals: InvoiceTotals): string | null {
  if (!adjustments.length) return null;
  return JSON.stringify(adjustments.map((a, i): StoredAdjustment => ({ ...a, vat_bani: totals.adjustments[i]!.vat_bani })));
}

function storedAdjustmentViews(json: string | null): StoredAdjustment[] {
  if (!json) return [];
  const parsed = zStoredAdjustments.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
}

function referencesJson(r: DraftInput['references']): string | null {
  const all = normalizeReferences(r);
  return all ? JSON.stringify(all) : null;
}

function storedReferences(json: string | null): InvoiceReferencesView {
  return (json ? normalizeReferences(JSON.parse(json) as Partial<InvoiceReferencesView>) : null) ?? noReferences();
}

/**
 * The service's rule (server/modules/invoicing/pricing.ts): a discount or charge goes with the lines of its
 * rate (and, at 0%, category); said here at the member, before anything is queued.
 */
function checkAdjustmentRates(lines: readonly ComputedLine[], adjustments: readonly Adjustment[]): void {
  const rates = new Set(lines.map((l) => `${l.vat_rate_bp}:${l.vat_rate_bp === 0 ? (l.vat_category ?? 'E') : ''}`));
  const fields: Record<string, string> = {};
  adjustments.forEach((a, i) => {
    if (!rates.has(`${a.vat_rate_bp}:${a.vat_rate_bp === 0 ? (a.vat_category ?? 'E') : ''}`)) {
      fields[`allowances_charges.${i}.vat_rate`] =
        'No line of the invoice has this VAT rate|Nicio linie a facturii nu are această cotă de TVA: o reducere sau o majorare pe toată factura se aplică liniilor cotei ei';
    }
  });
  if (Object.keys(fields).length) throw invalidInput(fields);
}

function toComputedLines(db: ReadDb, lines: DraftInput['lines']): ComputedLine[] {
  const productIsService = (id: string | null | undefined): boolean =>
    Boolean(id && db.get(sql`SELECT 1 AS ok FROM products WHERE id = ${id} AND is_service = 1`));
  return lines.map((l) => ({
    product_id: l.product_id ?? null,
    description: l.description,
    quantity_milli: toMilli(l.quantity),
    unit: l.unit,
    unit_code: l.unit_code,
    // The 4-decimal price wins when given; price_bani is then only its rounding to the ban.
    price_bani: l.unit_price_e4 === undefined ? l.unit_price_bani : roundHalfAwayFromZero(l.unit_price_e4, 100),
    price_e4: l.unit_price_e4 ?? l.unit_price_bani * 100,
    base_quantity_milli: l.base_quantity === undefined ? 1000 : toMilli(l.base_quantity),
    vat_rate_bp: percentToBp(l.vat_rate),
    discount_bp: percentToBp(l.discount_percent),
    vat_exemption_reason: l.vat_exemption_reason ?? null,
    vat_category: l.vat_category ?? null,
    price_includes_vat: l.price_includes_vat,
    is_service: l.is_service ?? productIsService(l.product_id),
  }));
}

function totalsOf(lines: readonly ComputedLine[], reverseCharge: boolean, adjustments: readonly Adjustment[] = []): InvoiceTotals {
  return computeTotals(
    lines.map((l) => ({
      quantity_milli: l.quantity_milli, unit_price_bani: l.price_bani, unit_price_e4: l.price_e4, base_quantity_milli: l.base_quantity_milli,
      vat_rate_bp: l.vat_rate_bp, discount_bp: l.discount_bp, vat_category: l.vat_category, price_includes_vat: l.price_includes_vat,
    })),
    { reverse_charge: reverseCharge, adjustments },
  );
}

function writeLines(db: WriteDb, invoiceId: string, lines: readonly ComputedLine[], totals: InvoiceTotals): void {
  db.run(sql`DELETE FROM invoice_lines WHERE invoice_id = ${invoiceId}`);
  lines.forEach((l, i) => {
    const a = totals.lines[i]!;
    db.run(sql`INSERT INTO invoice_lines (invoice_id, position, product_id, description, quantity_milli, unit, unit_code, price_bani,
               price_e4, base_quantity_milli, vat_rate_bp, discount_bp, vat_exemption_reason, vat_category, price_includes_vat, is_service, discount_bani,
               net_bani, vat_bani, total_bani)
               VALUES (${invoiceId}, ${i + 1}, ${l.product_id}, ${l.description}, ${l.quantity_milli}, ${l.unit}, ${l.unit_code},
               ${l.price_bani}, ${l.price_e4}, ${l.base_quantity_milli}, ${l.vat_rate_bp}, ${l.discount_bp}, ${l.vat_exemption_reason}, ${l.vat_category}, ${l.price_includes_vat}, ${l.is_service}, ${a.discount_bani},
               ${a.net_bani}, ${a.vat_bani}, ${a.total_bani})`);
  });
}

function checkProducts(db: ReadDb, lines: readonly ComputedLine[]): void {
  const fields: Record<string, string> = {};
  lines.forEach((l, i) => {
    if (l.product_id && !db.get(sql`SELECT 1 AS ok FROM products WHERE id = ${l.product_id} AND is_deleted = 0`)) {
      fields[`lines.${i}.product_id`] = 'Unknown product|Produs necunoscut';
    }
  });
  if (Object.keys(fields).length) throw invalidInput(fields);
}

export function getInvoiceRow(db: ReadDb, id: string): InvoiceRow | undefined {
  return db.get<InvoiceRow>(sql`SELECT * FROM invoices WHERE id = ${id} AND is_deleted = 0`);
}

function linesOf(db: ReadDb, id: string): InvoiceLineRow[] {
  return db.all<InvoiceLineRow>(sql`SELECT * FROM invoice_lines WHERE invoice_id = ${id} ORDER BY position`);
}

/** Another document's lines as lines of a new one (a storno negates the quantities). */
function copiedLines(rows: readonly InvoiceLineRow[], sign: 1 | -1): ComputedLine[] {
  return rows.map((l) => ({
    product_id: l.product_id, description: l.description, quantity_milli: sign * l.quantity_milli, unit: l.unit, unit_code: l.unit_code,
    price_bani: l.price_bani, price_e4: storedPriceE4(l), base_quantity_milli: l.base_quantity_milli ?? 1000, vat_rate_bp: l.vat_rate_bp,
    discount_bp: l.discount_bp, vat_exemption_reason: l.vat_exemption_reason, vat_category: l.vat_category, price_includes_vat: l.price_includes_vat === 1,
    is_service: l.is_service === 1,
  }));
}

/** The wire items of an invoice, and refs for the products made offline. */
function wireItems(lines: readonly InvoiceLineRow[], sign: 1 | -1 = 1): { items: Record<string, unknown>[]; refs: Ref[] } {
  const refs: Ref[] = [];
  const items = lines.map((l, i) => {
    if (l.product_id) refs.push({ at: `items.${i}.product_id`, type: 'product', id: l.product_id });
    return {
      product_id: l.product_id,
      description: l.description,
      quantity: fromMilli(sign * l.quantity_milli),
      unit: l.unit,
      unit_code: l.unit_code,
      price: fromPriceE4(storedPriceE4(l)),
      base_quantity: fromMilli(l.base_quantity_milli ?? 1000),
      price_includes_vat: l.price_includes_vat === 1,
      vat_rate: bpToPercent(l.vat_rate_bp),
      discount_percent: bpToPercent(l.discount_bp),
      vat_exemption_reason: l.vat_exemption_reason,
      vat_category: l.vat_category,
      is_service: l.is_service === 1,
    };
  });
  return { items, refs };
}

/** Body members shared by create and update; nulls are left out (the create schema takes no null). */
function contentBody(row: InvoiceRow, lines: readonly InvoiceLineRow[]): { body: Record<string, unknown>; refs: Ref[] } {
  const { items, refs } = wireItems(lines);
  const body: Record<string, unknown> = {
    document_type: row.document_type,
    issue_date: row.issue_date,
    currency: row.currency,
    language: row.language,
    reverse_charge: row.reverse_charge === 1,
    efactura_enabled: row.efactura_enabled === 1,
    spv_environment: row.spv_environment,
    items,
  };
  if (row.client_id) {
    body.client_id = row.client_id;
    refs.push({ at: 'client_id', type: 'client', id: row.client_id });
  } else if (isWalkIn(row)) {
    body.walk_in = true;
  }
  if (row.due_date) body.due_date = row.due_date;
  if (row.delivery_date) body.delivery_date = row.delivery_date;
  if (row.exchange_rate !== null) body.exchange_rate = row.exchange_rate;
  if (row.payment_method) body.payment_method = row.payment_method;
  if (row.observations) body.observations = row.observations;
  // The same discounts and charges, so the service prices the same totals to the ban.
  const adjustments = storedAdjustments(row.allowances_charges);
  if (adjustments.length) body.allowances_charges = adjustments.map(adjustmentWire);
  const references = row.references_json ? storedReferences(row.references_json) : null;
  if (references) body.references = Object.fromEntries(Object.entries(references).filter(([, v]) => v !== null));
  return { body, refs };
}

/** One discount or charge as POST /invoices takes it (positive amounts; a storno is made by the service). */
function adjustmentWire(a: Adjustment): Record<string, unknown> {
  return {
    charge: a.charge, amount: fromBani(Math.abs(a.amount_bani)), vat_rate: bpToPercent(a.vat_rate_bp),
    ...(a.vat_category ? { vat_category: a.vat_category } : {}), ...(a.reason ? { reason: a.reason } : {}), ...(a.reason_code ? { reason_code: a.reason_code } : {}),
  };
}

function label(row: InvoiceRow): string {
  const kind = row.document_type === 'proforma' ? 'Proformă' : row.status === 'storno' ? 'Storno' : 'Factură';
  return row.full_number ? `${kind} ${row.full_number}` : `${kind} ciornă ${row.issue_date}`;
}

function createRequest(db: ReadDb, row: InvoiceRow, deviceId: string): OutboxRequest {
  const lines = linesOf(db, row.id);
  const { body, refs } = contentBody(row, lines);
  body.is_draft = row.status === 'draft';
  body.device_id = deviceId;
  body.client_local_uuid = row.client_local_uuid ?? row.id;
  if (row.status !== 'draft' && row.series_id) {
    body.series_id = row.series_id;
    if (row.numbering === 'reservation' && row.reservation_token) body.reservation_token = row.reservation_token;
    if (row.numbering === 'lock' && row.number !== null) body.number = row.number;
  }
  return { method: 'POST', path: '/invoices', body, create: true, refs, label: label(row) };
}

function updateRequest(db: ReadDb, row: InvoiceRow): OutboxRequest {
  const { body, refs } = contentBody(row, linesOf(db, row.id));
  // An update may clear members the create could only omit.
  body.due_date = row.due_date;
  body.delivery_date = row.delivery_date;
  body.exchange_rate = row.exchange_rate;
  body.payment_method = row.payment_method;
  body.observations = row.observations;
  // Replaced on every update: an empty list clears them, null clears the references.
  body.allowances_charges = storedAdjustments(row.allowances_charges).map(adjustmentWire);
  body.references = row.references_json ? (body.references ?? null) : null;
  if (!row.client_id && !isWalkIn(row)) body.client_id = null;
  // A draft that stopped being a walk-in sale says so (the service keeps its buyer otherwise).
  if (!row.client_id && !isWalkIn(row)) body.walk_in = false;
  delete body.document_type;
  return { method: 'PUT', path: '/invoices/:id', body, create: false, refs: [...refs, { at: ':id', type: 'invoice', id: row.id }], label: label(row) };
}

function numberingBody(row: InvoiceRow, deviceId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { series_id: row.series_id, issue_date: row.issue_date, device_id: deviceId };
  if (row.numbering === 'reservation') body.reservation_token = row.reservation_token;
  if (row.numbering === 'lock') body.number = row.number;
  return body;
}

// ---------------------------------------------------------------------------------------------
// Views

/** A walk-in sale: no client, the buyer "Persoană fizică" (set when the invoice was made). */
function isWalkIn(row: InvoiceRow): boolean {
  return !row.client_id && isWalkInBuyer(parseBuyer(row.buyer));
}

function parseBuyer(text: string | null): InvoiceView['buyer'] {
  if (!text) return null;
  const parsed = zPartySnapshot.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

interface SummaryRow extends InvoiceRow {
  client_name: string | null;
}

function summary(row: SummaryRow, sync: InvoiceSummary['sync']): InvoiceSummary {
  return {
    id: row.id, document_type: row.document_type, status: row.status, series_id: row.series_id, series_name: row.series_name,
    number: row.number, full_number: row.full_number, issue_date: row.issue_date, due_date: row.due_date, client_id: row.client_id,
    client_name: row.client_name, currency: row.currency,
    totals: { net_bani: row.net_bani, vat_bani: row.vat_bani, total_bani: row.total_bani, discount_bani: row.discount_bani },
    paid_state: row.paid_state, amount_paid_bani: row.amount_paid_bani, amount_due_bani: row.total_bani - row.amount_paid_bani,
    efactura_status: row.efactura_status, created_at: row.created_at, updated_at: row.updated_at, sync,
  };
}

/** The list's columns; `from` is the invoices table, possibly with an index named for the query planner. */
const summarySelect = (from: Sql = sql`invoices i`) => sql`SELECT i.*, COALESCE(json_extract(i.buyer, '$.name'), c.name) AS client_name
  FROM ${from} LEFT JOIN clients c ON c.id = i.client_id`;
const SUMMARY_SELECT = summarySelect();

/**
 * Below this many matches a text search reads them through `invoices_search` and sorts them; above
 * it, walking the list's order index and keeping the matches finds a page sooner than sorting them all.
 */
const NARROW_SEARCH = 5000;

export function invoiceView(db: ReadDb, id: string): InvoiceView {
  const row = db.get<SummaryRow>(sql`${SUMMARY_SELECT} WHERE i.id = ${id} AND i.is_deleted = 0`);
  if (!row) throw notFound('Invoice');
  const lines = linesOf(db, id);
  const breakdown = zBreakdown.safeParse(JSON.parse(row.vat_breakdown));
  return {
    ...summary(row, recordSync(db, 'invoice', row)),
    numbering: row.numbering,
    delivery_date: row.delivery_date,
    buyer: parseBuyer(row.buyer),
    seller: parseSeller(row.seller),
    exchange_rate: row.exchange_rate,
    language: row.language,
    reverse_charge: row.reverse_charge === 1,
    vat_breakdown: (breakdown.success ? breakdown.data : []).map((b) => ({
      vat_rate: bpToPercent(b.vat_rate_bp), vat_category: storedBreakdownCategory(b, row.reverse_charge === 1),
      net_bani: b.net_bani, vat_bani: b.vat_bani, total_bani: b.total_bani,
    })),
    payment_method: (row.payment_method as InvoiceView['payment_method']) ?? null,
    observations: row.observations,
    storno_of: row.storno_of,
    storno_id: row.storno_id,
    converted_from: row.converted_from,
    converted_to: row.converted_to,
    efactura_enabled: row.efactura_enabled === 1,
    spv_environment: row.spv_environment,
    issued_at: row.issued_at,
    lines: lines.map((l) => ({
      position: l.position, product_id: l.product_id, description: l.description, quantity: fromMilli(l.quantity_milli), unit: l.unit,
      unit_code: l.unit_code, unit_price_bani: l.price_bani, unit_price_e4: storedPriceE4(l), base_quantity: fromMilli(l.base_quantity_milli ?? 1000),
      price_includes_vat: l.price_includes_vat === 1, vat_rate: bpToPercent(l.vat_rate_bp), discount_percent: bpToPercent(l.discount_bp),
      vat_exemption_reason: l.vat_exemption_reason,
      vat_category: lineVatCategory(l.vat_rate_bp, l.vat_category),
      is_service: l.is_service === 1,
      discount_bani: l.discount_bani, net_bani: l.net_bani, vat_bani: l.vat_bani, total_bani: l.total_bani,
    })),
    allowances_charges: storedAdjustmentViews(row.allowances_charges).map((a) => ({
      charge: a.charge, amount_bani: a.amount_bani, vat_rate: bpToPercent(a.vat_rate_bp), vat_category: a.vat_category,
      reason: a.reason, reason_code: a.reason_code, vat_bani: a.vat_bani,
    })),
    references: storedReferences(row.references_json),
  };
}

export function getInvoice(ctx: LocalContext, id: string): InvoiceView {
  return ctx.store.snapshot((db) => invoiceView(db, id));
}

export function listInvoices(ctx: LocalContext, input: ListInput): { items: InvoiceSummary[]; total: number } {
  return ctx.store.snapshot((db) => {
    const conditions: Sql[] = [sql`i.is_deleted = 0`];
    if (input.status) conditions.push(sql`i.status = ${input.status}`);
    if (input.paid_state) conditions.push(sql`i.paid_state = ${input.paid_state}`);
    if (input.client_id) conditions.push(sql`i.client_id = ${input.client_id}`);
    if (input.series_id) conditions.push(sql`i.series_id = ${input.series_id}`);
    if (input.document_type) conditions.push(sql`i.document_type = ${input.document_type}`);
    if (input.from) conditions.push(sql`i.issue_date >= ${input.from}`);
    if (input.to) conditions.push(sql`i.issue_date <= ${input.to}`);
    if (input.unsynced) conditions.push(sql`(i.server_id IS NULL OR EXISTS (SELECT 1 FROM outbox o WHERE o.entity_type = 'invoice' AND o.entity_id = i.id AND o.state <> 'done'))`);
    // The number and the buyer's name, folded like the stored column (migration 0006): "stefanesti" finds "Ştefăneşti".
    const term = foldForSearch(input.search);
    if (term) conditions.push(sql`i.search_text LIKE ${likePattern(term)} ESCAPE '\\'`);
    const where = join(conditions, ' AND ');
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM invoices i WHERE ${where}`)?.n ?? 0;
    // The planner cannot tell how many rows a LIKE '%term%' keeps; the count just said it.
    const from = term && total <= NARROW_SEARCH ? sql`invoices i INDEXED BY invoices_search` : sql`invoices i`;
    // The page's ids first, then their rows: stepping over an OFFSET of 50 000 then reads only the
    // list-order index (the ids it covers), not 50 000 rows, their JSON and their client (bench/invoice-list).
    const page = sql`SELECT i.id FROM ${from} WHERE ${where} ORDER BY i.issue_date DESC, i.created_at DESC, i.id DESC LIMIT ${input.limit} OFFSET ${input.offset}`;
    const rows = db.all<SummaryRow>(sql`${summarySelect(sql`(${page}) p JOIN invoices i ON i.id = p.id`)} ORDER BY i.issue_date DESC, i.created_at DESC, i.id DESC`);
    const syncs = recordSyncs(db, 'invoice', rows);
    return { items: rows.map((r) => summary(r, syncs.get(r.id)!)), total };
  });
}

// ---------------------------------------------------------------------------------------------
// Actions

function insertInvoice(
  db: WriteDb,
  ctx: LocalContext,
  id: string,
  input: DraftInput,
  lines: readonly ComputedLine[],
  totals: InvoiceTotals,
  extra: { status: InvoiceRow['status']; storno_of?: string | null; converted_from?: string | null; buyer?: string | null; adjustments: readonly Adjustment[] },
): void {
  const now = ctx.clock.now();
  db.run(sql`INSERT INTO invoices (id, server_id, client_local_uuid, document_type, status, issue_date, due_date, delivery_date, client_id, currency,
             exchange_rate, language, reverse_charge, net_bani, vat_bani, total_bani, discount_bani, vat_breakdown, payment_method,
             observations, storno_of, converted_from, efactura_enabled, spv_environment, device_id, created_at, updated_at, buyer,
             allowances_charges, references_json)
             VALUES (${id}, NULL, ${id}, ${input.document_type}, ${extra.status}, ${input.issue_date ?? ctx.today()}, ${input.due_date ?? null},
             ${input.delivery_date ?? null}, ${input.client_id ?? null}, ${input.currency}, ${input.exchange_rate ?? null}, ${input.language}, ${input.reverse_charge},
             ${totals.net_bani}, ${totals.vat_bani}, ${totals.total_bani}, ${totals.discount_bani}, ${JSON.stringify(totals.breakdown)},
             ${input.payment_method ?? null}, ${input.observations ?? null}, ${extra.storno_of ?? null}, ${extra.converted_from ?? null}, ${input.efactura_enabled},
             ${input.spv_environment}, ${ctx.device.id}, ${now}, ${now}, ${walkInJson(input, extra.buyer)},
             ${adjustmentsJson(extra.adjustments, totals)}, ${referencesJson(input.references)})`);
  writeLines(db, id, lines, totals);
}

function parseSeller(text: string | null): InvoiceView['seller'] {
  if (!text) return null;
  const parsed = zSellerSnapshot.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

/**
 * The e-Factura rules, offline, before the number is taken: the same shared code the service runs
 * (shared/efactura), so an invoice numbered here is one the service, and ANAF, accept. Without the
 * company profile (before the first sync) the seller is unknown and only the service can check.
 * Returns the seller to keep on the invoice.
 */
function checkBeforeNumbering(db: ReadDb, invoice: InvoiceRow, buyer: z.infer<typeof zPartySnapshot> | null, status: 'issued' | 'storno', issueDate: string): SellerSnapshot | null {
  const profile = companyProfile(db);
  if (!profile) return null;
  const seller = sellerSnapshotOf(profile);
  if (!mustPassEFactura(invoice.document_type, invoice.efactura_enabled === 1, profile.missing_for_efactura.length === 0)) return seller;
  const original = invoice.storno_of ? getInvoiceRow(db, invoice.storno_of) : undefined;
  const { problems } = buildEInvoiceDocument({
    number: NUMBER_NOT_YET_ASSIGNED, storno: status === 'storno', issue_date: issueDate, due_date: invoice.due_date,
    delivery_date: invoice.delivery_date, currency: invoice.currency, exchange_rate: invoice.exchange_rate,
    reverse_charge: invoice.reverse_charge === 1, payment_method: invoice.payment_method, observations: invoice.observations,
    buyer, buyer_name: buyer?.name ?? null, seller,
    lines: linesOf(db, invoice.id).map((l) => ({
      position: l.position, description: l.description, quantity_milli: l.quantity_milli, unit_code: l.unit_code, price_bani: l.price_bani,
      price_e4: storedPriceE4(l), base_quantity_milli: l.base_quantity_milli ?? 1000, discount_bp: l.discount_bp, discount_bani: l.discount_bani, net_bani: l.net_bani, vat_bani: l.vat_bani, vat_rate_bp: l.vat_rate_bp,
      vat_category: l.vat_category, vat_exemption_reason: l.vat_exemption_reason, price_includes_vat: l.price_includes_vat === 1,
      is_service: l.is_service === 1,
    })),
    adjustments: storedAdjustmentViews(invoice.allowances_charges),
    references: storedReferences(invoice.references_json),
    original: original ? { full_number: original.full_number, issue_date: original.issue_date, delivery_date: original.delivery_date } : null,
  });
  if (Object.keys(problems).length) throw invalidInput(problems);
  return seller;
}

/** Gives `id` its number, buyer snapshot and issued state; the caller queues the request. */
function applyNumber(db: WriteDb, ctx: LocalContext, id: string, seriesId: string, status: 'issued' | 'storno', issueDate?: string): { after: string[] } {
  const invoice = getInvoiceRow(db, id)!;
  // The server issues nothing without a buyer: refuse here, before anything else, rather than fail at sync.
  const walkIn = isWalkIn(invoice);
  if (!invoice.client_id && !walkIn) throw invalidInput({ client_id: 'An issued invoice needs a client|O factură emisă are nevoie de un client' });
  const series = getSeriesRow(db, seriesId);
  if (!series) throw invalidInput({ series_id: 'Unknown series|Serie necunoscută' });
  if (series.document_type !== invoice.document_type) throw invalidInput({ series_id: 'The series is for another document type|Seria este pentru alt tip de document' });
  const client = invoice.client_id ? getClientRow(db, invoice.client_id) : undefined;
  // A walk-in sale keeps the "Persoană fizică" buyer its draft was given.
  const buyer = client ? buyerSnapshot(client) : walkIn && invoice.buyer ? zPartySnapshot.parse(JSON.parse(invoice.buyer)) : null;
  const seller = checkBeforeNumbering(db, invoice, buyer, status, issueDate ?? invoice.issue_date);
  const taken = takeNumber(db, ctx, seriesId, id, issueDate ?? invoice.issue_date);
  const now = ctx.clock.now();
  db.run(sql`UPDATE invoices SET status = ${status}, series_id = ${seriesId}, series_name = ${series.name}, number = ${taken.number},
             full_number = ${taken.full_number}, numbering = ${taken.numbering}, reservation_token = ${taken.reservation_token},
             issue_date = ${issueDate ?? invoice.issue_date}, buyer = ${buyer ? JSON.stringify(buyer) : null},
             seller = ${seller ? JSON.stringify(seller) : null},
             issued_at = ${now}, updated_at = ${now} WHERE id = ${id}`);
  return { after: taken.after };
}

/** The buyer column of a new invoice: a walk-in's snapshot at once (it has no client to copy at issue), else what it inherits. */
function walkInJson(input: DraftInput, inherited: string | null | undefined): string | null {
  if (input.walk_in && !input.client_id) return JSON.stringify(walkInBuyer());
  return inherited ?? null;
}

function prepare(db: ReadDb, input: DraftInput, today: string): { lines: ComputedLine[]; adjustments: Adjustment[]; totals: InvoiceTotals } {
  if (input.client_id && input.walk_in) throw invalidInput({ walk_in: 'A walk-in sale names no client|O vânzare fără client nu are client' });
  if (input.client_id) assertClientUsable(db, input.client_id);
  // The service refuses it too (422 at sync): better said here, before anything is queued.
  if (input.due_date && input.due_date < (input.issue_date ?? today)) {
    throw invalidInput({ due_date: 'Must not be before the issue date|Nu poate fi înaintea datei emiterii' });
  }
  const lines = toComputedLines(db, input.lines);
  checkProducts(db, lines);
  const adjustments = toAdjustments(input.allowances_charges);
  checkAdjustmentRates(lines, adjustments);
  return { lines, adjustments, totals: totalsOf(lines, input.reverse_charge, adjustments) };
}

export function saveDraft(ctx: LocalContext, input: DraftInput & { id?: string | undefined }): InvoiceView {
  return ctx.store.write((db) => {
    const { lines, adjustments, totals } = prepare(db, input, ctx.today());
    if (!input.id) {
      const id = ctx.uuid();
      insertInvoice(db, ctx, id, input, lines, totals, { status: 'draft', adjustments });
      enqueue(db, ctx, { kind: 'invoice.create', entityType: 'invoice', entityId: id, request: createRequest(db, getInvoiceRow(db, id)!, ctx.device.id) });
      return invoiceView(db, id);
    }
    const existing = getInvoiceRow(db, input.id);
    if (!existing) throw notFound('Invoice');
    if (existing.status !== 'draft') throw invalidState('Only a draft can be edited; an issued invoice is corrected by storno');
    const now = ctx.clock.now();
    db.run(sql`UPDATE invoices SET document_type = ${input.document_type}, issue_date = ${input.issue_date ?? existing.issue_date},
               due_date = ${input.due_date ?? null}, delivery_date = ${input.delivery_date ?? null}, client_id = ${input.client_id ?? null},
               buyer = ${walkInJson(input, null)}, currency = ${input.currency},
               exchange_rate = ${input.exchange_rate ?? null}, language = ${input.language}, reverse_charge = ${input.reverse_charge},
               net_bani = ${totals.net_bani}, vat_bani = ${totals.vat_bani}, total_bani = ${totals.total_bani},
               discount_bani = ${totals.discount_bani}, vat_breakdown = ${JSON.stringify(totals.breakdown)},
               payment_method = ${input.payment_method ?? null}, observations = ${input.observations ?? null},
               efactura_enabled = ${input.efactura_enabled}, spv_environment = ${input.spv_environment},
               allowances_charges = ${adjustmentsJson(adjustments, totals)}, references_json = ${referencesJson(input.references)}, updated_at = ${now}
               WHERE id = ${input.id}`);
    writeLines(db, input.id, lines, totals);
    queueDraftChange(db, ctx, getInvoiceRow(db, input.id)!);
    return invoiceView(db, input.id);
  });
}

/** Folds the draft's new content into its unsent create or update, or queues an update. */
function queueDraftChange(db: WriteDb, ctx: LocalContext, row: InvoiceRow): void {
  const open = openItemsOf(db, 'invoice', row.id);
  const create = open.find((i) => i.kind === 'invoice.create');
  if (create && isMutable(create)) {
    rewrite(db, ctx, create.id, createRequest(db, row, ctx.device.id));
    return;
  }
  const update = [...open].reverse().find((i) => i.kind === 'invoice.update');
  if (update && isMutable(update)) {
    rewrite(db, ctx, update.id, updateRequest(db, row));
    return;
  }
  enqueue(db, ctx, { kind: 'invoice.update', entityType: 'invoice', entityId: row.id, request: updateRequest(db, row) });
}

/** Issues a new invoice in one transaction: row, lines, number, outbox item. */
export function issueInvoice(ctx: LocalContext, input: DraftInput & { series_id: string }): InvoiceView {
  return ctx.store.write((db) => invoiceView(db, issueInvoiceIn(db, ctx, input, ctx.uuid())));
}

/**
 * The body of `issueInvoice` inside the caller's transaction, under the id the caller chose (the
 * counter passes its cart's id, so the cart and the document share one idempotency key). Returns the id.
 */
export function issueInvoiceIn(db: WriteDb, ctx: LocalContext, input: DraftInput & { series_id: string }, id: string): string {
  const { lines, adjustments, totals } = prepare(db, input, ctx.today());
  insertInvoice(db, ctx, id, input, lines, totals, { status: 'draft', adjustments });
  const { after } = applyNumber(db, ctx, id, input.series_id, 'issued');
  const row = getInvoiceRow(db, id)!;
  const item = enqueue(db, ctx, { kind: 'invoice.create', entityType: 'invoice', entityId: id, request: createRequest(db, row, ctx.device.id), after });
  if (row.numbering === 'lock') setLockTail(db, input.series_id, item);
  return id;
}

export function issueDraft(ctx: LocalContext, input: { id: string; series_id: string; issue_date?: string | undefined }): InvoiceView {
  return ctx.store.write((db) => {
    const row = getInvoiceRow(db, input.id);
    if (!row) throw notFound('Invoice');
    if (row.status !== 'draft') throw invalidState('The invoice is already issued');
    // An invoice is dated the day it is issued, not the day its draft was started.
    const { after } = applyNumber(db, ctx, input.id, input.series_id, 'issued', input.issue_date ?? ctx.today());
    const issued = getInvoiceRow(db, input.id)!;
    const open = openItemsOf(db, 'invoice', input.id);
    const create = open.find((i) => i.kind === 'invoice.create');
    if (create && isMutable(create) && !open.some((i) => i.kind === 'invoice.update')) {
      // Never sent: the create itself now issues the invoice, with its number.
      rewrite(db, ctx, create.id, createRequest(db, issued, ctx.device.id));
      for (const dep of after) db.run(sql`INSERT OR IGNORE INTO outbox_deps (item_id, depends_on) VALUES (${create.id}, ${dep})`);
      if (issued.numbering === 'lock') setLockTail(db, input.series_id, create.id);
    } else {
      const item = enqueue(db, ctx, {
        kind: 'invoice.issue',
        entityType: 'invoice',
        entityId: input.id,
        request: {
          method: 'POST', path: '/invoices/:id/issue', body: numberingBody(issued, ctx.device.id), create: false,
          refs: [{ at: ':id', type: 'invoice', id: input.id }], label: label(issued),
        },
        after,
      });
      if (issued.numbering === 'lock') setLockTail(db, input.series_id, item);
    }
    return invoiceView(db, input.id);
  });
}

export function stornoInvoice(ctx: LocalContext, input: { id: string; series_id?: string | undefined; issue_date?: string | undefined }): InvoiceView {
  return ctx.store.write((db) => {
    const original = getInvoiceRow(db, input.id);
    if (!original) throw notFound('Invoice');
    if (original.status !== 'issued') throw invalidState('Only an issued invoice can be voided by storno');
    if (original.storno_id) throw invalidState('The invoice already has a storno');
    const seriesId = input.series_id ?? original.series_id;
    if (!seriesId) throw invalidInput({ series_id: 'A series is required|Seria este obligatorie' });
    const originalLines = linesOf(db, original.id);
    // A storno repeats the original's lines with negative quantities and the same positive prices.
    const lines = copiedLines(originalLines, -1);
    // ... and its discounts and charges negated, as the service's storno does: the same totals to the ban.
    const adjustments = storedAdjustments(original.allowances_charges, -1);
    const totals = totalsOf(lines, original.reverse_charge === 1, adjustments);
    const id = ctx.uuid();
    const draft: DraftInput = {
      client_id: original.client_id, walk_in: isWalkIn(original), document_type: original.document_type, issue_date: input.issue_date ?? ctx.today(),
      due_date: null, delivery_date: null, currency: original.currency, exchange_rate: original.exchange_rate, language: original.language,
      reverse_charge: original.reverse_charge === 1, efactura_enabled: original.efactura_enabled === 1,
      spv_environment: original.spv_environment, payment_method: null, observations: null, lines: [], allowances_charges: [],
      references: storedReferences(original.references_json),
    };
    insertInvoice(db, ctx, id, draft, lines, totals, { status: 'draft', storno_of: original.id, adjustments });
    const { after } = applyNumber(db, ctx, id, seriesId, 'storno');
    const now = ctx.clock.now();
    db.run(sql`UPDATE invoices SET status = 'voided', storno_id = ${id}, updated_at = ${now} WHERE id = ${original.id}`);
    const storno = getInvoiceRow(db, id)!;
    const body = { ...numberingBody(storno, ctx.device.id), client_local_uuid: id };
    const item = enqueue(db, ctx, {
      kind: 'invoice.storno',
      entityType: 'invoice',
      entityId: id,
      request: { method: 'POST', path: '/invoices/:id/storno', body, create: true, refs: [{ at: ':id', type: 'invoice', id: original.id }], label: label(storno) },
      after,
    });
    if (storno.numbering === 'lock') setLockTail(db, seriesId, item);
    return invoiceView(db, id);
  });
}

/** An issued proforma becomes a fiscal invoice, numbered now; the server makes the same one from the proforma. */
export function convertProforma(ctx: LocalContext, input: { id: string; series_id: string; issue_date?: string | undefined }): InvoiceView {
  return ctx.store.write((db) => {
    const proforma = getInvoiceRow(db, input.id);
    if (!proforma) throw notFound('Invoice');
    if (proforma.document_type !== 'proforma') throw invalidState('Only a proforma can be converted');
    if (proforma.status !== 'issued') throw invalidState('Only an issued proforma can be converted');
    if (proforma.converted_to) throw invalidState('The proforma was already converted');
    const lines = copiedLines(linesOf(db, proforma.id), 1);
    const adjustments = storedAdjustments(proforma.allowances_charges);
    const totals = totalsOf(lines, proforma.reverse_charge === 1, adjustments);
    const id = ctx.uuid();
    const issueDate = input.issue_date ?? ctx.today();
    const draft: DraftInput = {
      client_id: proforma.client_id, walk_in: isWalkIn(proforma), document_type: 'fiscal', issue_date: issueDate,
      due_date: proforma.due_date && proforma.due_date >= issueDate ? proforma.due_date : null, delivery_date: proforma.delivery_date, currency: proforma.currency,
      exchange_rate: proforma.exchange_rate, language: proforma.language, reverse_charge: proforma.reverse_charge === 1,
      efactura_enabled: proforma.efactura_enabled === 1, spv_environment: proforma.spv_environment,
      payment_method: (proforma.payment_method as DraftInput['payment_method']) ?? null, observations: proforma.observations, lines: [],
      allowances_charges: [], references: storedReferences(proforma.references_json),
    };
    insertInvoice(db, ctx, id, draft, lines, totals, { status: 'draft', converted_from: proforma.id, adjustments });
    const { after } = applyNumber(db, ctx, id, input.series_id, 'issued');
    db.run(sql`UPDATE invoices SET converted_to = ${id}, updated_at = ${ctx.clock.now()} WHERE id = ${proforma.id}`);
    const fiscal = getInvoiceRow(db, id)!;
    const item = enqueue(db, ctx, {
      kind: 'invoice.convert',
      entityType: 'invoice',
      entityId: id,
      request: {
        method: 'POST', path: '/invoices/:id/convert', body: { ...numberingBody(fiscal, ctx.device.id), client_local_uuid: id }, create: true,
        refs: [{ at: ':id', type: 'invoice', id: proforma.id }], label: label(fiscal),
      },
      after,
    });
    if (fiscal.numbering === 'lock') setLockTail(db, input.series_id, item);
    return invoiceView(db, id);
  });
}

/**
 * Discards an invoice the server has not (surely) seen, or deletes a synced draft. A discarded
 * issued invoice gives its number back: released on the server (a documented gap) for a reserved
 * number, or rolled back for the last number of a locked series.
 */
export function discardInvoice(ctx: LocalContext, id: string): { id: string; released_full_number: string | null } {
  return ctx.store.write((db) => discardInvoiceIn(db, ctx, id));
}

export function discardInvoiceIn(db: WriteDb, ctx: LocalContext, id: string): { id: string; released_full_number: string | null } {
  const row = getInvoiceRow(db, id);
  if (!row) throw notFound('Invoice');
  const open = openItemsOf(db, 'invoice', id);
  const now = ctx.clock.now();
  const creating = open.find((i) => i.kind === 'invoice.create' || i.kind === 'invoice.storno' || i.kind === 'invoice.convert');
  if (row.numbering === 'lock' && row.series_id && row.number !== null && open.length) {
    const series = getSeriesRow(db, row.series_id);
    if (series?.local_next_number !== row.number + 1) {
      throw invalidState('Only the last number of an exclusive series can be discarded; void this invoice by storno after it syncs');
    }
  }
  if (creating && isMutable(creating)) {
    // A counter sale's card payment belongs to its invoice: never sent either, it goes with it.
    for (const payment of db.all<{ id: string }>(sql`SELECT id FROM payments WHERE invoice_id = ${id} AND server_id IS NULL`)) {
      const items = openItemsOf(db, 'payment', payment.id);
      if (!items.every(isMutable)) continue;
      for (const item of items) deleteItem(db, item.id);
      db.run(sql`DELETE FROM payments WHERE id = ${payment.id}`);
    }
  }
  for (const item of open) {
    const waiting = dependentsOf(db, item.id).filter((d) => !open.some((o) => o.id === d));
    if (waiting.length) throw new AppError('conflict', 'has_dependents', 'Other records (e.g. a receipt) wait for this invoice: discard them first');
  }
  if (creating) {
    if (!isMutable(creating)) throw invalidState('The invoice is being sent to the server; try again when the sync finishes');
    if (open.some((i) => !isMutable(i))) throw invalidState('The invoice is being sent to the server');
    const released = row.status === 'draft' ? null : giveBackNumber(db, ctx, row, creating.id);
    for (const item of open) deleteItem(db, item.id);
    if (row.storno_of) db.run(sql`UPDATE invoices SET status = 'issued', storno_id = NULL, updated_at = ${now} WHERE id = ${row.storno_of}`);
    if (row.converted_from) db.run(sql`UPDATE invoices SET converted_to = NULL, updated_at = ${now} WHERE id = ${row.converted_from}`);
    db.run(sql`DELETE FROM invoices WHERE id = ${id}`);
    return { id, released_full_number: released };
  }
  const issuing = open.find((i) => i.kind === 'invoice.issue');
  if (issuing) {
    if (!isMutable(issuing)) throw invalidState('The invoice is being issued on the server; try again when the sync finishes');
    const released = giveBackNumber(db, ctx, row, issuing.id);
    deleteItem(db, issuing.id);
    db.run(sql`UPDATE invoices SET status = 'draft', number = NULL, full_number = NULL, numbering = NULL, reservation_token = NULL,
               series_id = NULL, series_name = NULL, buyer = NULL, issued_at = NULL, updated_at = ${now} WHERE id = ${id}`);
    return { id, released_full_number: released };
  }
  if (row.status !== 'draft') throw invalidState('The invoice is on the server: void it by storno');
  for (const item of open) {
    if (!isMutable(item)) throw invalidState('The draft is being sent to the server; try again when the sync finishes');
    deleteItem(db, item.id);
  }
  db.run(sql`UPDATE invoices SET is_deleted = 1, updated_at = ${now} WHERE id = ${id}`);
  enqueue(db, ctx, {
    kind: 'invoice.delete',
    entityType: 'invoice',
    entityId: id,
    request: { method: 'DELETE', path: '/invoices/:id', create: false, refs: [{ at: ':id', type: 'invoice', id }], label: label(row) },
  });
  return { id, released_full_number: null };
}
