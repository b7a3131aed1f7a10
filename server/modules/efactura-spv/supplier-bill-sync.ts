import { AnafError, type EfacturaClient, type EfacturaMessage } from '../../anaf/index';
import { UblParseError, type ParsedUblInvoice } from '../../efactura/index';
import { parseEInvoice } from '../../efactura/cii-read';
import { todayInBucharest } from '../../../shared/dates';
import { spvMessageExpiry } from '../../../shared/ro/working-days';
import type { Db } from '../../db/types';
import { newId } from '../../platform/ids';
import type { SupplierBillSyncResult } from '../../../shared/schemas/supplier-bill';
import { anafDetail, toApiError } from './anaf-errors';
import { requireAnaf, tokenSource, type EfacturaServices } from './token-store';
import { billStatus, findOrCreateSupplier, newLineId, type PartyJson } from './supplier-bill-store';

/**
 * Import of the SPV inbox: every "FACTURA PRIMITA" message of the window becomes one supplier bill.
 * A message is downloaded and parsed outside any transaction; the message row, the bill and its
 * lines are then written together. The unique (company, environment, message) key and the unique
 * (company, message) key of bills make a repeated or concurrent import write nothing twice.
 */

function partyJson(p: ParsedUblInvoice['supplier'], iban: string | null): PartyJson {
  const a = p.address;
  const address = [a.street, a.city, a.county_code, a.postal_zone, a.country_code && a.country_code !== 'RO' ? a.country_code : null].filter(Boolean).join(', ');
  return { name: p.name, vat_id: p.vat_id, cui: p.cui, reg_com: p.reg_com, address: address || null, email: p.email, phone: p.phone, iban };
}

function sign(kind: ParsedUblInvoice['kind'], bani: number): number {
  // A credit note states positive amounts that reduce what we owe: stored negative, balances add up.
  return kind === 'credit_note' ? -bani : bani;
}

export interface ImportContext {
  db: Db;
  companyId: string;
  workPointId: string;
  environment: 'test' | 'prod';
  now: number;
}

async function recordFailure(c: ImportContext, m: EfacturaMessage, error: string, original: { xml: string; signature: string | null } | null = null): Promise<void> {
  const values = {
    upload_index: m.id_solicitare, cif: m.cif, type: m.tip, details: m.detalii, creation_date: m.created_at ?? m.data_creare,
    seller_cif: m.seller_cif ?? null, status: 'failed' as const, error, updated_at: c.now,
  };
  await c.db
    .insertInto('efactura_messages')
    .values({ company_id: c.companyId, environment: c.environment, message_id: m.id, ...values, xml: original?.xml ?? null, signature: original?.signature ?? null, created_at: c.now })
    .onConflict((oc) => oc.columns(['company_id', 'environment', 'message_id']).doUpdateSet(original ? { ...values, xml: original.xml, signature: original.signature } : values))
    .execute();
}

