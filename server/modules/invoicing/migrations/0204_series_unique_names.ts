import { sql, type Kysely } from 'kysely';

interface SeriesName {
  id: string;
  company_id: string;
  kind: string;
  name: string;
  created_at: number | string;
}

// A firm's printed numbers must be unique (Romanian invoicing), and the series name is printed in
// each: two receipt series `CH` both print `CH-1`, two invoice series `FCT` with one format print the
// same invoice numbers. So a name is unique per firm (at all its work points: numbering is the firm's)
// and kind (an invoice series and a receipt series may share one), ignoring case, as the API checks.
//
// Databases from before this rule may hold duplicates, on which creating the index would fail. Of each
// group, the oldest series (created_at, then id) keeps its name; the others are renamed first, in that
// order, to the first free `<name>-2`, `<name>-3`… (invoice series) or `<name>2`, `<name>3`… (receipt
// series, whose prefix is letters and digits only). What they printed stays printed as it was
// (invoices and receipts store their numbers); their next numbers carry the new name, so no number
// repeats from now on. The rows are ordered in JavaScript so that both dialects rename the same ones.
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<SeriesName>`select id, company_id, kind, name, created_at from number_series`.execute(db);
  rows.sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const namespace = (s: SeriesName) => `${s.company_id}\u0000${s.kind}`;
  const taken = new Map<string, Set<string>>();
  for (const s of rows) {
    const names = taken.get(namespace(s)) ?? new Set<string>();
    names.add(s.name.toLowerCase());
    taken.set(namespace(s), names);
  }
  const kept = new Set<string>();
  const now = Math.floor(Date.now() / 1000);
  for (const s of rows) {
    const key = `${namespace(s)}\u0000${s.name.toLowerCase()}`;
    if (!kept.has(key)) {
      kept.add(key);
      continue;
    }
    const names = taken.get(namespace(s))!;
    const separator = s.kind === 'receipt' ? '' : '-';
    let n = 2;
    while (names.has(`${s.name}${separator}${n}`.toLowerCase())) n++;
    const renamed = `${s.name}${separator}${n}`;
    names.add(renamed.toLowerCase());
    await sql`update number_series set name = ${renamed}, updated_at = ${now} where id = ${s.id}`.execute(db);
  }

  await db.schema
    .createIndex('number_series_unique_name')
    .on('number_series')
    .unique()
    .columns(['company_id', 'kind'])
    .expression(sql`(lower(name))`)
    .execute();
}
