import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createMainServices } from '../app/services';
import { createRouter } from '../ipc/index';
import { senderCheck } from '../ipc/sender';
import { FileSecretStore } from '../secrets/file-store';
import { buildBridgeScript } from './bridge-bundle';
import { EventHub } from '../app/event-hub';
import { startWebHost } from './server';

/**
 * `npm run start:web`: the main services in a plain Node process, the renderer in any browser on this
 * machine, the same IPC contract over a loopback bridge. Configuration (environment):
 *   TEJGHEA_DATA_DIR  data folder (default ./.data)
 *   TEJGHEA_API_URL   API base with /v1 (default https://api.tejghea.ro/v1)
 *   PORT              default 5199
 *   HOST              default 127.0.0.1 (loopback only: other values are refused)
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

async function main(): Promise<void> {
  const dataDir = process.env.TEJGHEA_DATA_DIR ?? join(root, '.data');
  const hub = new EventHub();
  let allowedOrigins: string[] = [];
  const services = createMainServices({
    dataDir,
    defaultApiUrl: process.env.TEJGHEA_API_URL ?? 'https://api.tejghea.ro/v1',
    secrets: new FileSecretStore(dataDir),
    host: { kind: 'web' },
    emit: hub.emit,
  });
  // The port is known once listening: the check reads the origins then.
  const router = createRouter(services, (sender) => senderCheck(allowedOrigins)(sender));
  const host = await startWebHost({
    router,
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 5199),
    rendererDir: join(root, 'dist', 'renderer'),
    bridgeScript: await buildBridgeScript(),
  });
  allowedOrigins = host.origins;
  hub.subscribe(host.broadcast);
  console.log(`Tejghea web host: data in ${dataDir}, API ${services.settings.defaultApiUrl}`);
  console.log(`Open ${host.openUrl}`);
  const shutdown = async () => {
    await host.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
