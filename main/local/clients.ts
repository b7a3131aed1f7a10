import type { z } from 'zod';
import type { ClientView, zClientInput } from '../../shared/ipc/contract';
import { resolveClientIdentity, type ClientIdentity, type ClientIdentityInput, type zClientUpdate } from '../../shared/schemas/client';
import type { ClientRow } from '../db/rows';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { invalidInput, invalidState, notFound } from '../errors';
import { enqueue, isMutable, openItemsOf, rewrite } from '../sync/outbox';
import { foldForSearch } from '../../shared/text/search-fold';
import type { LocalContext } from './context';
import { likePattern, recordSync, recordSyncs } from './records';

type ClientInput = z.output<typeof zClientInput>;
type ClientPatch = z.output<typeof zClientUpdate>;

const EDITABLE = [
  'type', 'name', 'cui', 'vat_payer', 'reg_com', 'cnp', 'address', 'city', 'county', 'country',
  'postal_code', 'email', 'phone', 'iban', 'bank', 'notes',
] as const;

/**
 * The same identity rules the server applies (shared/schemas/client), so a client made offline does
 * not fail at sync; the normalized identifiers are what is stored and sent.
 */
function checkIdentity(ctx: LocalContext, client: ClientIdentityInput): ClientIdentity {
  const result = resolveClientIdentity(client, { today: ctx.today() });
  if (!result.ok) throw invalidInput(result.fields);
  return result.value;
}

function wireBody(row: ClientRow): Record<string, unknown> {
  return {
    type: row.type, name: row.name, cui: row.cui, vat_payer: row.vat_payer === 1, reg_com: row.reg_com, cnp: row.cnp,
    address: row.address, city: row.city, county: row.county, country: row.country, postal_code: row.postal_code,
    email: row.email, phone: row.phone, iban: row.iban, bank: row.bank, notes: row.notes,
  };
}

export function getClientRow(db: ReadDb, id: string): ClientRow | undefined {
  return db.get<ClientRow>(sql`SELECT * FROM clients WHERE id = ${id} AND is_deleted = 0`);
}

export function clientView(db: ReadDb, row: ClientRow): ClientView {
  return toView(row, recordSync(db, 'client', row));
}

function toView(row: ClientRow, sync: ClientView['sync']): ClientView {
  return {
    id: row.id, type: row.type, name: row.name, cui: row.cui, vat_payer: row.vat_payer === 1, reg_com: row.reg_com,
    cnp: row.cnp, address: row.address, city: row.city, county: row.county, country: row.country,
    postal_code: row.postal_code, email: row.email, phone: row.phone, iban: row.iban, bank: row.bank, notes: row.notes,
    created_at: row.created_at, updated_at: row.updated_at, sync,
  };
}

export function createClient(ctx: LocalContext, input: ClientInput): ClientView {
  const fixed = checkIdentity(ctx, input);
  const id = ctx.uuid();
  const now = ctx.clock.now();
  return ctx.store.write((db) => {
    db.run(sql`INSERT INTO clients (id, server_id, client_local_uuid, type, name, cui, vat_payer, reg_com, cnp, address, city,
               county, country, postal_code, email, phone, iban, bank, notes, created_at, updated_at)
               VALUES (${id}, NULL, ${id}, ${input.type}, ${input.name}, ${fixed.cui}, ${fixed.vat_payer},
               ${input.reg_com ?? null}, ${fixed.cnp}, ${input.address ?? null}, ${input.city ?? null}, ${input.county ?? null},
               ${input.country}, ${fixed.postal_code}, ${input.email ?? null}, ${input.phone ?? null},
               ${fixed.iban}, ${fixed.bank}, ${input.notes ?? null}, ${now}, ${now})`);
    const row = getClientRow(db, id)!;
    enqueue(db, ctx, {
      kind: 'client.create',
      entityType: 'client',
      entityId: id,
      request: { method: 'POST', path: '/clients', body: { ...wireBody(row), client_local_uuid: id }, create: true, refs: [], label: `Client ${row.name}` },
    });
    return clientView(db, row);
  });
}

