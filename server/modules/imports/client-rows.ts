import { z } from 'zod';
import { resolveClientIdentity, zClientCreate, type ClientType } from '../../../shared/schemas/client';
import { validateCnp } from '../../../shared/ro/cnp';
import type { ClientsTable } from '../catalog/tables';
import { fromFlag, textOrNull, toFlag } from '../catalog/common';
import { fieldsFromZod } from '../../platform/zod-fields';
import { cellText, parseFlag } from './cell-values';
import type { Cell, Grid } from './file-reader';
import { cellOf, problem, type EvaluatedRow, type Mapping, type RowProblem } from './rows';

/** A client row, checked by the very rules of POST /clients (shared schema and identity checks). */
export interface ClientCandidate {
  type: ClientType;
  name: string;
  /** The row's country, or the import's default (RO): what a new client gets. */
  country: string;
  cui: string | null;
  cnp: string | null;
  vat_payer: boolean;
  /** Members the file gives (an update changes only these), normalized. */
  given: Partial<Pick<ClientsTable, 'reg_com' | 'address' | 'city' | 'county' | 'country' | 'postal_code' | 'email' | 'phone' | 'iban' | 'bank' | 'notes'>>;
  /** Whether the file said the VAT status (column mapped and filled, or an RO prefix on the CUI). */
  vat_payer_given: boolean;
}

export interface ClientContext {
  today: string;
  defaults: { country?: string | undefined };
  byCui: ReadonlyMap<string, ClientsTable>;
  byCnp: ReadonlyMap<string, ClientsTable>;
  byNamePerson: ReadonlyMap<string, ClientsTable>;
}

const nameKey = (name: string) => name.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');

/** The firm's clients not deleted, to match rows: by CUI, by CNP, and persons without a CNP by name. */
export function indexClients(rows: readonly ClientsTable[]) {
  const byCui = new Map<string, ClientsTable>();
  const byCnp = new Map<string, ClientsTable>();
  const byNamePerson = new Map<string, ClientsTable>();
  // Oldest first: when a firm has the same CUI twice already, the first one made is the one updated.
  for (const c of [...rows].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))) {
    if (c.type === 'company' && c.cui !== null && !byCui.has(c.cui)) byCui.set(c.cui, c);
    if (c.type === 'person' && c.cnp !== null && !byCnp.has(c.cnp)) byCnp.set(c.cnp, c);
    if (c.type === 'person' && c.cnp === null && !byNamePerson.has(nameKey(c.name))) byNamePerson.set(nameKey(c.name), c);
  }
  return { byCui, byCnp, byNamePerson };
}

const TEXT_MEMBERS = ['reg_com', 'address', 'city', 'county', 'postal_code', 'email', 'phone', 'iban', 'bank', 'notes'] as const;

