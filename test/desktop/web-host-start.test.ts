import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type RunningWebHost } from '../../main/web-host/start';
import { EVENTS_PROTOCOL, INVOKE_PATH, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX } from '../../shared/ipc/web-transport';
import { removeTempDirs, tempDir } from './support/harness';

/** `startWebHost` of main/web-host/start.ts: what `npm run start:web` and the browser tests run. */
describe('the composed web host', () => {
  let running: RunningWebHost | undefined;
  afterAll(async () => {
    await running?.close();
    removeTempDirs();
  });

  it('serves the renderer, answers calls from its own origin only, and pushes the engine events to the page', async () => {
    const dataDir = tempDir();
    const rendererDir = join(dataDir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>T</title></head><body></body></html>');
    running = await startWebHost({ dataDir, apiUrl: 'http://127.0.0.1:9/v1', port: 0, rendererDir, services: { timers: false, device: { name: 'Casa 3', platform: 'linux' } } });
    const { host } = running;
    expect(host.openUrl).toBe(`${host.url}/#token=${host.secret}`);
    const page = await fetch(`${host.url}/`);
    expect(await page.text()).toContain('<script src="/__tejghea/bridge.js"></script>');

    const call = (channel: string, payload: unknown, origin = host.url) =>
      fetch(`${host.url}${INVOKE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', origin, [TOKEN_HEADER]: host.secret }, body: JSON.stringify({ channel, payload }) });
    expect(await (await call('app.info', null)).json()).toMatchObject({ ok: true, value: { host: 'web', device: { name: 'Casa 3' } } });
    expect((await call('app.info', null, 'http://evil.example')).status).toBe(403);

    const events: unknown[] = [];
    const socket = new WebSocket(`${host.url.replace('http', 'ws')}/__tejghea/events`, [EVENTS_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${host.secret}`], { origin: host.url });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.on('message', (data) => events.push(JSON.parse(String(data))));
    // A write through the bridge: the engine says the outbox changed, to every open page.
    expect(await (await call('clients.create', { type: 'person', name: 'Ion', country: 'RO' })).json()).toMatchObject({ ok: true });
    await expect.poll(() => events.some((e) => (e as { event: string }).event === 'outbox.changed')).toBe(true);
    socket.close();
    // The database is in the data folder given.
    expect(running.services.store.raw.name).toBe(join(dataDir, 'tejghea.sqlite'));
  });
});
