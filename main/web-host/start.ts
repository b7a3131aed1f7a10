import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EventHub } from '../app/event-hub';
import { createMainServices, type RunningServices, type ServicesConfig } from '../app/services';
import { createRouter } from '../ipc/index';
import { senderCheck } from '../ipc/sender';
import { FileSecretStore } from '../secrets/file-store';
import { buildBridgeScript } from './bridge-bundle';
import { startWebHost as startBridgeServer, type WebHost } from './server';

/**
 * `npm run start:web`: the main services in a plain Node process, the renderer in any browser on this
 * machine, the same IPC contract over a loopback bridge. Configuration (environment):
 *   TEJGHEA_DATA_DIR  data folder (default ./.data)
 *   TEJGHEA_API_URL   API base with /v1; unset: the first-run screen offers the embedded service or a remote one
 *   PORT              default 5199
 *   HOST              default 127.0.0.1 (loopback only: other values are refused)
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

export const DEFAULT_API_URL = 'https://api.tejghea.ro/v1';

export interface StartWebHostOptions {
  dataDir: string;
  /**
   * API base with /v1, until the user sets another in Settings. Absent: no service is preset, and
   * the first-run screen asks ("Pe acest calculator" or "Conectare la un serviciu").
   */
  apiUrl?: string;
  /** Loopback only (see server.ts). */
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** The built renderer; default dist/renderer of this checkout. */
  rendererDir?: string;
  /** The compiled bridge script, when the caller already built it (tests start many hosts). */
  bridgeScript?: string | Promise<string>;
  /** Passed on to the main services (device identity, engine timings, timers). */
  services?: Partial<Omit<ServicesConfig, 'dataDir' | 'defaultApiUrl' | 'secrets' | 'host' | 'emit' | 'presetService'>>;
}

export interface RunningWebHost {
  services: RunningServices;
  host: WebHost;
  /** Host and services, in that order (no call arrives at closed services). */
  close(): Promise<void>;
}

/**
 * The web host as one piece: the main services over `dataDir` (secrets in a 0600 file there), the
 * IPC router that accepts calls from the host's own origin only, the loopback bridge serving the
 * renderer, and the engine's events fanned out to the page's sockets.
 */
export async function startWebHost(options: StartWebHostOptions): Promise<RunningWebHost> {
  const hub = new EventHub();
  // The port is known once listening: the sender check reads the origins then.
  let allowedOrigins: string[] = [];
  const services = createMainServices({
    ...options.services,
    dataDir: options.dataDir,
    defaultApiUrl: options.apiUrl ?? DEFAULT_API_URL,
    presetService: options.apiUrl !== undefined,
    secrets: new FileSecretStore(options.dataDir),
    host: { kind: 'web' },
    emit: hub.emit,
  });
  try {
    await services.ready();
    const router = createRouter(services, (sender) => senderCheck(allowedOrigins)(sender));
    const host = await startBridgeServer({
      router,
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 5199,
      rendererDir: options.rendererDir ?? join(root, 'dist', 'renderer'),
      bridgeScript: await (options.bridgeScript ?? buildBridgeScript()),
    });
    allowedOrigins = host.origins;
    const unsubscribe = hub.subscribe(host.broadcast);
    return {
      services,
      host,
      close: async () => {
        unsubscribe();
        await host.close();
        await services.close();
      },
    };
  } catch (error) {
    await services.close();
    throw error;
  }
}

async function main(): Promise<void> {
  const dataDir = process.env.TEJGHEA_DATA_DIR ?? join(root, '.data');
  const running = await startWebHost({
    dataDir,
    ...(process.env.TEJGHEA_API_URL ? { apiUrl: process.env.TEJGHEA_API_URL } : {}),
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 5199),
  });
  const embedded = running.services.embedded.loopbackBase;
  const service = embedded ? `the service on this computer (${embedded})` : running.services.presetService ? `API ${running.services.settings.defaultApiUrl}` : 'no service yet (the first screen asks)';
  console.log(`Tejghea web host: data in ${dataDir}, ${service}`);
  console.log(`Port ${running.host.url.split(':').pop()}: change it with PORT=…, the data folder with TEJGHEA_DATA_DIR=…`);
  console.log(`Open ${running.host.openUrl}`);
  const shutdown = async () => {
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

// Run as a program (`tsx main/web-host/start.ts`), not when imported (tests, benchmarks).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