export function evaluateClients(grid: Grid, mapping: Mapping, ctx: ClientContext): EvaluatedRow<ClientCandidate, ClientsTable>[] {
  const header = (target: string) => {
    const index = mapping[target];
    return index === undefined || index === null ? null : (grid.headers[index] ?? null);
  };
  const has = (target: string) => mapping[target] !== undefined && mapping[target] !== null;
  const seen = new Map<string, number>();

  return grid.rows.map((gridRow) => {
    const problems: RowProblem[] = [];
    const cell = (target: string): Cell => cellOf(gridRow, mapping, target);
    const text = (target: string) => (has(target) ? cellText(cell(target)) : null);
    const fail = (target: string | null, message: string) => problems.push(problem(target, target ? header(target) : null, message));

    const name = text('name');
    if (!has('name')) fail(null, 'No column is mapped to the name|Nicio coloană nu este aleasă pentru denumire');
    else if (name === null) fail('name', 'The name is missing|Denumirea lipsește');

    let cui = text('cui');
    let cnp = text('cnp');
    // "CUI/CNP" columns hold both: 13 digits that make a valid CNP are a person's.
    if (cui !== null && cnp === null && /^\d{13}$/.test(cui.replace(/\s+/g, '')) && validateCnp(cui.replace(/\s+/g, ''), { today: ctx.today }).ok) {
      cnp = cui.replace(/\s+/g, '');
      cui = null;
    }
    const country = (text('country') ?? ctx.defaults.country ?? 'RO').toUpperCase();
    // A row with a CUI is a company; without one, a person (B2C), with or without a CNP.
    const type: ClientType = cui !== null ? 'company' : 'person';

    let vatPayer: boolean | undefined;
    if (has('vat_payer')) {
      const parsed = parseFlag(cell('vat_payer'));
      if (parsed.ok) vatPayer = parsed.value ?? undefined;
      else fail('vat_payer', parsed.message);
    }

    const input: Record<string, unknown> = { type, name: name ?? '', country, cui, cnp };
    if (vatPayer !== undefined) input.vat_payer = vatPayer;
    for (const member of TEXT_MEMBERS) {
      const value = text(member);
      if (value !== null) input[member] = value;
    }
    const email = text('email');
    if (email !== null && !z.email().safeParse(email).success) {
      fail('email', `“${email}” is not an e-mail address|„${email}” nu este o adresă de e-mail`);
      delete input.email;
    }
    const shape = zClientCreate.safeParse(input);
    if (!shape.success) {
      const en = fieldsFromZod(shape.error, 'en');
      const ro = fieldsFromZod(shape.error, 'ro');
      for (const [member, message] of Object.entries(en)) {
        if (member === 'name' && name === null) continue;
        const target = member === 'country' && !has('country') ? null : member;
        fail(target, `${message}|${ro[member] ?? message}`);
      }
    }
    const identity = resolveClientIdentity(
      { type, country, cui, cnp, vat_payer: vatPayer, iban: text('iban'), bank: text('bank'), postal_code: text('postal_code') },
      { today: ctx.today },
    );
    if (!identity.ok) for (const [member, message] of Object.entries(identity.fields)) fail(member, message);

    if (problems.length || !identity.ok || !shape.success || name === null) {
      return { row: gridRow.row, problems, candidate: null, match: null };
    }

    const id = identity.value;
    const key = id.cui !== null ? `cui:${id.cui}` : id.cnp !== null ? `cnp:${id.cnp}` : `name:${nameKey(name)}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const what = id.cui !== null ? `The CUI ${id.cui}|CUI-ul ${id.cui}` : id.cnp !== null ? `The CNP ${id.cnp}|CNP-ul ${id.cnp}` : null;
      if (what) {
        const [en, ro] = what.split('|');
        fail(id.cui !== null ? 'cui' : 'cnp', `${en} is already on row ${first}|${ro} apare deja pe rândul ${first}`);
      } else {
        fail('name', `A person named “${name}” without a CNP is already on row ${first}|Persoana „${name}” fără CNP apare deja pe rândul ${first}`);
      }
      return { row: gridRow.row, problems, candidate: null, match: null };
    }
    seen.set(key, gridRow.row);

    const given: ClientCandidate['given'] = {};
    for (const member of TEXT_MEMBERS) {
      if (text(member) === null) continue;
      if (member === 'iban') given.iban = id.iban;
      else if (member === 'postal_code') given.postal_code = id.postal_code;
      else if (member === 'email') given.email = textOrNull(text('email'));
      else given[member] = text(member);
    }
    // A Romanian IBAN names its bank when the file does not.
    if (given.iban && !given.bank && id.bank) given.bank = id.bank;
    if (has('country') && text('country') !== null) given.country = country;

    const candidate: ClientCandidate = {
      type, name, country, cui: id.cui, cnp: id.cnp, vat_payer: id.vat_payer,
      given,
      vat_payer_given: vatPayer !== undefined || (cui !== null && /^\s*ro/i.test(cui)),
    };
    const match = id.cui !== null ? ctx.byCui.get(id.cui) : id.cnp !== null ? ctx.byCnp.get(id.cnp) : ctx.byNamePerson.get(nameKey(name));
    return { row: gridRow.row, problems, candidate, match: match ?? null };
  });
}

export function clientRow(
  c: ClientCandidate,
  base: ClientsTable | null,
  fresh: { id: string; companyId: string; now: number; createdOn: string },
): ClientsTable {
  const g = c.given;
  if (base === null) {
    return {
      id: fresh.id, company_id: fresh.companyId, type: c.type, name: c.name, cui: c.cui, vat_payer: toFlag(c.vat_payer),
      reg_com: g.reg_com ?? null, cnp: c.cnp, address: g.address ?? null, city: g.city ?? null, county: g.county ?? null,
      country: c.country, postal_code: g.postal_code ?? null, email: g.email ?? null, phone: g.phone ?? null,
      iban: g.iban ?? null, bank: g.bank ?? null, notes: g.notes ?? null, client_local_uuid: null, is_deleted: 0, deleted_at: null,
      created_at: fresh.now, created_on: fresh.createdOn, updated_at: null,
    };
  }
  return {
    ...base,
    name: c.name,
    vat_payer: c.vat_payer_given ? toFlag(c.vat_payer) : base.vat_payer,
    reg_com: g.reg_com ?? base.reg_com,
    address: g.address ?? base.address,
    city: g.city ?? base.city,
    county: g.county ?? base.county,
    country: g.country ?? base.country,
    postal_code: g.postal_code ?? base.postal_code,
    email: g.email ?? base.email,
    phone: g.phone ?? base.phone,
    iban: g.iban ?? base.iban,
    bank: g.bank ?? (g.iban ? null : base.bank),
    notes: g.notes ?? base.notes,
  };
}

const COMPARED = ['name', 'reg_com', 'address', 'city', 'county', 'country', 'postal_code', 'email', 'phone', 'iban', 'bank', 'notes'] as const;

export function clientChanged(a: ClientsTable, b: ClientsTable): boolean {
  return COMPARED.some((m) => a[m] !== b[m]) || fromFlag(a.vat_payer) !== fromFlag(b.vat_payer);
}

export function clientPreview(row: ClientsTable): Record<string, string | number | boolean | null> {
  return {
    type: row.type, name: row.name, cui: row.cui, cnp: row.cnp, vat_payer: fromFlag(row.vat_payer), reg_com: row.reg_com,
    address: row.address, city: row.city, county: row.county, country: row.country, postal_code: row.postal_code,
    email: row.email, phone: row.phone, iban: row.iban, bank: row.bank, notes: row.notes,
  };
}
