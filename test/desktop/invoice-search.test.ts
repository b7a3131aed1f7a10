import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../main/db/migrate';
import { MIGRATIONS } from '../../main/db/migrations/index';
import { sql } from '../../main/db/sql';
import { Store } from '../../main/db/store';
import { foldForSearch } from '../../shared/text/search-fold';
import { APP_SENDER, LINE, openDevice, removeTempDirs } from './support/harness';

/**
 * The invoice list's search column (migration 0006): folded text, kept by triggers on every write
 * path, used by `invoices.list`; and the host rule that an invoice is never issued without a buyer.
 */
const dirs: string[] = [];
function freshStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-search-'));
  dirs.push(dir);
  return new Store({ path: join(dir, 'db.sqlite') });
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  removeTempDirs();
});

const insertInvoice = (id: string, fullNumber: string | null, buyerName: string | null, clientId: string | null, date = '2026-11-01') =>
  sql`INSERT INTO invoices (id, document_type, status, full_number, issue_date, client_id, buyer, net_bani, vat_bani, total_bani, vat_breakdown, created_at, updated_at)
      VALUES (${id}, 'fiscal', ${fullNumber ? 'issued' : 'draft'}, ${fullNumber}, ${date}, ${clientId}, ${buyerName ? JSON.stringify({ name: buyerName }) : null},
      100, 21, 121, '[]', 1, 1)`;

describe('folding', () => {
  it('lower-cases, drops diacritics of both Romanian spellings, squeezes spaces', () => {
    expect(foldForSearch('  Ştefăneşti   ȘTEFĂNEȘTI Ţară Țară Înalt Âmbră ')).toBe('stefanesti stefanesti tara tara inalt ambra');
    expect(foldForSearch(null)).toBe('');
  });
});

describe('migrations 0005 and 0006', () => {
  it('0005: the supplier register; expenses keep their server id and paid date; bills know their supplier', () => {
    const store = freshStore();
    migrate(store, MIGRATIONS.slice(0, 4));
    store.write((db) => {
      db.run(sql`INSERT INTO expenses (id, reference, total_bani, currency, date, status, supplier_id, data) VALUES
                 ('exp_1', 'A', 100, 'RON', '2026-11-01', 'paid', 'sup_1', ${JSON.stringify({ paid_date: '2026-11-02' })})`);
      db.run(sql`INSERT INTO supplier_bills (id, invoice_number, supplier_name, currency, tax_inclusive_bani, unpaid_bani, status, data) VALUES
                 ('sb_1', 'F-1', 'Furnizor', 'RON', 121, 121, 'unpaid', ${JSON.stringify({ supplier_id: 'sup_1' })})`);
    });
    expect(migrate(store, MIGRATIONS.slice(0, 5))).toEqual([5]);
    expect(store.reader.get(sql`SELECT server_id, paid_date FROM expenses`)).toEqual({ server_id: 'exp_1', paid_date: '2026-11-02' });
    expect(store.reader.get(sql`SELECT supplier_id FROM supplier_bills`)).toEqual({ supplier_id: 'sup_1' });
    expect(store.reader.get(sql`SELECT strict FROM pragma_table_list WHERE name = 'suppliers'`)).toEqual({ strict: 1 });
    expect(() => store.write((db) => db.run(sql`INSERT INTO expenses (id, server_id, total_bani, currency, date, status, data) VALUES ('x', 'exp_1', 1, 'RON', '2026-11-01', 'unpaid', '{}')`))).toThrow(/UNIQUE/);
    store.close();
  });

  it('0006: fills the column for invoices already there, then keeps it through inserts, updates and client renames', () => {
    const store = freshStore();
    migrate(store, MIGRATIONS.slice(0, 5));
    store.write((db) => {
      db.run(sql`INSERT INTO clients (id, type, name, created_at, updated_at) VALUES ('cli_1', 'company', 'Ştefăneşti Comerţ SRL', 1, 1)`);
      db.run(insertInvoice('inv_old', 'TJ-2026-0001', 'Dunărea Market SRL', null));
      db.run(insertInvoice('inv_draft', null, null, 'cli_1'));
    });
    expect(migrate(store, MIGRATIONS.slice(0, 6))).toEqual([6]);
    migrate(store, MIGRATIONS);
    const text = (id: string) => store.reader.get<{ search_text: string }>(sql`SELECT search_text FROM invoices WHERE id = ${id}`)?.search_text;
    expect(text('inv_old')).toBe('tj-2026-0001 dunarea market srl');
    expect(text('inv_draft')).toBe('stefanesti comert srl');
    store.write((db) => {
      db.run(insertInvoice('inv_new', 'TJ-2026-0002', 'Făgetul Construct', null));
      db.run(sql`UPDATE clients SET name = 'Ștefănești Distribuție SRL' WHERE id = 'cli_1'`);
    });
    expect(text('inv_new')).toBe('tj-2026-0002 fagetul construct');
    expect(text('inv_draft')).toBe('stefanesti distributie srl');
    // Issued: the buyer snapshot and the number replace the client's current name.
    store.write((db) => db.run(sql`UPDATE invoices SET full_number = 'TJ-2026-0003', buyer = ${JSON.stringify({ name: 'Ștefănești Distribuție SRL' })} WHERE id = 'inv_draft'`));
    store.write((db) => db.run(sql`UPDATE clients SET name = 'Alt Nume' WHERE id = 'cli_1'`));
    expect(text('inv_draft')).toBe('tj-2026-0003 stefanesti distributie srl');
    store.close();
  });

  it('0006: a fresh device gets planner statistics that keep a status filter on its own index', () => {
    const store = freshStore();
    migrate(store);
    const plan = (query: string) => store.raw.prepare(`EXPLAIN QUERY PLAN ${query}`).all().map((r) => (r as { detail: string }).detail).join(' | ');
    expect(plan(`SELECT COUNT(*) FROM invoices i WHERE i.is_deleted = 0 AND i.status = 'storno'`)).toContain('invoices_status');
    expect(plan(`SELECT * FROM invoices i WHERE i.is_deleted = 0 ORDER BY i.issue_date DESC, i.created_at DESC, i.id DESC LIMIT 200 OFFSET 50000`)).toContain('invoices_list_order');
    expect(plan(`SELECT COUNT(*) FROM invoices i WHERE i.is_deleted = 0 AND i.search_text LIKE '%x%'`)).toContain('COVERING INDEX invoices_search');
    store.close();
  });
});

