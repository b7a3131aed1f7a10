import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../../server/platform/clock';
import { createMainServices, type RunningServices, type ServicesConfig } from '../../../main/app/services';
import { createRouter } from '../../../main/ipc/index';
import type { IpcRouter, SenderInfo } from '../../../main/ipc/router';
import { API_KEY_SECRET } from '../../../main/local/settings';
import { FileSecretStore } from '../../../main/secrets/file-store';
import type { ChannelInput, ChannelOutput } from '../../../shared/ipc/contract';
import type { ChannelName } from '../../../shared/ipc/channels';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startTestServer, type TestServer } from '../../support/server';

/** The real server on loopback, with a system clock (dates agree with the device) and roomy limits. */
export async function startServer(rateLimits = { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 }): Promise<TestServer> {
  return startTestServer('sqlite', { clock: systemClock, rateLimits });
}

export interface ServerBehindProxy {
  server: TestServer;
  proxy: FaultProxy;
}

/** The real server as a device reaches it: behind a proxy that the test can cut, slow or make fail. */
export async function startServerBehindProxy(): Promise<ServerBehindProxy> {
  const server = await startServer();
  return { server, proxy: await startFaultProxy(server.url) };
}

/** Closes both (either may be missing after a failed start) and removes the devices' temp folders. */
export async function closeServerBehindProxy(stack: Partial<ServerBehindProxy>): Promise<void> {
  await stack.proxy?.close();
  await stack.server?.close();
  removeTempDirs();
}

/**
 * Called in a describe: starts the server behind its proxy before the block's tests (handing both to
 * `started`, which keeps them for the tests), puts the proxy up again before each test, and closes
 * both after the block.
 */
export function serverBehindProxyForTests(started: (stack: ServerBehindProxy) => void): void {
  let stack: ServerBehindProxy | undefined;
  beforeAll(async () => {
    stack = await startServerBehindProxy();
    started(stack);
  });
  beforeEach(() => stack?.proxy.setDown(false));
  afterAll(() => closeServerBehindProxy(stack ?? {}));
}

export interface Company {
  apiKey: string;
  companyId: string;
  cui: string;
}

let cuiCounter = 0;

export async function newCompany(server: TestServer): Promise<Company> {
  cuiCounter += 1;
  const cui = String(20_000_000 + process.pid * 1000 + cuiCounter);
  const key = await server.key({ cui });
  return { apiKey: key.api_key, companyId: key.company_id, cui };
}

export async function createSeries(server: TestServer, apiKey: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await server.api(apiKey, 'POST', '/invoice-series', { name, is_primary: true, format: '{name}-{year}-{number:4}', ...extra });
  if (res.status >= 300) throw new Error(`series: ${res.status} ${res.text}`);
  return res.body.data.id as string;
}

export const tempDirs: string[] = [];
export function tempDir(prefix = 'tejghea-dev-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export const APP_SENDER: SenderInfo = { host: 'web', url: 'http://127.0.0.1', isMainFrame: true };

export interface Device {
  services: RunningServices;
  router: IpcRouter;
  dataDir: string;
  /** A call through the real IPC router, as the renderer makes it; throws on `{ ok: false }`. */
  call<C extends ChannelName>(channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>>;
  close(): Promise<void>;
}

/** A device (the main services over its own data folder) talking to `apiBase`, with timers off. */
export function openDevice(apiBase: string, apiKey: string | null, options: { dataDir?: string } & Partial<ServicesConfig> = {}): Device {
  const dataDir = options.dataDir ?? tempDir();
  const secrets = new FileSecretStore(dataDir);
  if (apiKey) secrets.set(API_KEY_SECRET, apiKey);
  const services = createMainServices({
    dataDir,
    defaultApiUrl: apiBase,
    secrets,
    host: { kind: 'web' },
    timers: false,
    synchronous: 'NORMAL',
    api: { timeoutMs: 3000, retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200 } },
    // The test server's limits are raised; the creates budget has no header, so the device is told.
    pacer: { createsPerMinute: 1_000_000 },
    ...options,
  });
  const router = createRouter(services, () => true);
  return {
    services,
    router,
    dataDir,
    call: async (channel, input) => {
      const reply = await router.dispatch(channel, input, APP_SENDER);
      if (!reply.ok) throw Object.assign(new Error(`${channel}: ${reply.error.code} ${reply.error.message} ${JSON.stringify(reply.error.fields ?? {})}`), { ipc: reply.error });
      return reply.value as ChannelOutput<typeof channel>;
    },
    close: () => services.close(),
  };
}

export const LINE = { description: 'Pâine albă', quantity: 2, unit_price_bani: 450, vat_rate: 11 };

/**
 * A firm with one series, and a device that has synced and keeps a reserve of 3 of its numbers (refilled
 * at 1 left): what a test needs before it takes the proxy down and issues offline.
 */
export async function deviceWithReserve(server: TestServer, proxy: FaultProxy, seriesName: string): Promise<{ company: Company; seriesId: string; device: Device }> {
  const company = await newCompany(server);
  const seriesId = await createSeries(server, company.apiKey, seriesName);
  const device = openDevice(proxy.base, company.apiKey);
  try {
    await device.call('sync.now');
    await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 3, low_water: 1 });
  } catch (error) {
    await device.close();
    throw error;
  }
  return { company, seriesId, device };
}
