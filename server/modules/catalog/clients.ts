import { z } from 'zod';
import {
  CLIENT_TYPES, resolveClientIdentity, zClient, zClientCreate, zClientUpdate, type Client,
} from '../../../shared/schemas/client';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import { ApiError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { changesListQuery, listPageSchema, mapPage, preparedList } from '../../platform/list';
import type { Locale } from '../../platform/locale';
import { defineRoute } from '../../platform/route';
import { CLIENT_ALIASES } from './aliases';
import type { ClientsTable } from './tables';
import { createdOn, fromFlag, invalidFields, textOrNull, toFlag, zIdParams, zQueryFlag } from './common';
import { zDeleted } from '../../platform/envelope';
import { CLIENTS_SEARCH } from './migrations/0120_catalog_search';
import { emitEvent } from '../webhooks/events';

export function toClient(row: ClientsTable): Client {
  return {
    id: row.id,
    object: 'client',
    type: row.type,
    name: row.name,
    cui: row.cui,
    vat_payer: fromFlag(row.vat_payer),
    reg_com: row.reg_com,
    cnp: row.cnp,
    address: row.address,
    city: row.city,
    county: row.county,
    country: row.country,
    postal_code: row.postal_code,
    email: row.email,
    phone: row.phone,
    iban: row.iban,
    bank: row.bank,
    notes: row.notes,
    client_local_uuid: row.client_local_uuid,
    is_deleted: fromFlag(row.is_deleted),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

// Every invoice issued reads its client: prepared once (see db/prepared.ts).
const clientById = prepared(['companyId', 'id'], (db, p: { companyId: string; id: string }) =>
  db.selectFrom('clients').selectAll().where('company_id', '=', p.companyId).where('id', '=', p.id),
);

/** A client of the company, deleted ones included (an invoice may point at one); undefined when not the company's. */
export async function findClient(db: Db, companyId: string, id: string): Promise<ClientsTable | undefined> {
  return clientById.first(db, { companyId, id });
}

async function findByLocalUuid(db: Db, companyId: string, uuid: string): Promise<ClientsTable | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('client_local_uuid', '=', uuid)
    .executeTakeFirst();
}

export type ClientCreateInput = z.output<typeof zClientCreate>;

/**
 * Creates a client, or returns the one already made with the same `client_local_uuid` (`replayed`).
 * Exported for the invoicing module, whose invoice create may carry a new client. Throws 422
 * `validation_error` with `fields` when the identifiers do not hold.
 */
export async function insertClient(
  db: Db,
  companyId: string,
  input: ClientCreateInput,
  now: number,
  locale: Locale,
): Promise<{ client: Client; replayed: boolean }> {
  if (input.client_local_uuid) {
    const existing = await findByLocalUuid(db, companyId, input.client_local_uuid);
    if (existing) return { client: toClient(existing), replayed: true };
  }
  const identity = resolveClientIdentity(input, { today: createdOn(now) });
  if (!identity.ok) throw invalidFields(identity.fields, locale);
  const row: ClientsTable = {
    id: newId('cli'),
    company_id: companyId,
    type: input.type,
    name: input.name,
    cui: identity.value.cui,
    vat_payer: toFlag(identity.value.vat_payer),
    reg_com: textOrNull(input.reg_com),
    cnp: identity.value.cnp,
    address: textOrNull(input.address),
    city: textOrNull(input.city),
    county: textOrNull(input.county),
    country: input.country,
    postal_code: identity.value.postal_code,
    email: textOrNull(input.email),
    phone: textOrNull(input.phone),
    iban: identity.value.iban,
    bank: identity.value.bank,
    notes: textOrNull(input.notes),
    client_local_uuid: input.client_local_uuid ?? null,
    is_deleted: 0,
    deleted_at: null,
    created_at: now,
    created_on: createdOn(now),
    updated_at: null,
  };
  if (!input.client_local_uuid) {
    await db.insertInto('clients').values(row).execute();
    return created(db, row);
  }
  // Two deliveries of one offline create may race past the lookup above. ON CONFLICT DO NOTHING rather
  // than catching the violation: on PostgreSQL an error would abort a caller's enclosing transaction
  // (the invoicing module creates clients inside its own).
  const inserted = await db
    .insertInto('clients')
    .values(row)
    .onConflict((oc) => oc.columns(['company_id', 'client_local_uuid']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return created(db, row);
  const existing = await findByLocalUuid(db, companyId, input.client_local_uuid);
  if (!existing) throw new Error('client_local_uuid conflict without a row');
  return { client: toClient(existing), replayed: true };
}

/** A client just inserted, announced to webhooks in the caller's transaction (issue 18). */
async function created(db: Db, row: ClientsTable): Promise<{ client: Client; replayed: false }> {
  const client = toClient(row);
  await emitEvent(db, row.company_id, 'client.created', client, row.created_at);
  return { client, replayed: false };
}

const clientListQuery = changesListQuery(['name', 'created_at'] as const).extend({
  type: z.enum(CLIENT_TYPES).optional(),
  include_deleted: zQueryFlag.optional(),
});

/** Compiled once per shape (platform/list.ts): a values-only run per request. */
const clientPage = preparedList(
  (db, p: { companyId: string; notDeleted: number | undefined; type: (typeof CLIENT_TYPES)[number] | undefined }) => {
    let base = db.selectFrom('clients').selectAll().where('company_id', '=', p.companyId);
    if (p.notDeleted !== undefined) base = base.where('is_deleted', '=', p.notDeleted);
    if (p.type !== undefined) base = base.where('type', '=', p.type);
    return base;
  },
  {
    sortColumns: { name: 'name', created_at: 'created_at' },
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    searchIndex: { spec: CLIENTS_SEARCH, dialect: 'sqlite' },
    dateColumn: 'created_on',
    tieBreaker: 'id',
    updatedColumn: 'updated_at',
    createdColumn: 'created_at',
  },
);

export const listClients = defineRoute({
  method: 'GET',
  path: '/clients',
  operationId: 'listClients',
  summary: 'List clients',
  description:
    'The firm’s clients, as a paginated list. `search` matches name, CUI, CNP, registration number, e-mail or city (case-insensitive, ' +
    'anywhere in the text); `sort` is `created_at` (default, newest first) or `name`; `start_date`/`end_date` filter on the creation day ' +
    '(Europe/Bucharest). `type` keeps `company` or `person` clients; deleted clients are left out unless `include_deleted=true`. ' +
    '`updated_since` keeps the clients changed (deleting is a change) at or after that instant; `sort=updated_at` orders by it.',
  tags: ['clients'],
  scope: 'clients:read',
  query: clientListQuery,
  response: listPageSchema(zClient),
  handler: async (ctx) => {
    const page = await clientPage(ctx.db, ctx.dialect, {
      companyId: ctx.companyId, notDeleted: ctx.query.include_deleted ? undefined : 0, type: ctx.query.type || undefined,
    }, ctx.query);
    return mapPage(page, toClient);
  },
});

export const createClient = defineRoute({
  method: 'POST',
  path: '/clients',
  operationId: 'createClient',
  summary: 'Create a client',
  description:
    'A company (`type: company`, default; B2B) or a person (`type: person`; B2C). A Romanian company (`country` RO, default) needs a ' +
    '`cui`, with or without the `RO` prefix, checked with its control digit and stored as digits; `vat_payer` is taken from the `RO` ' +
    'prefix when not given. A foreign company’s `cui` is its VAT or registration number, stored as given (uppercase, no spaces). A ' +
    'person has no `cui` and may have a `cnp`, checked (date, county, control digit). `iban` is checked (Romanian rules for RO IBANs, ' +
    'mod 97 for others) and names the `bank` when it is Romanian and `bank` is not given; a Romanian `postal_code` has 6 digits. ' +
    'With `client_local_uuid` (the desktop app’s offline id) the create is safe to repeat: the same uuid again answers the client ' +
    'created first (200 instead of 201, same id, header `Idempotent-Replayed: true`), whatever the body.',
  tags: ['clients'],
  scope: 'clients:write',
  create: true,
  body: zClientCreate,
  aliases: { body: CLIENT_ALIASES },
  response: zClient,
  handler: async (ctx) => {
    // A transaction, so the client and its webhook event commit together.
    const { client, replayed } = await ctx.db.transaction().execute((trx) => insertClient(trx, ctx.companyId, ctx.body, ctx.now, ctx.locale));
    if (replayed) ctx.replayed();
    return client;
  },
});

async function requireClient(db: Db, companyId: string, id: string): Promise<ClientsTable> {
  const row = await findClient(db, companyId, id);
  if (!row) throw notFound('id');
  return row;
}

export const getClient = defineRoute({
  method: 'GET',
  path: '/clients/:id',
  operationId: 'getClient',
  summary: 'Retrieve a client',
  description: 'A client of the firm, deleted ones included (`is_deleted: true`): invoices keep pointing at them. Another firm’s client answers 404.',
  tags: ['clients'],
  scope: 'clients:read',
  params: zIdParams,
  response: zClient,
  errors: { resource_missing: 404 },
  handler: async (ctx) => toClient(await requireClient(ctx.db, ctx.companyId, ctx.params.id)),
});

export const updateClient = defineRoute({
  method: 'PUT',
  path: '/clients/:id',
  operationId: 'updateClient',
  summary: 'Update a client',
  description:
    'Members sent change; omitted members keep their values; `null` (or an empty string) clears an optional member. The identifier ' +
    'rules of the create are checked again over the resulting client (changing `type` to `person` needs `cui: null`). When `cui` ' +
    '(or `type`) changes without `vat_payer`, `vat_payer` is derived again; when `iban` changes without `bank`, the bank is named ' +
    'again from a Romanian IBAN. 409 `resource_deleted` for a deleted client. `client_local_uuid` cannot change.',
  tags: ['clients'],
  scope: 'clients:write',
  params: zIdParams,
  body: zClientUpdate,
  aliases: { body: CLIENT_ALIASES },
  response: zClient,
  errors: { resource_missing: 404, resource_deleted: 409 },
  handler: async (ctx) => {
    const row = await requireClient(ctx.db, ctx.companyId, ctx.params.id);
    if (fromFlag(row.is_deleted)) throw new ApiError(409, 'invalid_request_error', 'resource_deleted', { param: 'id' });
    const b = ctx.body;
    // Omitted keeps the stored value; null or '' clears it.
    const keep = (sent: string | null | undefined, stored: string | null) => (sent === undefined ? stored : textOrNull(sent));
    const type = b.type ?? row.type;
    const country = b.country ?? row.country;
    const identity = resolveClientIdentity(
      {
        type,
        country,
        cui: b.cui === undefined ? row.cui : b.cui,
        cnp: b.cnp === undefined ? row.cnp : b.cnp,
        // A new CUI or type tells its own VAT status unless the caller says it; otherwise the stored one stands.
        vat_payer: b.vat_payer ?? (b.cui !== undefined || type !== row.type ? undefined : fromFlag(row.vat_payer)),
        iban: b.iban === undefined ? row.iban : b.iban,
        bank: b.bank !== undefined ? b.bank : b.iban !== undefined ? undefined : row.bank,
        postal_code: b.postal_code === undefined ? row.postal_code : b.postal_code,
      },
      { today: createdOn(ctx.now) },
    );
    if (!identity.ok) throw invalidFields(identity.fields, ctx.locale);
    const next: ClientsTable = {
      ...row,
      type,
      name: b.name ?? row.name,
      cui: identity.value.cui,
      vat_payer: toFlag(identity.value.vat_payer),
      reg_com: keep(b.reg_com, row.reg_com),
      cnp: identity.value.cnp,
      address: keep(b.address, row.address),
      city: keep(b.city, row.city),
      county: keep(b.county, row.county),
      country,
      postal_code: identity.value.postal_code,
      email: keep(b.email, row.email),
      phone: keep(b.phone, row.phone),
      iban: identity.value.iban,
      bank: identity.value.bank,
      notes: keep(b.notes, row.notes),
      updated_at: ctx.now,
    };
    const { id: _id, company_id: _company, client_local_uuid: _uuid, created_at: _created, created_on: _on, ...changes } = next;
    const client = toClient(next);
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('clients').set(changes).where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
      await emitEvent(trx, ctx.companyId, 'client.updated', client, ctx.now);
    });
    return client;
  },
});

export const deleteClient = defineRoute({
  method: 'DELETE',
  path: '/clients/:id',
  operationId: 'deleteClient',
  summary: 'Delete a client',
  description:
    'A soft delete: the client leaves the list and refuses updates, but stays readable by id with `is_deleted: true`, because ' +
    'invoices, receipts and payments keep pointing at it (a client is never refused for being in use). Answers at top level ' +
    '`{ success: true, object: "client", id, deleted: true }`; deleting a deleted client answers the same (safe to repeat).',
  tags: ['clients'],
  scope: 'clients:write',
  params: zIdParams,
  response: zDeleted('client'),
  envelope: 'top',
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await requireClient(ctx.db, ctx.companyId, ctx.params.id);
    if (!fromFlag(row.is_deleted)) {
      await ctx.db
        .updateTable('clients')
        .set({ is_deleted: 1, deleted_at: ctx.now, updated_at: ctx.now })
        .where('company_id', '=', ctx.companyId)
        .where('id', '=', row.id)
        .execute();
    }
    return { object: 'client' as const, id: row.id, deleted: true as const };
  },
});

export const clientRoutes = [listClients, createClient, getClient, updateClient, deleteClient];
