import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createRouter } from '../../main/ipc/index';
import { senderCheck } from '../../main/ipc/sender';
import { buildBridgeScript } from '../../main/web-host/bridge-bundle';
import { startWebHost, type WebHost } from '../../main/web-host/server';
import { EventHub } from '../../main/app/event-hub';
import { createWebBridge } from '../../preload/web-bridge';
import { EVENTS_PROTOCOL, INVOKE_PATH, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX } from '../../shared/ipc/web-transport';
import { openDevice, removeTempDirs, tempDir, type Device } from './support/harness';

describe('web host bridge over real HTTP and WebSocket', () => {
  let device: Device;
  let host: WebHost;
  let bridgeScript: string;
  const hub = new EventHub();
  beforeAll(async () => {
    const dataDir = tempDir();
    const rendererDir = join(dataDir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>T</title><script type="module" src="/assets/app.js"></script></head><body></body></html>');
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    device = openDevice('http://127.0.0.1:9/v1', null, { emit: hub.emit });
    let origins: string[] = [];
    const router = createRouter(device.services, (sender) => senderCheck(origins)(sender));
    bridgeScript = await buildBridgeScript();
    host = await startWebHost({ router, port: 0, rendererDir, bridgeScript });
    origins = host.origins;
    hub.subscribe(host.broadcast);
  });
  afterAll(async () => {
    await host?.close();
    await device?.close();
    removeTempDirs();
  });

  const post = (body: unknown, headers: Record<string, string>) =>
    fetch(`${host.url}${INVOKE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers a call that carries the secret from the app origin', async () => {
    const res = await post({ channel: 'app.info', payload: null }, { [TOKEN_HEADER]: host.secret, origin: host.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, value: { host: 'web' } });
  });

  it('refuses calls without the secret, with a wrong one, from another origin or Host', async () => {
    const noToken = await post({ channel: 'app.info' }, { origin: host.url });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await post({ channel: 'app.info' }, { origin: host.url, [TOKEN_HEADER]: `${host.secret.slice(0, -1)}x` })).status).toBe(401);
    const evil = await post({ channel: 'app.info' }, { origin: 'http://evil.example', [TOKEN_HEADER]: host.secret });
    expect(evil.status).toBe(403);
    expect((await post({ channel: 'app.info' }, { [TOKEN_HEADER]: host.secret })).status).toBe(403);
    // DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends its own Host (fetch cannot forge one: raw HTTP).
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { hostname: '127.0.0.1', port: host.port, path: INVOKE_PATH, method: 'POST',
          headers: { 'content-type': 'application/json', host: `evil.example:${host.port}`, origin: host.url, [TOKEN_HEADER]: host.secret } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ channel: 'app.info' }));
    });
    expect(rebound).toBe(403);
  });

  it('carries the same contract checks: unknown channels and bad payloads are refused', async () => {
    const headers = { [TOKEN_HEADER]: host.secret, origin: host.url };
    expect(await (await post({ channel: 'nope' }, headers)).json()).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(await (await post({ channel: 'clients.create', payload: { name: 1 } }, headers)).json()).toMatchObject({ ok: false, error: { type: 'validation_error' } });
  });

  it('delivers events over the socket only to a client holding the secret', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${host.url.replace('http', 'ws')}/__tejghea/events`, [EVENTS_PROTOCOL], { origin: host.url });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(401);
    const wrongOrigin = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${host.url.replace('http', 'ws')}/__tejghea/events`, [EVENTS_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${host.secret}`], { origin: 'http://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(wrongOrigin).toBe(403);
  });

  it('the browser side of the bridge (preload/web-bridge.ts) offers the same window.tejghea API', async () => {
    // What a browser adds by itself: the Origin header on calls and on the socket.
    const browserFetch: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: host.url } });
    class BrowserSocket extends WebSocket {
      constructor(url: string, protocols: string[]) {
        super(url, protocols, { origin: host.url });
      }
    }
    const bridge = createWebBridge({ origin: host.url, token: host.secret, fetch: browserFetch, WebSocket: BrowserSocket as never, reconnectMs: 50 });
    try {
      const events: unknown[] = [];
      bridge.on('data.changed', (p) => events.push(p));
      // Give the socket a moment to open before the change.
      await new Promise((r) => setTimeout(r, 150));
      const reply = (await bridge.invoke('clients.create', { type: 'person', name: 'Prin punte', country: 'RO' })) as { ok: boolean; value: { name: string } };
      expect(reply.ok).toBe(true);
      expect(reply.value.name).toBe('Prin punte');
      device.services.engine.emitChanged(['clients']);
      await new Promise((r) => setTimeout(r, 150));
      expect(events).toContainEqual({ domains: ['clients'] });
      expect(await bridge.invoke('fs.read')).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    } finally {
      bridge.close();
    }
  });

  it('serves the built renderer with the bridge injected first and a strict CSP', async () => {
    const page = await fetch(`${host.url}/invoices/123`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<head><script src="\/__tejghea\/bridge.js"><\/script><title>/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect((await fetch(`${host.url}/assets/app.js`)).status).toBe(200);
    expect((await fetch(`${host.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${host.url}/..%2f..%2fetc%2fpasswd`)).status).not.toBe(200);
    expect((await fetch(`${host.url}/__tejghea/bridge.js`)).status).toBe(200);
  });

  it('the bridge script installs window.tejghea from the URL fragment and removes the secret from the address bar', () => {
    const storage = new Map<string, string>();
    let replaced: string | null = null;
    const window: Record<string, unknown> = {
      location: { origin: host.url, hash: `#token=${host.secret}`, pathname: '/', search: '' },
      sessionStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v) },
      history: { replaceState: (_d: unknown, _u: string, url: string) => { replaced = url; } },
      fetch: () => Promise.reject(new Error('not in this test')),
      WebSocket: class { onmessage = null; onclose = null; onerror = null; close() {} },
    };
    runInNewContext(bridgeScript, { window, console, setTimeout });
    expect(typeof (window.tejghea as { invoke: unknown }).invoke).toBe('function');
    expect(replaced).toBe('/');
    expect(storage.get('tejghea.token')).toBe(host.secret);
  });

  it('says clearly when the renderer is not built', async () => {
    const empty = await startWebHost({ router: createRouter(device.services, () => false), port: 0, rendererDir: join(tempDir(), 'missing'), bridgeScript });
    try {
      const res = await fetch(`${empty.url}/`);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/npm run build:renderer/);
    } finally {
      await empty.close();
    }
  });

  it('binds to loopback only', async () => {
    await expect(startWebHost({ router: createRouter(device.services, () => false), host: '0.0.0.0', port: 0, rendererDir: '.', bridgeScript })).rejects.toThrow(/loopback/);
  });
});
