import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allHandlers } from '../../main/ipc/index';
import { IpcRouter, type Handlers, type SenderInfo } from '../../main/ipc/router';
import { senderCheck } from '../../main/ipc/sender';
import { AppError } from '../../main/errors';
import { sql } from '../../main/db/sql';
import { createPreloadApi } from '../../preload/bridge';
import { CHANNELS, EVENTS, contract, createIpcClient, events, IpcCallError } from '../../shared/ipc/index';
import { openDevice, removeTempDirs, type Device } from './support/harness';

const APP: SenderInfo = { host: 'electron', url: 'app://tejghea/index.html', isMainFrame: true };

describe('IPC contract', () => {
  it('the contract, the event map, the name lists and the handlers cover exactly the same channels', () => {
    expect(Object.keys(contract).sort()).toEqual([...CHANNELS].sort());
    expect(Object.keys(events).sort()).toEqual([...EVENTS].sort());
    const device = openDevice('http://127.0.0.1:9/v1', null);
    try {
      expect(Object.keys(allHandlers(device.services)).sort()).toEqual([...CHANNELS].sort());
    } finally {
      void device.close();
    }
  });
});

describe('IPC router (fake sender, no Electron)', () => {
  let device: Device;
  let router: IpcRouter;
  beforeAll(() => {
    device = openDevice('http://127.0.0.1:9/v1', null);
    router = new IpcRouter(allHandlers(device.services), senderCheck(['app://tejghea']), () => undefined);
  });
  afterAll(async () => {
    await device.close();
    removeTempDirs();
  });

  it('answers a valid call with { ok: true, value }', async () => {
    const reply = await router.dispatch('app.info', undefined, APP);
    expect(reply.ok).toBe(true);
    if (reply.ok) expect(reply.value).toMatchObject({ host: 'web', device: { id: device.services.ctx.device.id } });
  });

  it('rejects a payload that does not match the input schema, naming each bad field', async () => {
    const reply = await router.dispatch('invoices.issue', { series_id: 's', lines: [{ description: '', quantity: 'two', unit_price_bani: 1.5, vat_rate: 21 }] }, APP);
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.type).toBe('validation_error');
    expect(reply.error.code).toBe('invalid_payload');
    // No client either: an issued invoice needs one, refused here rather than at sync.
    expect(Object.keys(reply.error.fields ?? {}).sort()).toEqual(['client_id', 'lines.0.description', 'lines.0.quantity', 'lines.0.unit_price_bani']);
    expect(reply.error.fields?.client_id).toMatch(/needs a client/);
    const extra = await router.dispatch('app.info', { sneaky: true }, APP);
    expect(extra.ok).toBe(false);
  });

  it('refuses channels outside the contract', async () => {
    for (const channel of ['invoices.delete_all', '__proto__', 'constructor', 42, null]) {
      const reply = await router.dispatch(channel, undefined, APP);
      expect(reply).toMatchObject({ ok: false, error: { type: 'permission_error', code: 'unknown_channel' } });
    }
  });

  it('refuses calls from another origin, an iframe, or a file:// page', async () => {
    for (const sender of [
      { host: 'electron', url: 'https://evil.example/index.html', isMainFrame: true },
      { host: 'electron', url: 'app://tejghea/index.html', isMainFrame: false },
      { host: 'electron', url: 'file:///home/user/index.html', isMainFrame: true },
      { host: 'electron', url: 'app://tejghea.evil/index.html', isMainFrame: true },
      { host: 'electron', url: '', isMainFrame: true },
    ] as SenderInfo[]) {
      const reply = await router.dispatch('settings.get', undefined, sender);
      expect(reply).toMatchObject({ ok: false, error: { type: 'permission_error', code: 'sender_refused' } });
    }
  });

  it('turns an unexpected exception into internal_error without its message or stack', async () => {
    const handlers = { ...allHandlers(device.services), 'app.info': () => { throw new Error('SQLITE_CORRUPT at /home/secret/tejghea.sqlite'); } } as Handlers;
    const leaky = new IpcRouter(handlers, () => true, () => undefined);
    const reply = await leaky.dispatch('app.info', undefined, APP);
    expect(reply).toEqual({ ok: false, error: { type: 'internal_error', code: 'internal_error', message: expect.any(String) } });
    expect(JSON.stringify(reply)).not.toMatch(/secret|SQLITE|at /);
  });

  it('refuses to send a value outside the output schema', async () => {
    const handlers = { ...allHandlers(device.services), 'app.info': () => ({ app_version: 1 }) } as unknown as Handlers;
    const reply = await new IpcRouter(handlers, () => true, () => undefined).dispatch('app.info', undefined, APP);
    expect(reply).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });

  it('passes typed app errors through', async () => {
    const reply = await router.dispatch('invoices.get', { id: 'nope' }, APP);
    expect(reply).toMatchObject({ ok: false, error: { type: 'not_found', code: 'not_found' } });
    const handlers = { ...allHandlers(device.services), 'app.info': () => { throw new AppError('conflict', 'invalid_state', 'No', { a: 'b' }); } } as Handlers;
    const typed = await new IpcRouter(handlers, () => true).dispatch('app.info', undefined, APP);
    expect(typed).toEqual({ ok: false, error: { type: 'conflict', code: 'invalid_state', message: 'No', fields: { a: 'b' } } });
  });

  it('issuing needs a number: a series never set up here, with no service to set it up, answers series_not_set_up', async () => {
    device.services.store.write((db) => db.run(sql`INSERT INTO series (id, name, document_type, format, start_number, next_number, year, created_at) VALUES ('ser_x', 'X', 'fiscal', '{name}-{number}', 1, 1, 2026, 0)`));
    const client = await device.call('clients.create', { type: 'person', name: 'A', country: 'RO' });
    const reply = await router.dispatch('invoices.issue', { series_id: 'ser_x', client_id: client.id, lines: [{ description: 'x', quantity: 1, unit_price_bani: 100, vat_rate: 21 }] }, APP);
    // Online it would get reserved numbers on the spot (test/desktop/first-sale.test.ts); here no service answers.
    expect(reply).toMatchObject({ ok: false, error: { type: 'conflict', code: 'series_not_set_up' } });
    // Nothing half-written: the failed action left no invoice and no outbox item for it.
    expect((await device.call('invoices.list', { limit: 5 })).total).toBe(0);
    expect((await device.call('outbox.list')).items.map((i) => i.kind)).toEqual(['client.create']);
  });

  it('checks identifiers locally as the server would (an offline client never fails later for a typo)', async () => {
    const reply = await router.dispatch('clients.create', { type: 'company', name: 'Firma', cui: 'RO1590083', country: 'RO' }, APP);
    expect(reply).toMatchObject({ ok: false, error: { type: 'validation_error', fields: { cui: expect.stringMatching(/control digit/) } } });
  });
});

