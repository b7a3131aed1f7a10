import { z } from 'zod';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { newId } from '../../platform/ids';
import { zInvoice, zInvoiceConvert, zInvoiceStorno } from '../../../shared/schemas/invoice';
import { numberInvoice, planInvoiceNumber } from './invoice-numbering';
import { insertInvoice } from './invoice-store';
import { invoiceView } from './invoice-view';
import { assertEinvoicingReady } from './einvoicing-ready';
import { lockInvoiceRow } from './payment-store';
import { price, storedAdjustments, storedBaseMilli, storedPriceE4, storedReferences, type LineIntegers } from './pricing';
import { checkBeforeNumbering } from './efactura-check';
import { todayAt } from './numbering';
import { buyerSnapshot, findClient, type PartySnapshot } from './catalog-bridge';
import { assignContext, onceByLocalUuid } from './invoice-routes';
import type { InvoiceLinesTable } from './tables';
import './messages';
import { emitEvent, webhooksListening } from '../webhooks/events';

const idParams = z.object({ id: z.string() });

const NUMBERING_ERRORS = {
  resource_missing: 404, forbidden: 403, series_locked: 409, series_not_locked: 409, number_out_of_sequence: 409,
  reservation_released: 409, reservation_consumed: 409, oauth_not_configured: 400, invoice_is_draft: 409, already_voided: 409,
  efactura_invalid_invoice: 422,
};

function toIntegers(rows: InvoiceLinesTable[], negate: boolean): LineIntegers[] {
  return rows.map((r) => ({
    product_id: r.product_id,
    description: r.description,
    quantity_milli: negate ? -Number(r.quantity_milli) : Number(r.quantity_milli),
    unit: r.unit,
    unit_code: r.unit_code,
    price_bani: Number(r.price_bani),
    price_e4: storedPriceE4(r),
    base_quantity_milli: storedBaseMilli(r),
    vat_rate_bp: Number(r.vat_rate_bp),
    discount_bp: Number(r.discount_bp),
    vat_exemption_reason: r.vat_exemption_reason,
    vat_category: r.vat_category,
    price_includes_vat: Number(r.price_includes_vat) === 1,
    is_service: Number(r.is_service) === 1,
  }));
}

const storno = defineRoute({
  method: 'POST', path: '/invoices/:id/storno', operationId: 'stornoInvoice', summary: 'Void an issued invoice by storno',
  description:
    'Issues a storno invoice with the original\'s lines at negative quantities and the same (positive) prices, the original\'s buyer, ' +
    'currency and rate, in the original\'s series unless `series_id` says otherwise (numbered like POST /invoices: next number, ' +
    'reservation or lock holder\'s number). The original becomes `voided`; `storno_of` and `storno_id` link both ways. ' +
    'Fiscal and proforma invoices alike. A repeated `client_local_uuid` answers the storno already made.',
  tags: ['invoices'], scope: 'invoices:write', create: true, params: idParams, body: zInvoiceStorno, response: zInvoice,
  errors: { ...NUMBERING_ERRORS, invoice_is_storno: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    return onceByLocalUuid(ctx, b.client_local_uuid, async () => {
      const created = await ctx.db.transaction().execute(async (trx) => {
        const original = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
        if (!original) throw notFound('id');
        if (original.status === 'draft') throw conflict('invoice_is_draft', 'id');
        if (original.status === 'storno') throw conflict('invoice_is_storno', 'id');
        if (original.status === 'voided' || original.storno_id) {
          throw new ApiError(409, 'invalid_request_error', 'already_voided', { param: 'id', vars: { storno_id: original.storno_id ?? '' } });
        }
        if (Number(original.efactura_enabled) === 1) await assertEinvoicingReady(trx, ctx.dialect, ctx.companyId);
        const lines = await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', original.id).orderBy('position').execute();
        // A storno negates the discounts and charges too, with the VAT each moved (every step is symmetric around zero).
        const priced = price(toIntegers(lines, true), Boolean(original.reverse_charge), storedAdjustments(original.allowances_charges_json, true));
        const id = newId('inv');
        const issueDate = b.issue_date ?? todayAt(ctx.now);
        const buyer = original.buyer_json ? (JSON.parse(original.buyer_json) as PartySnapshot) : null;
        const seller = await checkBeforeNumbering(trx, ctx.companyId, ctx.locale, {
          documentType: original.document_type, efacturaEnabled: Number(original.efactura_enabled) === 1, storno: true, issueDate,
          dueDate: null, deliveryDate: null, currency: original.currency, exchangeRate: original.exchange_rate,
          reverseCharge: Boolean(Number(original.reverse_charge)), paymentMethod: original.payment_method, observations: null, buyer, priced, references: storedReferences(original.references_json),
          original: { full_number: original.full_number, issue_date: original.issue_date, delivery_date: original.delivery_date },
        });
        const planned = await planInvoiceNumber(
          assignContext(ctx), trx, { ...b, series_id: b.series_id ?? (b.reservation_token ? undefined : original.series_id) }, original.document_type, issueDate, id,
          b.client_local_uuid ?? null,
        );
        const result = await insertInvoice(trx, {
          id, companyId: ctx.companyId, workPointId: ctx.workPointId, documentType: original.document_type, status: 'storno',
          draftSeries: null, assigned: planned, issueDate, dueDate: null, deliveryDate: null, clientId: original.client_id,
          buyer, seller,
          currency: original.currency, exchangeRate: original.exchange_rate, language: original.language,
          reverseCharge: Boolean(original.reverse_charge), priced, paymentMethod: original.payment_method,
          // The reference to the original is structural (`storno_of`); printers and the e-Factura XML write it out.
          observations: null, references: storedReferences(original.references_json), stornoOf: original.id, convertedFrom: null,
          efacturaEnabled: Number(original.efactura_enabled) === 1, spvEnvironment: original.spv_environment,
          clientLocalUuid: b.client_local_uuid ?? null, deviceId: b.device_id ?? null, now: ctx.now, warnings: ctx.warnings,
        });
        await trx.updateTable('invoices').set({ status: 'voided', storno_id: id, updated_at: ctx.now }).where('id', '=', original.id).execute();
        const listening = await webhooksListening(trx, ctx.companyId);
        // The number last, as in POST /invoices: the series is locked only for it and the commit.
        const row = await numberInvoice(assignContext(ctx), trx, planned, result.row);
        // WEBHOOKS (issue 18): the storno invoice is a new issued invoice; the original is stornoed.
        await emitEvent(trx, ctx.companyId, ['invoice.created', 'invoice.issued'], invoiceView(row), ctx.now, listening);
        await emitEvent(trx, ctx.companyId, 'invoice.stornoed', invoiceView({ ...original, status: 'voided', storno_id: id, updated_at: ctx.now }), ctx.now, listening);
        return { row, lines: result.lines };
      });
      return invoiceView(created.row, { lines: created.lines });
    });
  },
});

