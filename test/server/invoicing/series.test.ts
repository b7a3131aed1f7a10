import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { migrate } from '../../../server/db/connect';
import { migrations } from '../../../server/db/migrations/index';
import { createTestStorage, DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import {
  DEVICE_A, DEVICE_B, LINE, branchOf, expectError, issue, newClient, newFirm, newSeries, seriesNamesOf, startInvoicingServer, type Firm,
} from './helpers';

const T2026 = Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000);

/** A number_series row as written past the API (a database from before a rule, a concurrent writer). */
const seriesRow = (id: string, companyId: string, workPointId: string, kind: 'invoice' | 'receipt', name: string, createdAt: number) => ({
  id, company_id: companyId, work_point_id: workPointId, kind, name, document_type: kind === 'receipt' ? 'receipt' : 'fiscal',
  description: '', start_number: 1, format: kind === 'receipt' ? '{name}-{number}' : '{name}-{year}-{number:4}', is_primary: 0,
  lock_device_id: null, lock_session_id: null, lock_user_id: null, lock_device_name: null, lock_device_platform: null,
  locked_at: null, created_at: createdAt, updated_at: null,
});

describe.each(DIALECTS)('invoice series on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function firmWithClient(): Promise<{ firm: Firm; clientId: string }> {
    const firm = await newFirm(server);
    const client = await newClient(firm);
    return { firm, clientId: client.id };
  }

  it('creates a series from its name alone, with documented defaults', async () => {
    const firm = await newFirm(server);
    const res = await firm.call('POST', '/invoice-series', { name: 'TJ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      object: 'invoice_series', name: 'TJ', document_type: 'fiscal', description: '', start_number: 1, next_number: 1,
      format: '{name}-{year}-{number:4}', is_primary: false, is_used: false, is_locked: false, lock: null, year: 2026,
      created_at: T2026,
    });
    expect(res.body.data.id).toMatch(/^ser_/);
  });

  it('refuses a series without a name, or with a format that does not place the number', async () => {
    const firm = await newFirm(server);
    const noName = await firm.call('POST', '/invoice-series', { document_type: 'fiscal' });
    expectError(noName, 422, 'validation_error');
    expect(noName.body.error.fields).toHaveProperty('name');
    const noNumber = await firm.call('POST', '/invoice-series', { name: 'TJ', format: '{name}-{year}' });
    expectError(noNumber, 422, 'validation_error');
    expect(noNumber.body.error.fields.format).toContain('{number}');
    const unknown = await firm.call('POST', '/invoice-series?locale=ro', { name: 'TJ', format: '{name}/{numar}' });
    expectError(unknown, 422, 'validation_error');
    expect(unknown.body.error.fields.format).toContain('Substituent necunoscut');
    const badType = await firm.call('POST', '/invoice-series', { name: 'TJ', document_type: 'receipt' });
    expectError(badType, 422, 'validation_error');
  });

  it('formats numbers with the series format', async () => {
    const { firm, clientId } = await firmWithClient();
    const series = await newSeries(firm, { name: 'BV', format: '{name}{number:6}/{year}', start_number: 41 });
    const invoice = await issue(firm, { client_id: clientId, series_id: series.id });
    expect(invoice).toMatchObject({ number: 41, full_number: 'BV000041/2026', series_name: 'BV' });
  });

  it('lists, filters and retrieves the series of the selected work point only', async () => {
    const firm = await newFirm(server);
    const fiscal = await newSeries(firm, { name: 'F' });
    const proforma = await newSeries(firm, { name: 'P', document_type: 'proforma' });
    const list = await firm.ok('GET', '/invoice-series?sort=name&order=asc');
    expect(list).toMatchObject({ object: 'list', total: 2, page: 1, per_page: 50, total_pages: 1, has_more: false });
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([fiscal.id, proforma.id]);
    const onlyProforma = await firm.ok('GET', '/invoice-series?document_type=proforma');
    expect(onlyProforma.data.map((s: { id: string }) => s.id)).toEqual([proforma.id]);
    const got = await firm.ok('GET', `/invoice-series/${fiscal.id}`);
    expect(got).toMatchObject({ id: fiscal.id, name: 'F' });

    // Another work point of the same company sees none of them in its list, but may still read one by id.
    const cui = (await server.storage.db.selectFrom('companies').select('cui').where('id', '=', firm.companyId).executeTakeFirstOrThrow()).cui;
    const branch = await newFirm(server, { cui, workPointName: 'Punct 2' });
    expect((await branch.ok('GET', '/invoice-series')).total).toBe(0);
    expect((await branch.ok('GET', `/invoice-series?work_point_id=${firm.workPointId}`)).total).toBe(2);
    expect((await branch.call('GET', `/invoice-series/${fiscal.id}`)).status).toBe(200);

    // Another company's series answers exactly like a missing one.
    const stranger = await newFirm(server);
    expectError(await stranger.call('GET', `/invoice-series/${fiscal.id}`), 404, 'resource_missing');
    expectError(await firm.call('GET', '/invoice-series/ser_nope'), 404, 'resource_missing');
  });

  it('keeps one primary series per document type and work point', async () => {
    const firm = await newFirm(server);
    const a = await newSeries(firm, { name: 'A', is_primary: true });
    const b = await newSeries(firm, { name: 'B', is_primary: true });
    const p = await newSeries(firm, { name: 'P', document_type: 'proforma', is_primary: true });
    const primaries = async () =>
      (await firm.ok('GET', '/invoice-series?sort=name&order=asc')).data.filter((s: { is_primary: boolean }) => s.is_primary).map((s: { name: string }) => s.name);
    expect(await primaries()).toEqual(['B', 'P']);
    await firm.ok('PUT', `/invoice-series/${a.id}`, { is_primary: true });
    expect(await primaries()).toEqual(['A', 'P']);
    await firm.ok('PUT', `/invoice-series/${a.id}`, { is_primary: false });
    expect(await primaries()).toEqual(['P']);
    expect(b.id).not.toBe(p.id);
  });

  it('issues from the primary series when no series is named, and needs one otherwise', async () => {
    const { firm, clientId } = await firmWithClient();
    const none = await firm.call('POST', '/invoices', { client_id: clientId, items: [LINE] });
    expectError(none, 422, 'validation_error');
    expect(none.body.error.fields).toHaveProperty('series_id');
    const primary = await newSeries(firm, { name: 'PR', is_primary: true });
    const invoice = await issue(firm, { client_id: clientId });
    expect(invoice.series_id).toBe(primary.id);
  });

  it('updates a series, but not its start number or type once a number was taken', async () => {
    const { firm, clientId } = await firmWithClient();
    const series = await newSeries(firm);
    const updated = await firm.ok('PUT', `/invoice-series/${series.id}`, { description: 'Casa 1', start_number: 100, format: '{name}-{number}' });
    expect(updated).toMatchObject({ description: 'Casa 1', start_number: 100, next_number: 100, format: '{name}-{number}' });
    await issue(firm, { client_id: clientId, series_id: series.id });
    const after = await firm.ok('GET', `/invoice-series/${series.id}`);
    expect(after).toMatchObject({ is_used: true, next_number: 101 });
    expectError(await firm.call('PUT', `/invoice-series/${series.id}`, { start_number: 1 }), 409, 'in_use');
    expectError(await firm.call('PUT', `/invoice-series/${series.id}`, { document_type: 'proforma' }), 409, 'in_use');
    expect(await firm.ok('PUT', `/invoice-series/${series.id}`, { name: 'TK', start_number: 100 })).toMatchObject({ name: 'TK' });
    expectError(await firm.call('PUT', `/invoice-series/${series.id}`, { format: 'X' }), 422, 'validation_error');
    expectError(await firm.call('PUT', '/invoice-series/ser_nope', { name: 'X' }), 404, 'resource_missing');
  });

  it('deletes an unused series and refuses a used one or one a draft names', async () => {
    const { firm, clientId } = await firmWithClient();
    const unused = await newSeries(firm, { name: 'U' });
    const del = await firm.call('DELETE', `/invoice-series/${unused.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, object: 'invoice_series', id: unused.id, deleted: true });
    expectError(await firm.call('GET', `/invoice-series/${unused.id}`), 404, 'resource_missing');
    expectError(await firm.call('DELETE', `/invoice-series/${unused.id}`), 404, 'resource_missing');

    const used = await newSeries(firm, { name: 'V' });
    await issue(firm, { client_id: clientId, series_id: used.id });
    expectError(await firm.call('DELETE', `/invoice-series/${used.id}`), 409, 'in_use');

    const named = await newSeries(firm, { name: 'W' });
    await issue(firm, { series_id: named.id, is_draft: true });
    expectError(await firm.call('DELETE', `/invoice-series/${named.id}`), 409, 'in_use');
  });

  it('restarts at start_number in a new year and keeps the old year counting', async () => {
    const { firm, clientId } = await firmWithClient();
    const series = await newSeries(firm, { start_number: 10 });
    expect((await issue(firm, { client_id: clientId, series_id: series.id })).full_number).toBe('TJ-2026-0010');
    expect((await issue(firm, { client_id: clientId, series_id: series.id })).number).toBe(11);
    server.clock.set(Math.floor(Date.parse('2027-01-02T08:00:00Z') / 1000));
    try {
      expect(await firm.ok('GET', `/invoice-series/${series.id}`)).toMatchObject({ year: 2027, next_number: 10 });
      const first2027 = await issue(firm, { client_id: clientId, series_id: series.id });
      expect(first2027).toMatchObject({ number: 10, full_number: 'TJ-2027-0010', issue_date: '2027-01-02' });
      // An invoice dated in the old year continues the old year's counter.
      const late2026 = await issue(firm, { client_id: clientId, series_id: series.id, issue_date: '2026-12-31' });
      expect(late2026).toMatchObject({ number: 12, full_number: 'TJ-2026-0012' });
      expect(await firm.ok('GET', `/invoice-series/${series.id}`)).toMatchObject({ year: 2027, next_number: 11 });
    } finally {
      server.clock.set(T2026);
    }
  });

  describe('names unique in the firm', () => {
    const seriesNames = (companyId: string) => seriesNamesOf(server, companyId, 'invoice');

    it('refuses a name the firm already uses, in any case, with 409 duplicate_series and creates nothing', async () => {
      const firm = await newFirm(server);
      await newSeries(firm, { name: 'FCT' });
      const again = await firm.call('POST', '/invoice-series', { name: 'FCT', format: '{name}-{number}' });
      expectError(again, 409, 'duplicate_series');
      expect(again.body.error).toMatchObject({
        type: 'invalid_request_error', param: 'name',
        message: 'The company already has a series with this name, at this or another work point; two such series would print the same numbers.',
      });
      const lower = await firm.call('POST', '/invoice-series?locale=ro', { name: ' fct ', document_type: 'proforma' });
      expectError(lower, 409, 'duplicate_series');
      expect(lower.body.error).toMatchObject({
        param: 'name', message: 'Firma are deja o serie cu acest nume, la acest punct de lucru sau la altul; două astfel de serii ar tipări aceleași numere.',
      });
      expect(await seriesNames(firm.companyId)).toEqual(['FCT']);
    });

    it('refuses a name another work point of the firm uses: the numbering is the firm\'s', async () => {
      const firm = await newFirm(server);
      await newSeries(firm, { name: 'FCT' });
      const branch = await branchOf(server, firm);
      expectError(await branch.call('POST', '/invoice-series', { name: 'Fct' }), 409, 'duplicate_series');
      expect((await branch.ok('GET', '/invoice-series')).total).toBe(0);
      expect(await seriesNames(firm.companyId)).toEqual(['FCT']);
      // A free name is fine there.
      expect(await newSeries(branch, { name: 'FCT2' })).toMatchObject({ name: 'FCT2' });
    });

    it('lets another firm, and a receipt series of the same firm, use the name', async () => {
      const firm = await newFirm(server);
      await newSeries(firm, { name: 'CH' });
      const stranger = await newFirm(server);
      expect(await newSeries(stranger, { name: 'CH' })).toMatchObject({ name: 'CH' });
      expect(await firm.ok('POST', '/receipt-series', { prefix: 'CH' })).toMatchObject({ prefix: 'CH' });
      expect(await seriesNames(firm.companyId)).toEqual(['CH']);
    });

    it('refuses renaming to another series\' name, here or at another work point, but not to its own name in any case', async () => {
      const firm = await newFirm(server);
      const fct = await newSeries(firm, { name: 'FCT' });
      const pro = await newSeries(firm, { name: 'PRO', document_type: 'proforma' });
      const branch = await branchOf(server, firm);
      const far = await newSeries(branch, { name: 'BV' });

      const taken = await firm.call('PUT', `/invoice-series/${pro.id}`, { name: 'fct', description: 'nu' });
      expectError(taken, 409, 'duplicate_series');
      expect(taken.body.error.param).toBe('name');
      expectError(await firm.call('PUT', `/invoice-series/${pro.id}`, { name: 'BV' }), 409, 'duplicate_series');
      expectError(await branch.call('PUT', `/invoice-series/${far.id}`, { name: 'Pro' }), 409, 'duplicate_series');
      expect(await firm.ok('GET', `/invoice-series/${pro.id}`)).toMatchObject({ name: 'PRO', description: '' });
      expect(await seriesNames(firm.companyId)).toEqual(['BV', 'FCT', 'PRO']);

      expect(await firm.ok('PUT', `/invoice-series/${fct.id}`, { name: 'FCT', description: 'Casa 1' })).toMatchObject({ name: 'FCT', description: 'Casa 1' });
      expect(await firm.ok('PUT', `/invoice-series/${fct.id}`, { name: 'fct' })).toMatchObject({ name: 'fct' });
      // The freed name is free again.
      expect(await firm.ok('PUT', `/invoice-series/${pro.id}`, { name: 'fct2' })).toMatchObject({ name: 'fct2' });
      expect(await firm.ok('PUT', `/invoice-series/${far.id}`, { name: 'PRO' })).toMatchObject({ name: 'PRO' });
    });

    it('creates one series of a name when requests race for it', async () => {
      const firm = await newFirm(server);
      const branch = await branchOf(server, firm);
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? branch : firm).call('POST', '/invoice-series', { name: i % 3 ? 'RACE' : 'race' })),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const reply of replies.filter((r) => r.status === 409)) {
        expectError(reply, 409, 'duplicate_series');
        expect(reply.body.error.param).toBe('name');
      }
      expect((await seriesNames(firm.companyId)).map((n) => n.toUpperCase())).toEqual(['RACE']);
    });

    // PostgreSQL: the request finds the name free (the other writer has not committed), then its insert
    // waits on the unique index and fails once the other commits. SQLite serializes the two.
    it('answers 409 too when the name is taken between its check and its write', async () => {
      const firm = await newFirm(server);
      let reply: ReturnType<Firm['call']> | undefined;
      await server.storage.db.transaction().execute(async (trx) => {
        await trx.insertInto('number_series').values(seriesRow('ser_held', firm.companyId, firm.workPointId, 'invoice', 'HELD', T2026)).execute();
        reply = firm.call('POST', '/invoice-series', { name: 'held' });
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      const res = await reply!;
      expectError(res, 409, 'duplicate_series');
      expect(res.body.error.param).toBe('name');
      expect(await seriesNames(firm.companyId)).toEqual(['HELD']);
    });
  });

  describe('locks', () => {
    it('locks for one device, refuses another, refreshes for the holder and unlocks only for the holder', async () => {
      const firm = await newFirm(server);
      const series = await newSeries(firm);
      const locked = await firm.ok('POST', `/invoice-series/${series.id}/lock`, { ...DEVICE_A, session_id: 7, user_id: 3 });
      expect(locked).toMatchObject({
        is_locked: true,
        lock: { device_id: 'dev-a', device_name: 'Casa 1', device_platform: 'win32', session_id: 7, user_id: 3, locked_at: T2026 },
      });
      const other = await firm.call('POST', `/invoice-series/${series.id}/lock`, DEVICE_B);
      expectError(other, 409, 'series_locked');
      expect(other.body.error.message).toContain('Casa 1');
      server.clock.advance(60);
      const again = await firm.ok('POST', `/invoice-series/${series.id}/lock`, { ...DEVICE_A, device_name: 'Casa 1 nou' });
      expect(again.lock).toMatchObject({ device_name: 'Casa 1 nou', locked_at: T2026 });
      server.clock.set(T2026);
      expectError(await firm.call('POST', `/invoice-series/${series.id}/unlock`, { device_id: 'dev-b' }), 403, 'forbidden');
      const unlocked = await firm.ok('POST', `/invoice-series/${series.id}/unlock`, { device_id: 'dev-a' });
      expect(unlocked).toMatchObject({ is_locked: false, lock: null });
      // Unlocking an unlocked series changes nothing.
      expect(await firm.ok('POST', `/invoice-series/${series.id}/unlock`, { device_id: 'dev-b' })).toMatchObject({ is_locked: false });
      expectError(await firm.call('POST', '/invoice-series/ser_nope/lock', DEVICE_A), 404, 'resource_missing');
      expectError(await firm.call('POST', '/invoice-series/ser_nope/unlock', { device_id: 'x' }), 404, 'resource_missing');
      expectError(await firm.call('POST', `/invoice-series/${series.id}/lock`, { device_id: 'x' }), 422, 'validation_error');
    });

    it('lets only the holder issue, checks continuity of its offline numbers and refuses reservations', async () => {
      const { firm, clientId } = await firmWithClient();
      const series = await newSeries(firm);
      await issue(firm, { client_id: clientId, series_id: series.id });
      // Without the lock a device cannot impose a number.
      const unlocked = await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, number: 2, device_id: 'dev-a', items: [LINE] });
      expectError(unlocked, 409, 'series_not_locked');
      await firm.ok('POST', `/invoice-series/${series.id}/lock`, DEVICE_A);

      const printed = await issue(firm, { client_id: clientId, series_id: series.id, number: 2, device_id: 'dev-a' });
      expect(printed).toMatchObject({ number: 2, full_number: 'TJ-2026-0002', device_id: 'dev-a' });
      const skipped = await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, number: 4, device_id: 'dev-a', items: [LINE] });
      expectError(skipped, 409, 'number_out_of_sequence');
      expect(skipped.body.error.message).toContain('the next number is 3');
      const replayedNumber = await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, number: 2, device_id: 'dev-a', items: [LINE] });
      expectError(replayedNumber, 409, 'number_out_of_sequence');
      // The holder online may also just take the next number.
      expect((await issue(firm, { client_id: clientId, series_id: series.id, device_id: 'dev-a' })).number).toBe(3);

      const stranger = await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, device_id: 'dev-b', items: [LINE] });
      expectError(stranger, 409, 'series_locked');
      const anonymous = await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, items: [LINE] });
      expectError(anonymous, 409, 'series_locked');
      const strangerNumber = await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, number: 4, device_id: 'dev-b', items: [LINE] });
      expectError(strangerNumber, 409, 'series_locked');
      const reserve = await firm.call('POST', `/invoice-series/${series.id}/reservations`, { device_id: 'dev-a', count: 2 });
      expectError(reserve, 409, 'series_locked');
      // Drafts take no number, so anyone may still make one.
      expect((await firm.call('POST', '/invoices', { series_id: series.id, is_draft: true, items: [LINE] })).status).toBe(201);
      expect(await firm.ok('GET', `/invoice-series/${series.id}`)).toMatchObject({ next_number: 4 });
    });

    it('on takeover sets numbers aside for the old holder, as gaps, and accepts them from it later', async () => {
      const { firm, clientId } = await firmWithClient();
      const series = await newSeries(firm);
      await firm.ok('POST', `/invoice-series/${series.id}/lock`, DEVICE_A);
      await issue(firm, { client_id: clientId, series_id: series.id, number: 1, device_id: 'dev-a' });
      expectError(await firm.call('POST', `/invoice-series/${series.id}/lock`, { ...DEVICE_B, reserve_for_old_holder: 3 }), 409, 'series_locked');
      server.clock.advance(30);
      const taken = await firm.ok('POST', `/invoice-series/${series.id}/lock`, { ...DEVICE_B, takeover: true, reserve_for_old_holder: 3 });
      server.clock.set(T2026);
      expect(taken).toMatchObject({ next_number: 5, lock: { device_id: 'dev-b', locked_at: T2026 + 30 } });
      const gaps = await firm.ok('GET', `/invoice-series/${series.id}/gaps`);
      expect(gaps.data).toEqual([2, 3, 4].map((n) => ({
        object: 'number_gap', series_id: series.id, number: n, full_number: `TJ-2026-000${n}`, year: 2026, reason: 'lock_takeover',
        device_id: 'dev-a', reservation_token: null, recorded_at: T2026 + 30,
      })));
      // The new holder continues after the set-aside numbers.
      expectError(
        await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, number: 2, device_id: 'dev-b', items: [LINE] }),
        409, 'number_out_of_sequence',
      );
      expect((await issue(firm, { client_id: clientId, series_id: series.id, number: 5, device_id: 'dev-b' })).number).toBe(5);
      // The old holder syncs what it printed offline before it lost the lock.
      expect((await issue(firm, { client_id: clientId, series_id: series.id, number: 2, device_id: 'dev-a' })).full_number).toBe('TJ-2026-0002');
      expect((await issue(firm, { client_id: clientId, series_id: series.id, number: 3, device_id: 'dev-a' })).number).toBe(3);
      const left = await firm.ok('GET', `/invoice-series/${series.id}/gaps`);
      expect(left.data.map((g: { number: number }) => g.number)).toEqual([4]);
      // Beyond what was set aside, the old holder is just another device.
      expectError(
        await firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, number: 6, device_id: 'dev-a', items: [LINE] }),
        409, 'series_locked',
      );
    });
  });
});

describe.each(DIALECTS)('migration 0204 (series names unique in the firm) on %s', (dialect) => {
  it('renames the later duplicates of a database from before the rule, then enforces it', async () => {
    const test = await createTestStorage(dialect, { migrate: false });
    try {
      const { db } = test.storage;
      const migrator = new Migrator({
        db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true,
        ...(test.storage.schema ? { migrationTableSchema: test.storage.schema } : {}),
      });
      const before = await migrator.migrateTo('0203_invoicing_changes');
      expect(before.error).toBeUndefined();
      expect(before.results?.map((r) => r.migrationName)).not.toContain('0204_invoicing_series_unique_names');

      await db.insertInto('companies').values([
        { id: 'cmp_a', name: 'Alfa SRL', cui: '1000001', created_at: 1 },
        { id: 'cmp_b', name: 'Beta SRL', cui: '1000002', created_at: 1 },
      ]).execute();
      await db.insertInto('work_points').values([
        { id: 'wp_a1', company_id: 'cmp_a', name: 'Sediu', created_at: 1, address: null, updated_at: null },
        { id: 'wp_a2', company_id: 'cmp_a', name: 'Punct 2', created_at: 1, address: null, updated_at: null },
        { id: 'wp_b1', company_id: 'cmp_b', name: 'Sediu', created_at: 1, address: null, updated_at: null },
      ]).execute();
      await db.insertInto('number_series').values([
        // Invoice series of firm A: three FCT (two created in the same second: the lower id is the older),
        // one at another work point in another case, and an FCT-2 the renaming must step over.
        seriesRow('ser_b', 'cmp_a', 'wp_a1', 'invoice', 'FCT', 100),
        seriesRow('ser_a', 'cmp_a', 'wp_a1', 'invoice', 'FCT', 100),
        seriesRow('ser_c', 'cmp_a', 'wp_a2', 'invoice', 'fct', 200),
        seriesRow('ser_d', 'cmp_a', 'wp_a1', 'invoice', 'FCT', 300),
        seriesRow('ser_e', 'cmp_a', 'wp_a1', 'invoice', 'FCT-2', 400),
        seriesRow('ser_f', 'cmp_a', 'wp_a1', 'invoice', 'CH', 50),
        // Receipt series: a CH at each work point of firm A, and one of firm B.
        seriesRow('rser_a2', 'cmp_a', 'wp_a2', 'receipt', 'CH', 150),
        seriesRow('rser_a1', 'cmp_a', 'wp_a1', 'receipt', 'CH', 100),
        seriesRow('rser_b1', 'cmp_b', 'wp_b1', 'receipt', 'CH', 10),
      ]).execute();

      expect(await migrate(test.storage)).toContain('0204_invoicing_series_unique_names');

      const rows = await db.selectFrom('number_series').select(['id', 'name', 'updated_at']).orderBy('id').execute();
      expect(Object.fromEntries(rows.map((r) => [r.id, r.name]))).toEqual({
        ser_a: 'FCT', ser_b: 'FCT-3', ser_c: 'fct-4', ser_d: 'FCT-5', ser_e: 'FCT-2', ser_f: 'CH',
        rser_a1: 'CH', rser_a2: 'CH2', rser_b1: 'CH',
      });
      // A renamed series says it changed; the others are untouched.
      expect(rows.filter((r) => r.updated_at !== null).map((r) => r.id).sort()).toEqual(['rser_a2', 'ser_b', 'ser_c', 'ser_d']);

      // From now on the database itself refuses a duplicate, in any case, at any work point.
      await expect(db.insertInto('number_series').values(seriesRow('ser_g', 'cmp_a', 'wp_a2', 'invoice', 'Fct', 500)).execute()).rejects.toThrow();
      await expect(db.insertInto('number_series').values(seriesRow('rser_a3', 'cmp_a', 'wp_a2', 'receipt', 'ch2', 500)).execute()).rejects.toThrow();
      await db.insertInto('number_series').values(seriesRow('rser_b2', 'cmp_b', 'wp_b1', 'receipt', 'CH2', 500)).execute();
      const names = await sql<{ n: number | string }>`select count(*) as n from number_series`.execute(db);
      expect(Number(names.rows[0]?.n)).toBe(10);
    } finally {
      await test.drop();
    }
  });
});
