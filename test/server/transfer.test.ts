import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Storage } from '../../server/db/connect';
import { exportDatabase, importDatabase, TransferError } from '../../server/transfer/export-import';
import { PROJECT_ROOT, callApi, type TestServer } from '../support/server';
import { createTestStorage, type TestStorage } from '../support/storage';
import { LINE, issue, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from './invoicing/helpers';

/**
 * Moving a firm from the embedded service (SQLite) to a hosted one on PostgreSQL, through the two
 * CLI commands a person runs: every table's rows arrive, and the documents, numbers, counters,
 * reservations and gaps read the same through the API of the new service, with the same keys.
 */
function cli(env: Record<string, string>, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli.ts'), ...args], {
    cwd: PROJECT_ROOT,
    // Only the target's variables: the parent's DATABASE_URL (if any) must not leak into a SQLite run.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function rowCounts(storage: Storage, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)}`.execute(storage.db);
    out[t] = Number(r.rows[0]?.n ?? 0);
  }
  return out;
}

/** What a firm sees of its numbering through the API: invoices, series counters, reservations, gaps. */
async function numberingView(base: string, firm: Firm, seriesId: string) {
  const get = async (path: string) => {
    const r = await callApi(base, firm.key, 'GET', path);
    expect(r.status, `${path}: ${r.text}`).toBe(200);
    return r.body.data;
  };
  const invoices = await get('/invoices?per_page=100&sort=number');
  const series = await get(`/invoice-series/${seriesId}`);
  const reservations = await get(`/invoice-series/${seriesId}/reservations?per_page=100`);
  const gaps = await get(`/invoice-series/${seriesId}/gaps?per_page=100`);
  const lines = await get(`/invoices/${invoices.data[0].id}?expand[]=lines`);
  return {
    invoices: invoices.data.map((i: { id: string; full_number: string; totals: unknown; status: string }) => [i.id, i.full_number, i.status, JSON.stringify(i.totals)]).sort(),
    next_number: series.next_number,
    reservations: reservations.data.map((r: { token: string; number: number; status: string }) => [r.token, r.number, r.status]).sort(),
    gaps: gaps.data.map((g: { number: number; reason: string }) => [g.number, g.reason]).sort(),
    firstLines: lines.lines,
  };
}

/** A small PDF with binary bytes: what a byte column would not have carried through JSON. */
const ATTACHMENT = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80]), Buffer.from('\n%%EOF\n')]);