export function updateClient(ctx: LocalContext, id: string, patch: ClientPatch): ClientView {
  const now = ctx.clock.now();
  return ctx.store.write((db) => {
    const before = getClientRow(db, id);
    if (!before) throw notFound('Client');
    const pick = <K extends keyof ClientPatch>(key: K, current: ClientRow[K & keyof ClientRow]) =>
      (patch[key] !== undefined ? patch[key] : current) as ClientRow[K & keyof ClientRow];
    const type = pick('type', before.type);
    const country = pick('country', before.country);
    const fixed = checkIdentity(ctx, {
      type, country, cui: pick('cui', before.cui), cnp: pick('cnp', before.cnp),
      vat_payer: patch.vat_payer ?? (patch.cui !== undefined ? undefined : before.vat_payer === 1),
      iban: pick('iban', before.iban), bank: patch.bank !== undefined ? patch.bank : patch.iban !== undefined ? undefined : before.bank,
      postal_code: pick('postal_code', before.postal_code),
    });
    db.run(sql`UPDATE clients SET type = ${type}, name = ${pick('name', before.name)}, cui = ${fixed.cui}, vat_payer = ${fixed.vat_payer},
               reg_com = ${pick('reg_com', before.reg_com)}, cnp = ${fixed.cnp}, address = ${pick('address', before.address)},
               city = ${pick('city', before.city)}, county = ${pick('county', before.county)}, country = ${country},
               postal_code = ${fixed.postal_code}, email = ${pick('email', before.email)}, phone = ${pick('phone', before.phone)},
               iban = ${fixed.iban}, bank = ${fixed.bank}, notes = ${pick('notes', before.notes)}, updated_at = ${now}
               WHERE id = ${id}`);
    const row = getClientRow(db, id)!;
    queueClientChange(db, ctx, row, patch);
    return clientView(db, row);
  });
}

/**
 * An edit is folded into the create or update still waiting unsent; otherwise it becomes its own
 * update, which waits for the create when that is already on its way.
 */
function queueClientChange(db: WriteDb, ctx: LocalContext, row: ClientRow, patch: ClientPatch): void {
  const open = openItemsOf(db, 'client', row.id);
  const create = open.find((i) => i.kind === 'client.create');
  if (create && isMutable(create)) {
    rewrite(db, ctx, create.id, { ...create.request, body: { ...wireBody(row), client_local_uuid: row.client_local_uuid ?? row.id }, label: `Client ${row.name}` });
    return;
  }
  const sent: Record<string, unknown> = {};
  for (const key of EDITABLE) if (patch[key] !== undefined) sent[key] = (wireBody(row) as Record<string, unknown>)[key];
  const lastUpdate = [...open].reverse().find((i) => i.kind === 'client.update');
  if (lastUpdate && isMutable(lastUpdate)) {
    rewrite(db, ctx, lastUpdate.id, { ...lastUpdate.request, body: { ...(lastUpdate.request.body as object), ...sent } });
    return;
  }
  if (Object.keys(sent).length === 0) return;
  enqueue(db, ctx, {
    kind: 'client.update',
    entityType: 'client',
    entityId: row.id,
    request: { method: 'PUT', path: '/clients/:id', body: sent, create: false, refs: [{ at: ':id', type: 'client', id: row.id }], label: `Client ${row.name}` },
  });
}

export function getClient(ctx: LocalContext, id: string): ClientView {
  const db = ctx.store.reader;
  const row = getClientRow(db, id);
  if (!row) throw notFound('Client');
  return clientView(db, row);
}

export function listClients(ctx: LocalContext, input: { search?: string | undefined; limit: number; offset: number }): { items: ClientView[]; total: number } {
  return ctx.store.snapshot((db) => {
    // Name and CUI folded like the stored column (migration 0010): "stefan" finds "Ștefan" and "Ştefan".
    const term = foldForSearch(input.search);
    const where = term ? sql`is_deleted = 0 AND search_text LIKE ${likePattern(term)} ESCAPE '\\'` : sql`is_deleted = 0`;
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM clients WHERE ${where}`)?.n ?? 0;
    const rows = db.all<ClientRow>(sql`SELECT * FROM clients WHERE ${where} ORDER BY name COLLATE NOCASE, id LIMIT ${input.limit} OFFSET ${input.offset}`);
    const syncs = recordSyncs(db, 'client', rows);
    return { items: rows.map((r) => toView(r, syncs.get(r.id)!)), total };
  });
}

/** The buyer as printed on an invoice issued now. */
export function buyerSnapshot(row: ClientRow) {
  return {
    name: row.name, cui: row.cui, vat_payer: row.vat_payer === 1, reg_com: row.reg_com, cnp: row.cnp, address: row.address,
    city: row.city, county: row.county, country: row.country, iban: row.iban, bank: row.bank, postal_code: row.postal_code,
  };
}

export function assertClientUsable(db: ReadDb, id: string): ClientRow {
  const row = getClientRow(db, id);
  if (!row) throw invalidInput({ client_id: 'Unknown client|Client necunoscut' });
  if (row.is_deleted) throw invalidState('The client was deleted');
  return row;
}