describe('invoices.list search and the host rule', () => {
  it('finds by number or buyer whatever the diacritics; narrow and broad terms keep the list order', async () => {
    const device = openDevice('http://127.0.0.1:9/v1', null);
    try {
      device.services.store.write((db) => {
        db.run(sql`INSERT INTO clients (id, type, name, created_at, updated_at) VALUES ('cli_1', 'company', 'Şcoala Veche SRL', 1, 1)`);
        for (let i = 0; i < 30; i++) {
          db.run(insertInvoice(`inv_${i}`, `TJ-2026-${String(i).padStart(4, '0')}`, i % 3 === 0 ? 'Ştefăneşti Comerţ SRL' : 'Dunărea Market SRL', null, `2026-10-${String(i + 1).padStart(2, '0')}`));
        }
      });
      const search = async (term: string) => (await device.call('invoices.list', { search: term, limit: 50 })).items.map((i) => i.id);
      const stef = await search('ștefănești comerț');
      expect(stef).toEqual(['inv_27', 'inv_24', 'inv_21', 'inv_18', 'inv_15', 'inv_12', 'inv_9', 'inv_6', 'inv_3', 'inv_0']);
      expect(await search('STEFANESTI')).toEqual(stef);
      expect(await search('Ştefăneşti')).toEqual(stef);
      expect(await search('tj-2026-0007')).toEqual(['inv_7']);
      expect(await search('100%')).toEqual([]);
      // Every row matches "srl": the list's own order, paged.
      const page = await device.call('invoices.list', { search: 'srl', limit: 5, offset: 25 });
      expect(page.total).toBe(30);
      expect(page.items.map((i) => i.id)).toEqual(['inv_4', 'inv_3', 'inv_2', 'inv_1', 'inv_0']);
    } finally {
      await device.close();
    }
  });

  it('refuses at once to issue an invoice without a client, naming client_id, and queues nothing', async () => {
    const device = openDevice('http://127.0.0.1:9/v1', null);
    try {
      const direct = await device.router.dispatch('invoices.issue', { series_id: 'ser_x', lines: [LINE] }, APP_SENDER);
      expect(direct).toMatchObject({ ok: false, error: { type: 'validation_error', fields: { client_id: expect.stringMatching(/needs a client/) } } });
      const draft = await device.call('invoices.saveDraft', { lines: [LINE] });
      // The series does not even exist here: the missing buyer is what is reported, before anything else.
      const fromDraft = await device.router.dispatch('invoices.issueDraft', { id: draft.id, series_id: 'ser_x' }, APP_SENDER);
      expect(fromDraft).toMatchObject({ ok: false, error: { type: 'validation_error', fields: { client_id: expect.stringMatching(/needs a client/) } } });
      expect((await device.call('invoices.get', { id: draft.id })).status).toBe('draft');
      expect((await device.call('outbox.list')).items.map((i) => i.kind)).toEqual(['invoice.create']);
    } finally {
      await device.close();
    }
  });
});