/** Writes the message, the bill and its lines; the bill id, or null when another import got there first. */
export async function importParsed(c: ImportContext, m: EfacturaMessage, xml: string, signature: string | null, parsed: ParsedUblInvoice): Promise<string | null> {
  const party = partyJson(parsed.supplier, parsed.payment_iban);
  const supplierId = await findOrCreateSupplier(c.db, c.companyId, party, c.now);
  const client = parsed.supplier.cui
    ? await c.db.selectFrom('clients').select('id').where('company_id', '=', c.companyId).where('cui', '=', parsed.supplier.cui).where('is_deleted', '=', 0).executeTakeFirst()
    : undefined;
  return c.db.transaction().execute(async (trx) => {
    const values = {
      upload_index: m.id_solicitare, cif: m.cif, type: m.tip, details: m.detalii, creation_date: m.created_at ?? m.data_creare,
      seller_cif: m.seller_cif ?? parsed.supplier.cui, status: 'imported' as const, error: null, xml, signature, updated_at: c.now,
    };
    await trx
      .insertInto('efactura_messages')
      .values({ company_id: c.companyId, environment: c.environment, message_id: m.id, ...values, created_at: c.now })
      .onConflict((oc) => oc.columns(['company_id', 'environment', 'message_id']).doUpdateSet(values))
      .execute();
    const message = await trx
      .selectFrom('efactura_messages')
      .select('id')
      .where('company_id', '=', c.companyId)
      .where('environment', '=', c.environment)
      .where('message_id', '=', m.id)
      .executeTakeFirstOrThrow();
    const messageRowId = Number(message.id);
    const already = await trx.selectFrom('supplier_bills').select('id').where('company_id', '=', c.companyId).where('efactura_message_id', '=', messageRowId).executeTakeFirst();
    if (already) return null;

    const amounts = parsed.amounts;
    const payable = sign(parsed.kind, amounts.payable_bani);
    // A bill entered by hand before the e-Factura arrived: the message completes it instead of doubling it.
    const manual = await trx
      .selectFrom('supplier_bills')
      .select(['id', 'paid_bani'])
      .where('company_id', '=', c.companyId)
      .where('supplier_id', '=', supplierId)
      .where('invoice_number', '=', parsed.invoice_number)
      .where('issue_date', '=', parsed.issue_date)
      .where('efactura_message_id', 'is', null)
      .executeTakeFirst();
    let billId: string;
    const billValues = {
      efactura_message_id: messageRowId,
      kind: parsed.kind,
      invoice_type_code: parsed.invoice_type_code,
      due_date: parsed.due_date,
      currency: parsed.currency,
      tax_exclusive_bani: sign(parsed.kind, amounts.tax_exclusive_bani),
      tax_bani: sign(parsed.kind, amounts.tax_bani),
      tax_inclusive_bani: sign(parsed.kind, amounts.tax_inclusive_bani),
      payable_bani: payable,
      order_reference: parsed.order_reference,
      supplier_json: JSON.stringify(party),
      references_json: JSON.stringify(parsed.references),
      updated_at: c.now,
    };
    if (manual) {
      billId = manual.id;
      await trx
        .updateTable('supplier_bills')
        .set({ ...billValues, source: 'spv', status: billStatus(payable, Number(manual.paid_bani)) })
        .where('id', '=', billId)
        .execute();
      await trx.deleteFrom('supplier_bill_lines').where('bill_id', '=', billId).execute();
    } else {
      billId = newId('sbill');
      const inserted = await trx
        .insertInto('supplier_bills')
        .values({
          id: billId,
          company_id: c.companyId,
          work_point_id: c.workPointId,
          supplier_id: supplierId,
          expense_id: null,
          client_id: client?.id ?? null,
          source: 'spv',
          invoice_number: parsed.invoice_number,
          issue_date: parsed.issue_date,
          paid_bani: 0,
          status: billStatus(payable, 0),
          payment_date: null,
          payment_amount_bani: null,
          note: parsed.note,
          created_at: c.now,
          ...billValues,
        })
        .onConflict((oc) => oc.columns(['company_id', 'efactura_message_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
    }
    if (parsed.lines.length) {
      await trx
        .insertInto('supplier_bill_lines')
        .values(
          parsed.lines.map((l, i) => ({
            id: newLineId(),
            bill_id: billId,
            position: i + 1,
            line_id: l.id,
            name: l.name,
            description: l.description,
            quantity_milli: sign(parsed.kind, l.quantity_milli),
            unit_code: l.unit_code,
            unit_price_bani: l.unit_price_bani,
            price_amount: l.price_amount,
            line_net_bani: sign(parsed.kind, l.line_net_bani),
            allowance_bani: sign(parsed.kind, l.allowance_bani),
            charge_bani: sign(parsed.kind, l.charge_bani),
            vat_category: l.vat_category,
            vat_rate_bp: l.vat_rate_bp,
          })),
        )
        .execute();
    }
    return billId;
  });
}

async function importOne(c: ImportContext, anaf: EfacturaClient, m: EfacturaMessage): Promise<{ billId: string | null; error: string | null }> {
  let xml: string;
  let signature: string | null;
  try {
    const answer = await anaf.download(m.id);
    if (answer.kind !== 'invoice') throw new UblParseError('not_ubl', `the message holds a ${answer.kind === 'errors' ? 'error report' : 'buyer message'}, not an invoice`);
    xml = answer.main.xml;
    signature = answer.signature?.xml ?? null;
  } catch (error) {
    // ANAF down is the whole sync's problem; one unreadable ZIP is this message's.
    // A spent daily quota is this message's alone: it is tried again tomorrow, the others go on.
    if (error instanceof AnafError && !error.quota && (error.kind === 'unavailable' || error.kind === 'timeout' || error.kind === 'auth')) throw error;
    const text = error instanceof AnafError ? anafDetail(error) : error instanceof Error ? error.message : String(error);
    await recordFailure(c, m, text);
    return { billId: null, error: text };
  }
  let parsed: ParsedUblInvoice;
  try {
    parsed = parseEInvoice(xml);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // What cannot be read is kept as it came, with the reason: never dropped.
    await recordFailure(c, m, text, { xml, signature });
    return { billId: null, error: text };
  }
  return { billId: await importParsed(c, m, xml, signature, parsed), error: null };
}

/** POST /supplier-bills/sync: lists the received invoices of the last `days` and imports the new ones. */
export async function syncSupplierBills(services: EfacturaServices, c: ImportContext, days: number): Promise<SupplierBillSyncResult> {
  const anaf = requireAnaf(services, 'e-Factura').efactura(c.environment, c.companyId, tokenSource(services));
  const company = await c.db.selectFrom('companies').select('cui').where('id', '=', c.companyId).executeTakeFirstOrThrow();
  const result: SupplierBillSyncResult = {
    object: 'supplier_bill_sync', environment: c.environment, listed: 0, imported: 0, already_imported: 0, failed: 0, bill_ids: [], errors: [], expiring: [], synced_at: c.now,
  };
  const today = todayInBucharest(new Date(c.now * 1000));
  try {
    const messages = await listReceived(anaf, company.cui, days, c.now);
    result.listed = messages.length;
    const done = new Set(
      (
        await c.db
          .selectFrom('efactura_messages')
          .select('message_id')
          .where('company_id', '=', c.companyId)
          .where('environment', '=', c.environment)
          .where('status', '=', 'imported')
          .execute()
      ).map((r) => r.message_id),
    );
    for (const m of messages) {
      if (done.has(m.id)) {
        result.already_imported += 1;
        continue;
      }
      const r = await importOne(c, anaf, m);
      if (r.error) {
        result.failed += 1;
        result.errors.push({ message_id: m.id, error: r.error });
        // ANAF deletes a message after 60 days: one still unread from day 45 is a warning, with its last day.
        const created = /^(\d{4})(\d{2})(\d{2})/.exec(m.data_creare);
        if (created) {
          const day = `${created[1]}-${created[2]}-${created[3]}`;
          const { expires, warnFrom } = spvMessageExpiry(day);
          if (today >= warnFrom) result.expiring!.push({ message_id: m.id, created: day, expires, error: r.error });
        }
      } else if (r.billId) {
        result.imported += 1;
        result.bill_ids.push(r.billId);
      } else {
        result.already_imported += 1;
      }
    }
  } catch (error) {
    throw toApiError(error);
  }
  return result;
}

/**
 * Received invoices ("P") of the last `days`: the one-call list, or the paginated one when ANAF says
 * the window holds more than its 500-message page. The paginated window ends a few seconds before
 * our clock (ANAF refuses an end in its future) and starts a minute inside its 60-day limit.
 */
async function listReceived(anaf: EfacturaClient, cif: string, days: number, now: number): Promise<EfacturaMessage[]> {
  try {
    const list = await anaf.listMessages({ days, cif, filter: 'P' });
    return list.messages;
  } catch (error) {
    if (!(error instanceof AnafError && error.anafMessages.some((m) => /Folositi endpoint-ul cu paginatie/i.test(m)))) throw error;
    const endTime = (now - 10) * 1000;
    const startTime = Math.max(endTime - days * 86_400_000, (now - 60 * 86_400 + 60) * 1000);
    return anaf.listMessagesInRange({ cif, startTime, endTime, filter: 'P' });
  }
}
