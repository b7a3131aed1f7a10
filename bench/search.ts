/**
 * Search as people type, at 100,000 clients of one firm: the time of one GET /clients?search= query
 * (the page and its count, as the route runs them) through the search index, against a scan baseline
 * in the same run: the same fold applied to every row's columns (what a search without the index does).
 * Prints the median per term and the ratio scan / index.
 *
 *   npx tsx bench/search.ts
 *   BENCH_CLIENTS=10000 BENCH_DIALECTS=sqlite npx tsx bench/search.ts
 *
 * The index: an FTS5 trigram table kept by triggers on SQLite, a pg_trgm GIN index on PostgreSQL
 * (server/platform/search.ts). Terms of 1-2 letters read the index's folded text rather than its
 * trigrams, so their figure is listed apart.
 */
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { paginate } from '../server/platform/list';
import { CLIENTS_SEARCH } from '../server/modules/catalog/migrations/0120_catalog_search';
import type { Dialect } from '../server/db/types';
import { createTestStorage } from '../test/support/storage';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[];
const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);

const FIRST = ['Ștefan', 'Ştefan', 'Maria', 'Ioana', 'Andrei', 'Mihai', 'Elena', 'Gheorghe', 'Cătălina', 'Răzvan', 'Țiprian', 'Ana', 'Dragoș', 'Irina', 'Bogdan'];
const LAST = ['Popescu', 'Ionescu', 'Țepeș', 'Dumitrescu', 'Stănescu', 'Georgescu', 'Munteanu', 'Băiaș', 'Constantinescu', 'Șerban', 'Niculescu', 'Vlădescu'];
const CITIES = ['București', 'Brașov', 'Cluj-Napoca', 'Iași', 'Timișoara', 'Constanța', 'Pitești', 'Târgu Mureș', 'Sibiu', 'Oradea'];
const FIRMS = ['Comerț', 'Distribuție', 'Construcții', 'Băcănie', 'Țesătorie', 'Agro', 'Transport', 'Panificație'];

/** What people type: with and without diacritics, any case, part of a word. */
const TERMS = ['ștefan', 'STEFAN', 'popesc', 'tepes', 'brasov', 'TÂRGU MUR', 'panificatie', 'șerban', 'zzz-nimic'];
const SHORT_TERMS = ['șt', 'ia'];

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length]!;
}

async function seed(dialect: Dialect) {
  const test = await createTestStorage(dialect);
  const db = test.storage.db;
  const companyId = 'co_bench';
  await db.insertInto('companies').values({ id: companyId, name: 'Bench SRL', cui: '18547290', created_at: 0 }).execute();
  const batch = 500;
  const started = performance.now();
  for (let from = 0; from < CLIENTS; from += batch) {
    const rows = [];
    for (let i = from; i < Math.min(CLIENTS, from + batch); i++) {
      const company = i % 3 === 0;
      const name = company
        ? `${pick(FIRMS, i * 7)} ${pick(LAST, i * 13)} ${i} SRL`
        : `${pick(FIRST, i * 11)} ${pick(LAST, i * 5)} ${i}`;
      rows.push({
        id: `cli_${i}`, company_id: companyId, type: company ? ('company' as const) : ('person' as const), name, cui: company ? String(10_000_000 + i) : null,
        vat_payer: 0, reg_com: company ? `J40/${i}/2020` : null, cnp: null, address: `Str. Lungă ${i}`, city: pick(CITIES, i * 3),
        county: null, country: 'RO', postal_code: null, email: `client${i}@exemplu.ro`, phone: null, iban: null, bank: null, notes: null,
        client_local_uuid: null, is_deleted: 0, deleted_at: null, created_at: 1_700_000_000 + i, created_on: '2026-11-21', updated_at: null,
      });
    }
    await db.insertInto('clients').values(rows).execute();
  }
  const seedSeconds = (performance.now() - started) / 1000;
  return { test, db, companyId, seedSeconds };
}

async function timeSearch(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  await run(); // warm: plans, caches
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  console.log(`search at ${CLIENTS.toLocaleString('en')} clients; median of ${REPEAT}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const dialect of DIALECTS) {
    const { test, db, companyId, seedSeconds } = await seed(dialect);
    try {
      // Fresh statistics, as autovacuum would have them after such a load.
      if (dialect === 'postgres') await sql`analyze clients`.execute(db);
      console.log(`\n${dialect}: seeded in ${seedSeconds.toFixed(1)} s (index kept up to date on every insert)`);
      console.log('term'.padEnd(16), 'found'.padStart(7), 'index ms'.padStart(10), 'scan ms'.padStart(10), 'scan/index'.padStart(11));
      const base = () => db.selectFrom('clients').selectAll().where('company_id', '=', companyId).where('is_deleted', '=', 0);
      const common = { sortColumns: { created_at: 'created_at' }, defaultSort: 'created_at', tieBreaker: 'id' };
      let indexTotal = 0;
      let scanTotal = 0;
      for (const term of [...TERMS, ...SHORT_TERMS]) {
        const params = { page: 1, per_page: 50, search: term };
        let found = 0;
        const indexed = await timeSearch(async () => {
          found = (await paginate(base(), params, { ...common, searchIndex: { spec: CLIENTS_SEARCH, dialect } })).total;
        });
        let scanned = 0;
        const scan = await timeSearch(async () => {
          scanned = (await paginate(base(), params, { ...common, searchColumns: [...CLIENTS_SEARCH.columns] })).total;
        });
        // Both ways must find the same rows, or the comparison means nothing.
        if (found !== scanned) throw new Error(`"${term}": index found ${found}, scan ${scanned}`);
        if (TERMS.includes(term)) {
          indexTotal += indexed;
          scanTotal += scan;
        }
        const short = SHORT_TERMS.includes(term) ? ' (short)' : '';
        console.log(`${term}${short}`.padEnd(16), String(found).padStart(7), indexed.toFixed(2).padStart(10), scan.toFixed(2).padStart(10), `${(scan / indexed).toFixed(1)}x`.padStart(11));
      }
      console.log(`${dialect}: mean over ${TERMS.length} terms of 3+ letters: index ${(indexTotal / TERMS.length).toFixed(2)} ms, scan ${(scanTotal / TERMS.length).toFixed(2)} ms, ratio ${(scanTotal / indexTotal).toFixed(1)}x`);
    } finally {
      await test.drop();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
