import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import { foldTerm, indexedSearch } from '../../server/platform/search';
import { CLIENTS_SEARCH } from '../../server/modules/catalog/migrations/0120_catalog_search';
import { foldForSearch } from '../../shared/text/search-fold';

describe.each(DIALECTS)('search as people type on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  const call = (method: string, path: string, body?: unknown) => server.api(key, method, path, body);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body.data;
  };
  const names = async (path: string, term: string, pick: (row: Record<string, unknown>) => unknown = (r) => r.name): Promise<string[]> => {
    const page = await ok('GET', `${path}${path.includes('?') ? '&' : '?'}search=${encodeURIComponent(term)}&per_page=100`);
    return (page.data as Array<Record<string, unknown>>).map((r) => String(pick(r))).sort();
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
    key = (await server.key()).api_key;
    for (const name of ['Ștefan Popescu', 'Ştefan Ionescu', 'ȘTEFĂNEȘTI COM SRL', 'Ana Țară', 'Înalt Âmbră', 'Mihai Stan', 'Ţesătoria Veche']) {
      await ok('POST', '/clients', { type: 'person', name });
    }
    // Another company's client never shows.
    const other = (await server.key()).api_key;
    expect((await server.api(other, 'POST', '/clients', { type: 'person', name: 'Ștefan Străin' })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ignores case and diacritics, comma and cedilla letters alike, anywhere in the text', async () => {
    const stefans = ['Ştefan Ionescu', 'Ștefan Popescu', 'ȘTEFĂNEȘTI COM SRL'].sort();
    for (const term of ['ștefan', 'ȘTEFAN', 'stefan', 'ştefan', 'Ştefan', 'STEFAN', 'șTeFaN']) {
      expect(await names('/clients', term), term).toEqual(stefans);
    }
    expect(await names('/clients', 'stefanesti')).toEqual(['ȘTEFĂNEȘTI COM SRL']);
    expect(await names('/clients', 'tara')).toEqual(['Ana Țară']);
    expect(await names('/clients', 'ȚARĂ')).toEqual(['Ana Țară']);
    expect(await names('/clients', 'inalt ambra')).toEqual(['Înalt Âmbră']);
    expect(await names('/clients', 'ÂMBRĂ')).toEqual(['Înalt Âmbră']);
    expect(await names('/clients', 'tesatoria')).toEqual(['Ţesătoria Veche']);
    expect(await names('/clients', 'escu')).toEqual(['Ştefan Ionescu', 'Ștefan Popescu'].sort());
    // The first keystrokes, below a trigram, fold too.
    expect(await names('/clients', 'ȘT')).toEqual(['Mihai Stan', 'Ştefan Ionescu', 'Ștefan Popescu', 'ȘTEFĂNEȘTI COM SRL'].sort());
    expect(await names('/clients', 'ȚĂ')).toEqual(['Ana Țară', 'Mihai Stan'].sort());
    // Wildcards are text; nothing matches across two columns.
    expect(await names('/clients', '%')).toEqual([]);
    expect(await names('/clients', 'ste_an')).toEqual([]);
  });

  it('follows every write: a renamed client is found by its new name only, a deleted product not at all', async () => {
    const client = await ok('POST', '/clients', { type: 'person', name: 'Gheorghe Vechi' });
    expect(await names('/clients', 'vechi')).toContain('Gheorghe Vechi');
    await ok('PUT', `/clients/${client.id}`, { name: 'Gheorghe Nou' });
    expect(await names('/clients', 'vechi')).not.toContain('Gheorghe Vechi');
    expect(await names('/clients', 'GHEORGHE NOU')).toEqual(['Gheorghe Nou']);
    const product = await ok('POST', '/products', { name: 'Pâine albă', price: 5, vat_rate: 11 });
    expect(await names('/products', 'paine')).toEqual(['Pâine albă']);
    await ok('PUT', `/products/${product.id}`, { name: 'Pâine neagră' });
    expect(await names('/products', 'alba')).toEqual([]);
    expect(await names('/products', 'NEAGRA')).toEqual(['Pâine neagră']);
    expect((await call('DELETE', `/products/${product.id}`)).status).toBe(200);
    expect(await names('/products', 'paine')).toEqual([]);
  });

  it('suppliers, invoices, receipts and expenses search the same way', async () => {
    const supplier = await ok('POST', '/suppliers', { name: 'Țesătoria Șerban SRL' });
    expect(await names('/suppliers', 'serban')).toEqual(['Țesătoria Șerban SRL']);
    await ok('POST', '/invoice-series', { name: 'TJ', is_primary: true });
    await ok('POST', '/invoices', { client: { type: 'person', name: 'Ștefănel Dragoș' }, items: [{ description: 'Cafea', quantity: 1, price: 10, vat_rate: 21 }] });
    const invoices = await ok('GET', `/invoices?search=${encodeURIComponent('STEFANEL DRAGOS')}`);
    expect(invoices.data.map((i: { id: string }) => i.id)).toHaveLength(1);
    await ok('POST', '/receipts', { client_name: 'Răzvan Țepeș', amount: 5 });
    expect(await names('/receipts', 'tepes', (r) => (r.client as { name: string }).name)).toEqual(['Răzvan Țepeș']);
    await ok('POST', '/expenses', { supplier_id: supplier.id, amount: 10, vat: 0, description: 'Hârtie și plicuri' });
    const expenses = await ok('GET', `/expenses?search=${encodeURIComponent('HARTIE SI')}`);
    expect(expenses.data.map((e: { description: string }) => e.description)).toEqual(['Hârtie și plicuri']);
  });

  it('looks up through the index, not by scanning the table', async () => {
    const term = 'stefan';
    if (dialect === 'sqlite') {
      const query = server.storage.db.selectFrom('clients').selectAll().where(indexedSearch('sqlite', CLIENTS_SEARCH, 'clients', term)).compile();
      const plan = await server.storage.db.executeQuery(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
      const text = JSON.stringify(plan.rows);
      expect(text).toMatch(/clients_search VIRTUAL TABLE INDEX/);
      // The FTS table holds one folded row per client, the same text the desktop's fold makes.
      const rows = await sql<{ folded: string }>`select folded from clients_search`.execute(server.storage.db);
      const clients = await server.storage.db.selectFrom('clients').select(['name', 'cui', 'cnp', 'reg_com', 'email', 'city']).execute();
      expect(rows.rows.map((r) => r.folded).sort()).toEqual(
        clients.map((c) => foldForSearch([c.name, c.cui, c.cnp, c.reg_com, c.email, c.city].map((v) => v ?? '').join('\u001f'))).sort(),
      );
    } else {
      const plan = await server.storage.db.transaction().execute(async (trx) => {
        // Few rows make a scan the cheaper plan; forbidding it shows whether the index can serve the query.
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.selectFrom('clients').selectAll().where(indexedSearch('postgres', CLIENTS_SEARCH, 'clients', term)).explain();
      });
      expect(JSON.stringify(plan)).toMatch(/clients_search_idx/);
      // The database's fold is the desktop's, letter for letter, on Romanian text.
      const sample = 'ȘșŞşȚțŢţĂăÂâÎî  Ştefăneşti\tCOM  ';
      const folded = await sql<{ f: string }>`select tejghea_fold(${sample}) as f`.execute(server.storage.db);
      expect(folded.rows[0]!.f).toBe(foldForSearch(sample));
    }
    expect(foldTerm('  ȘTEFAN\u001fX ')).toBe('stefan x');
  });
});