describe('export from SQLite, import into PostgreSQL', () => {
  let source: TestServer;
  let target: TestStorage;
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-transfer-'));
  afterAll(async () => {
    await source?.close();
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every company, key hash, number, counter, reservation, gap and document', async () => {
    source = await startInvoicingServer('sqlite');
    // Two firms, each with documents, a reservation consumed, one released (a gap) and one still pending.
    const firms: { firm: Firm; seriesId: string }[] = [];
    for (let f = 0; f < 2; f++) {
      const firm = await newFirm(source);
      const series = await newSeries(firm, { is_primary: true });
      const client = await newClient(firm);
      for (let i = 0; i < 3; i++) await issue(firm, { client_id: client.id, series_id: series.id, items: [{ ...LINE, quantity: i + 1 }] });
      const reserved = await firm.ok('POST', `/invoice-series/${series.id}/reservations`, { device_id: 'dev-a', count: 3 });
      await issue(firm, { client_id: client.id, series_id: series.id, reservation_token: reserved.data[0].token, device_id: 'dev-a', client_local_uuid: crypto.randomUUID() });
      await firm.ok('POST', `/invoice-series/reservations/${reserved.data[1].token}/release?device_id=dev-a`);
      await firm.ok('POST', '/products', { name: `Produs ${f}`, price: 12.5, vat_rate: 21 });
      // A file attached (bytes in the database, base64) and a template: they travel with the firm.
      await firm.ok('POST', '/documents/attachments', { document_type: 'client', document_id: client.id, file_name: 'act.pdf', content: ATTACHMENT.toString('base64') });
      await firm.ok('POST', '/documents/templates', { name: 'Magazin', type: 'invoice', content: '<h1>{{invoice.number}}</h1>' });
      firms.push({ firm, seriesId: series.id });
    }
    const before = await Promise.all(firms.map((f) => numberingView(source.base, f.firm, f.seriesId)));
    expect(before[0]!.gaps).toEqual([[5, 'released']]);
    expect(before[0]!.reservations.map((r: unknown[]) => r[2]).sort()).toEqual(['consumed', 'pending', 'released']);

    const file = join(dir, 'firma.tejghea-export');
    const exported = cli(source.env, 'export', '--out', file);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/exported \d+ rows of \d+ tables/);

    target = await createTestStorage('postgres', { migrate: false });
    const imported = cli(target.env, 'import', '--from', file);
    expect(imported.status, imported.stderr).toBe(0);

    // Every table, row for row.
    // SQLite's full-text search tables (`clients_search`, its shadow tables…) are derived, and PostgreSQL has none.
    const tables = (await source.storage.db.introspection.getTables()).map((t) => t.name)
      .filter((n) => !n.startsWith('sqlite_') && !n.startsWith('kysely_') && !/_search($|_)/.test(n));
    const counts = await rowCounts(source.storage, tables);
    expect(await rowCounts(target.storage, tables)).toEqual(counts);
    for (const t of ['companies', 'api_keys', 'invoices', 'invoice_lines', 'number_series', 'series_counters', 'number_reservations', 'number_gaps', 'products', 'clients', 'document_attachments', 'document_templates']) {
      expect(counts[t], t).toBeGreaterThan(0);
    }
    const hashes = (s: Storage) => s.db.selectFrom('api_keys').select(['id', 'key_hash']).orderBy('id').execute();
    expect(await hashes(target.storage)).toEqual(await hashes(source.storage));
    const files = await target.storage.db.selectFrom('document_attachments').select(['content', 'sha256']).execute();
    expect(files).toHaveLength(2);
    for (const file of files) expect(Buffer.from(file.content, 'base64').equals(ATTACHMENT), 'the attached bytes, moved').toBe(true);

    // The new service answers the same keys with the same numbers, gaps and documents.
    const { app } = buildApp({ storage: target.storage, clock: source.clock });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
      const after = await Promise.all(firms.map((f) => numberingView(base, f.firm, f.seriesId)));
      expect(after).toEqual(before);
      // And it continues the numbering where the old one stopped.
      const client = await newClient({ ...firms[0]!.firm, call: (m, p, b, h) => callApi(base, firms[0]!.firm.key, m, p, b, h), ok: async (m, p, b) => (await callApi(base, firms[0]!.firm.key, m, p, b)).body.data });
      const next = await callApi(base, firms[0]!.firm.key, 'POST', '/invoices', { client_id: client.id, series_id: firms[0]!.seriesId, items: [LINE] });
      expect(next.status, next.text).toBe(201);
      expect(next.body.data.number).toBe(before[0]!.next_number);
    } finally {
      await app.close();
    }

    // A second import into the same (no longer empty) database is refused, and changes nothing.
    const again = cli(target.env, 'import', '--from', file);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('already has data');
  }, 180_000);

  it('refuses a file that is not an export, or one cut short, leaving the target empty', async () => {
    const empty = await createTestStorage('sqlite', { migrate: false });
    try {
      const junk = join(dir, 'junk.csv');
      writeFileSync(junk, 'cod,denumire\n1,Cafea\n');
      await expect(importDatabase(empty.storage, junk)).rejects.toBeInstanceOf(TransferError);
      // A header announcing rows the file does not carry.
      const firm = await startInvoicingServer('sqlite');
      await newFirm(firm);
      const full = join(dir, 'full.jsonl');
      await exportDatabase(firm.storage, full);
      await firm.close();
      const lines = readFileSync(full, 'utf8').trim().split('\n');
      const cut = join(dir, 'cut.jsonl');
      writeFileSync(cut, `${lines.slice(0, -1).join('\n')}\n`);
      await expect(importDatabase(empty.storage, cut)).rejects.toThrow(/rows read from the file/);
      expect((await rowCounts(empty.storage, ['companies', 'api_keys'])).companies).toBe(0);
    } finally {
      await empty.drop();
    }
  }, 60_000);
});
