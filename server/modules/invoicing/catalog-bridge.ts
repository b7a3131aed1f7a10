import type { z } from 'zod';
import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import type { zClientCreate } from '../../../shared/schemas/client';
import type { zPartySnapshot } from '../../../shared/schemas/invoice';
import { percentToBp } from '../../../shared/invoice-math';
import type { ClientsTable } from '../catalog/tables';
import {
  addReference, allowedVatRates, findClient as catalogFindClient, insertClient, isCurrencyEnabled, isLanguageEnabled, toClient,
} from '../catalog/lookups';

/**
 * Everything this module takes from the catalog, in one place: clients (the buyer of an invoice,
 * the payer of a receipt), the company's VAT rates, currencies and languages.
 */

export type ClientRow = ClientsTable;
export type PartySnapshot = z.infer<typeof zPartySnapshot>;
export type InlineClientInput = z.output<typeof zClientCreate>;

// A custom VAT rate printed on an invoice line must not be deleted from the catalog.
addReference('vat_rate', { table: 'invoice_lines', column: 'vat_rate_bp' });

/** A client of the company, soft-deleted ones included: an invoice printed offline may name one. */
export async function findClient(db: Db, companyId: string, clientId: string): Promise<ClientRow | undefined> {
  return catalogFindClient(db, companyId, clientId);
}

export async function findClients(db: Db, companyId: string, ids: string[]): Promise<ClientRow[]> {
  if (!ids.length) return [];
  return db.selectFrom('clients').selectAll().where('id', 'in', ids).where('company_id', '=', companyId).execute();
}

export const clientView = toClient;

/**
 * Which of these products of the company are services. A line that names a product and does not say
 * takes the product's flag when it is written; an unknown id is simply not a service (the line keeps
 * its product_id as given, as before).
 */
export async function serviceProductIds(db: Db, companyId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('products').select('id').where('company_id', '=', companyId).where('id', 'in', [...ids]).where('is_service', '=', 1).execute();
  return new Set(rows.map((r) => r.id));
}

/** The buyer as the invoice prints it, frozen at issue. */
export function buyerSnapshot(client: ClientRow): PartySnapshot {
  return {
    name: client.name,
    cui: client.cui,
    vat_payer: Number(client.vat_payer) === 1,
    reg_com: client.reg_com,
    cnp: client.cnp,
    address: client.address,
    city: client.city,
    county: client.county,
    country: client.country,
    iban: client.iban,
    bank: client.bank,
    postal_code: client.postal_code,
  };
}

/** Standard Romanian rates plus the company's custom rates, in basis points. */
export async function allowedVatRatesBp(db: Db, companyId: string): Promise<ReadonlySet<number>> {
  return new Set((await allowedVatRates(db, companyId)).map(percentToBp));
}

/**
 * A client created together with an invoice (counter quick-create), through the catalog's own
 * insert: same identifier checks, and a repeated `client_local_uuid` finds the client already made.
 */
export async function createInlineClient(trx: Db, companyId: string, input: InlineClientInput, now: number, locale: Locale): Promise<ClientRow> {
  const { client } = await insertClient(trx, companyId, input, now, locale);
  return (await catalogFindClient(trx, companyId, client.id))!;
}

export { isCurrencyEnabled, isLanguageEnabled };
