import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { openStorage, poolSettingsFromEnv, storageConfigFromEnv, type Storage } from '../../server/db/connect';
import { createApiKey } from '../../server/platform/api-keys';
import { createTestStorage, PG_URL, type TestStorage } from '../support/storage';
import { callApi, randomCui } from '../support/server';

describe('PostgreSQL pool settings from the environment', () => {
  it('reads each DATABASE_POOL_* / *_TIMEOUT_MS variable, and only those given', () => {
    expect(poolSettingsFromEnv({})).toEqual({});
    expect(
      poolSettingsFromEnv({
        DATABASE_POOL_SIZE: '24', DATABASE_POOL_IDLE_MS: '0', DATABASE_CONNECT_TIMEOUT_MS: '2500',
        DATABASE_STATEMENT_TIMEOUT_MS: '15000', DATABASE_LOCK_TIMEOUT_MS: '800',
      }),
    ).toEqual({ poolSize: 24, idleTimeoutMs: 0, connectTimeoutMs: 2500, statementTimeoutMs: 15000, lockTimeoutMs: 800 });
    expect(storageConfigFromEnv({ DATABASE_URL: 'postgres://x@h/db', DATABASE_POOL_SIZE: '3' })).toEqual({
      dialect: 'postgres', url: 'postgres://x@h/db', poolSize: 3,
    });
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'ten'],
    ['DATABASE_POOL_SIZE', '2.5'],
    ['DATABASE_LOCK_TIMEOUT_MS', '-1'],
  ])('refuses %s=%s with the variable named', (name, value) => {
    expect(() => poolSettingsFromEnv({ [name]: value })).toThrow(name);
  });
});

describe('PostgreSQL: server-side limits and a busy series', () => {
  let testStorage: TestStorage;
  let storage: Storage;
  let app: FastifyInstance;
  let base: string;
  let key: string;
  let seriesId: string;
  let clientId: string;

  beforeAll(async () => {
    testStorage = await createTestStorage('postgres');
    // The same schema through a pool with short server-side limits, as DATABASE_LOCK_TIMEOUT_MS would set them.
    storage = openStorage({ dialect: 'postgres', url: PG_URL, schema: testStorage.env.DATABASE_SCHEMA!, lockTimeoutMs: 300, statementTimeoutMs: 4000 });
    app = buildApp({ storage }).app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
    key = (await createApiKey(storage.db, { companyName: 'Ocupat SRL', cui: randomCui(), now: Math.floor(Date.now() / 1000) })).api_key;
    seriesId = (await callApi(base, key, 'POST', '/invoice-series', { name: 'BZ' })).body.data.id;
    clientId = (await callApi(base, key, 'POST', '/clients', { name: 'Client SRL', cui: 'RO18547290' })).body.data.id;
  });

  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await testStorage?.drop();
  });

  it('every connection carries the statement and lock timeouts', async () => {
    const { rows } = await sql<{ s: string; l: string }>`select current_setting('statement_timeout') as s, current_setting('lock_timeout') as l`.execute(storage.db);
    expect(rows[0]).toEqual({ s: '4s', l: '300ms' });
  });

  it('an issue that waits past the lock timeout answers 503 service_busy with Retry-After, writes nothing, and takes no number', async () => {
    const blocker = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${testStorage.env.DATABASE_SCHEMA}` });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select id from number_series where id = $1 for update', [seriesId]);
      const body = { client_id: clientId, series_id: seriesId, items: [{ description: 'Cafea', quantity: 1, price: 10, vat_rate: 21 }] };
      const busy = await callApi(base, key, 'POST', '/invoices', body);
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.body.error).toMatchObject({ type: 'api_error', code: 'service_busy' });
      expect(busy.text).not.toMatch(/lock|timeout|select|55P03/i);
      await blocker.query('rollback');
      const issued = await callApi(base, key, 'POST', '/invoices', body);
      expect(issued.status).toBe(201);
      // The refused attempt spent nothing: the first invoice of the series still gets number 1.
      expect(issued.body.data.number).toBe(1);
      const count = await storage.db.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    } finally {
      await blocker.end();
    }
  });

  it('a request that finds every pooled connection taken past the connect timeout answers 503 service_busy, not 500', async () => {
    // One connection, waited for at most 200 ms: held below, so the request's wait times out in pg-pool.
    const tight = openStorage({ dialect: 'postgres', url: PG_URL, schema: testStorage.env.DATABASE_SCHEMA!, poolSize: 1, connectTimeoutMs: 200 });
    const tightApp = buildApp({ storage: tight }).app;
    await tightApp.listen({ port: 0, host: '127.0.0.1' });
    const address = tightApp.server.address();
    const tightBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
    try {
      const before = await storage.db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const busy = await tight.db.connection().execute(async () => callApi(tightBase, key, 'POST', '/clients', { name: 'Așteaptă SRL', cui: 'RO14399840' }));
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.body.error).toMatchObject({ type: 'api_error', code: 'service_busy' });
      expect(busy.text).not.toMatch(/timeout exceeded|pool|connect/i);
      const after = await storage.db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      // Once the connection is free again, the same request goes through.
      expect((await callApi(tightBase, key, 'POST', '/clients', { name: 'Așteaptă SRL', cui: 'RO14399840' })).status).toBe(201);
    } finally {
      await tightApp.close();
      await tight.close();
    }
  });
});