const convert = defineRoute({
  method: 'POST', path: '/invoices/:id/convert', operationId: 'convertProforma', summary: 'Convert an issued proforma into a fiscal invoice',
  description:
    'Issues a fiscal invoice with the proforma\'s lines, client, currency and rate (numbered like POST /invoices, default the primary ' +
    'fiscal series); the buyer snapshot is taken from the client now. `converted_from` and `converted_to` link both ways. ' +
    'A repeated `client_local_uuid` answers the invoice already made.',
  tags: ['invoices'], scope: 'invoices:write', create: true, params: idParams, body: zInvoiceConvert, response: zInvoice,
  errors: { ...NUMBERING_ERRORS, invoice_not_proforma: 409, already_converted: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    return onceByLocalUuid(ctx, b.client_local_uuid, async () => {
      const created = await ctx.db.transaction().execute(async (trx) => {
        const proforma = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
        if (!proforma) throw notFound('id');
        if (proforma.document_type !== 'proforma') throw conflict('invoice_not_proforma', 'id');
        if (proforma.status === 'draft') throw conflict('invoice_is_draft', 'id');
        if (proforma.status === 'voided' || proforma.status === 'storno') {
          throw new ApiError(409, 'invalid_request_error', 'already_voided', { param: 'id', vars: { storno_id: proforma.storno_id ?? '' } });
        }
        if (proforma.converted_to) {
          throw new ApiError(409, 'invalid_request_error', 'already_converted', { param: 'id', vars: { converted_to: proforma.converted_to } });
        }
        if (Number(proforma.efactura_enabled) === 1) await assertEinvoicingReady(trx, ctx.dialect, ctx.companyId);
        const lines = await trx.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', proforma.id).orderBy('position').execute();
        const priced = price(toIntegers(lines, false), Boolean(proforma.reverse_charge), storedAdjustments(proforma.allowances_charges_json));
        const client = proforma.client_id ? await findClient(trx, ctx.companyId, proforma.client_id) : undefined;
        const buyer = client ? buyerSnapshot(client) : proforma.buyer_json ? (JSON.parse(proforma.buyer_json) as PartySnapshot) : null;
        const id = newId('inv');
        const issueDate = b.issue_date ?? todayAt(ctx.now);
        const dueDate = proforma.due_date && proforma.due_date >= issueDate ? proforma.due_date : null;
        const seller = await checkBeforeNumbering(trx, ctx.companyId, ctx.locale, {
          documentType: 'fiscal', efacturaEnabled: Number(proforma.efactura_enabled) === 1, storno: false, issueDate, dueDate,
          deliveryDate: proforma.delivery_date, currency: proforma.currency, exchangeRate: proforma.exchange_rate,
          reverseCharge: Boolean(Number(proforma.reverse_charge)), paymentMethod: proforma.payment_method, observations: proforma.observations,
          buyer, priced, original: null, references: storedReferences(proforma.references_json),
        });
        const planned = await planInvoiceNumber(assignContext(ctx), trx, b, 'fiscal', issueDate, id, b.client_local_uuid ?? null);
        const result = await insertInvoice(trx, {
          id, companyId: ctx.companyId, workPointId: ctx.workPointId, documentType: 'fiscal', status: 'issued',
          draftSeries: null, assigned: planned, issueDate, dueDate,
          deliveryDate: proforma.delivery_date,
          clientId: proforma.client_id, buyer, seller, currency: proforma.currency, exchangeRate: proforma.exchange_rate,
          language: proforma.language, reverseCharge: Boolean(proforma.reverse_charge), priced, paymentMethod: proforma.payment_method,
          observations: proforma.observations, references: storedReferences(proforma.references_json), stornoOf: null, convertedFrom: proforma.id,
          efacturaEnabled: Number(proforma.efactura_enabled) === 1, spvEnvironment: proforma.spv_environment,
          clientLocalUuid: b.client_local_uuid ?? null, deviceId: b.device_id ?? null, now: ctx.now, warnings: ctx.warnings,
        });
        await trx.updateTable('invoices').set({ converted_to: id, updated_at: ctx.now }).where('id', '=', proforma.id).execute();
        const listening = await webhooksListening(trx, ctx.companyId);
        const row = await numberInvoice(assignContext(ctx), trx, planned, result.row);
        await emitEvent(trx, ctx.companyId, ['invoice.created', 'invoice.issued'], invoiceView(row), ctx.now, listening);
        return { row, lines: result.lines };
      });
      return invoiceView(created.row, { lines: created.lines });
    });
  },
});

export const invoiceActionRoutes: AnyRoute[] = [storno, convert];