describe('preload bridge (no Electron)', () => {
  it('exposes only invoke and on, refuses unknown channels before they leave the page', async () => {
    const sent: unknown[] = [];
    let deliver: (event: string, payload: unknown) => void = () => undefined;
    const api = createPreloadApi({
      invoke: async (channel, payload) => {
        sent.push([channel, payload]);
        return { ok: true, value: null };
      },
      subscribe: (listener) => {
        deliver = listener;
      },
    });
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);
    expect(await api.invoke('fs.readFile', '/etc/passwd')).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(sent).toEqual([]);
    await api.invoke('app.info');
    expect(sent).toEqual([['app.info', undefined]]);
    const got: unknown[] = [];
    const off = api.on('data.changed', (p) => got.push(p));
    expect(() => api.on('ipc.raw', () => undefined)).toThrow(/Unknown event/);
    deliver('data.changed', { domains: ['invoices'] });
    deliver('not.an.event', 1);
    off();
    deliver('data.changed', { domains: ['clients'] });
    expect(got).toEqual([{ domains: ['invoices'] }]);
  });

  it('the renderer client checks inputs before sending and replies when they arrive', async () => {
    let calls = 0;
    const client = createIpcClient({
      invoke: async () => {
        calls += 1;
        return { ok: true, value: { app_version: '1', host: 'desktop', device: {} } };
      },
      on: () => () => undefined,
    });
    const bad = await client.request('clients.create', { type: 'company', name: '', country: 'RO' });
    expect(bad.ok).toBe(false);
    expect(calls).toBe(0);
    await expect(client.call('app.info')).rejects.toBeInstanceOf(IpcCallError);
    expect(calls).toBe(1);
  });
});
