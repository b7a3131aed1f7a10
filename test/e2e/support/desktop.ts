import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningServices } from '../../../main/app/services';
import { buildBridgeScript } from '../../../main/web-host/bridge-bundle';
import type { WebHost } from '../../../main/web-host/server';
import { startWebHost, type StartWebHostOptions } from '../../../main/web-host/start';
import { launchChromium } from './browser';
import { ensureRendererBuilt } from './build';

/**
 * The desktop app for the end-to-end tests, exactly as `npm run start:web` runs it: the same
 * `startWebHost` of main/web-host/start.ts (main-process services over a fresh data folder, the web
 * host serving dist/renderer with its bridge on 127.0.0.1, per-run secret, origin checks), and
 * Chromium opening the address the host prints.
 */
export interface Desktop {
  page: Page;
  browser: Browser;
  context: BrowserContext;
  url: string;
  host: WebHost;
  dataDir: string;
  services: RunningServices;
  /** Loads the app afresh at a route (`#/invoices`) and waits for the shell. */
  open(hash: string): Promise<void>;
  close(): Promise<void>;
}

export interface DesktopOptions {
  /** Absent: no service preset, the app opens on its first-run screen. */
  apiUrl?: string;
  dataDir: string;
  viewport?: { width: number; height: number };
  deviceName?: string;
  /** Sync engine timings for tests (fast reconnect probes). */
  engine?: NonNullable<StartWebHostOptions['services']>['engine'];
  /** The embedded service's environment (ANAF_PUBLIC_URL of the simulator); default: none of this process's. */
  embeddedEnv?: NodeJS.ProcessEnv;
}

let bridgeScript: Promise<string> | undefined;

export async function startDesktop(options: DesktopOptions): Promise<Desktop> {
  ensureRendererBuilt();
  bridgeScript ??= buildBridgeScript();
  const running = await startWebHost({
    dataDir: options.dataDir,
    ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}),
    port: 0,
    bridgeScript,
    services: {
      device: { name: options.deviceName ?? 'Casa 1', platform: 'linux' },
      ...(options.engine ? { engine: options.engine } : {}),
      embeddedEnv: options.embeddedEnv ?? {},
    },
  });
  const { host, services } = running;
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1366, height: 820 }, locale: 'ro-RO', timezoneId: 'Europe/Bucharest' });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error('[console]', m.text());
  });
  // The address the host prints: the secret travels in the fragment and is kept for the tab.
  await page.goto(host.openUrl);
  await page.waitForSelector('[data-testid=screen-title], [data-testid=first-run]');
  return {
    page,
    browser,
    context,
    url: host.url,
    host,
    dataDir: options.dataDir,
    services,
    open: async (hash: string) => {
      // A real page load each time, so no screen state carries over from one step to the next.
      await page.goto('about:blank');
      await page.goto(`${host.url}/${hash}`);
      await page.waitForSelector('[data-testid=screen-title]');
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      await running.close();
    },
  };
}
