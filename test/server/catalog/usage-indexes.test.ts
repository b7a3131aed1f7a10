import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import '../../../server/modules/index';
import { referencesOf, type ReferenceKind } from '../../../server/modules/catalog/references';
import { createTestStorage, DIALECTS, type TestStorage } from '../../support/storage';

/**
 * `is_used` of a currency or a VAT rate, and the refusal to disable one in use, probe every table
 * that may point at it. Each probe must be an index search on (company_id, value): a scan made
 * GET /currencies read all of a firm's invoices (317 ms at 100,000 on SQLite, bench/catalog-usage.ts).
 */
describe.each(DIALECTS)('usage probes on %s', (dialect) => {
  let t: TestStorage;
  beforeAll(async () => {
    t = await createTestStorage(dialect);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const kinds: ReferenceKind[] = ['currency', 'vat_rate'];
  it('are index searches, never scans, for every table that may point at an entry', async () => {
    const db = t.storage.db;
    const probes = kinds.flatMap((kind) => referencesOf(kind).map((ref) => ({ kind, ...ref })));
    // The documents' tables are among them: the invoicing module registered its lines.
    expect(probes.map((p) => `${p.table}.${p.column}`)).toEqual(
      expect.arrayContaining(['invoices.currency', 'payments.currency', 'receipts.currency', 'products.currency', 'invoice_lines.vat_rate_bp']),
    );
    for (const p of probes) {
      const value = p.kind === 'currency' ? 'EUR' : 2100;
      const probe = sql`select 1 from ${sql.table(p.table)} where company_id = ${'cmp_x'} and ${sql.ref(p.column)} = ${value} limit 1`;
      let plan: string;
      if (dialect === 'sqlite') {
        const rows = await sql<{ detail: string }>`explain query plan ${probe}`.execute(db);
        plan = rows.rows.map((r) => r.detail).join('\n');
        expect(plan, `${p.table}.${p.column}`).toMatch(new RegExp(`SEARCH ${p.table} USING (COVERING )?INDEX \\S+ \\(company_id=\\? AND ${p.column}=\\?\\)`));
      } else {
        // On tables this small the planner's choice says nothing (any index on company_id, or a scan):
        // the index whose leading columns are (company_id, value) is what a large table's plan uses.
        const rows = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename = ${p.table}`.execute(db);
        plan = rows.rows.map((r) => r.indexdef).join('\n');
        expect(plan, `${p.table}.${p.column}`).toMatch(new RegExp(`\\(company_id, ${p.column}[,)]`));
      }
    }
  });
});
