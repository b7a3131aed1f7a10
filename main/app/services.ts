import { mkdirSync } from 'node:fs';
import type { PdfRenderer } from '../../server/modules/documents-pdf/pdf-renderer';
import { join } from 'node:path';
import { ApiClient, type ApiClientOptions } from '../api/client';
import { RatePacer, type PacerOptions } from '../api/pacer';
import { migrate } from '../db/migrate';
import { selectedWorkPointId } from '../db/queries/settings';
import { Store } from '../db/store';
import type { HostServices, MainServices } from '../ipc/services';
import { createLocalContext, systemClock, type Clock } from '../local/context';
import { API_KEY_SECRET, apiUrl, readSettings, syncIntervalSeconds, type SettingsDeps } from '../local/settings';
import type { SecretStore } from '../secrets/index';
import { startChosenEmbedded } from '../local/embedded-service/choice';
import { EmbeddedService, SERVICE_FOLDER } from '../local/embedded-service/service';
import { loadDevice } from '../sync/device';
import { SyncEngine, type EngineOptions, type EventSink } from '../sync/engine';

export interface ServicesConfig {
  dataDir: string;
  /** TEJGHEA_API_URL: the default API base (with /v1) until the user sets another. */
  defaultApiUrl: string;
  secrets: SecretStore;
  host: HostServices;
  appVersion?: string;
  emit?: EventSink;
  clock?: Clock;
  /** Background sync timers (on in the hosts, off in tests that drive passes themselves). */
  timers?: boolean;
  pacer?: PacerOptions;
  api?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'apiKey' | 'pacer'>>;
  engine?: Partial<Omit<EngineOptions, 'ctx' | 'api' | 'emit'>>;
  synchronous?: 'FULL' | 'NORMAL';
  /** better-sqlite3 built for Electron's ABI. */
  nativeBinding?: string;
  device?: { name?: string; platform?: string };
  /**
   * The host was started with a service address (TEJGHEA_API_URL): the first-run screen is not
   * shown and the key is entered in Settings, as for a hosted service.
   */
  presetService?: boolean;
  /** Where the embedded service reads ANAF_* and its knobs from (default: this process's environment). */
  embeddedEnv?: NodeJS.ProcessEnv;
  /** How the embedded service prints PDFs (Electron's printToPDF); default: its own Chromium from CHROMIUM_PATH. */
  pdfRenderer?: PdfRenderer;
}

export interface RunningServices extends MainServices {
  /** Outbox items found in flight at start (the previous process died mid-request). */
  recoveredAtStart: number;
  /** Starts the embedded service when it is the chosen one; the hosts await it before opening the UI. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const DATABASE_FILE = 'tejghea.sqlite';

/**
 * The main-process services over one data folder: the database (migrated, or refusing to start when
 * it was written by a newer build), the device identity, the API client, the sync engine. Both hosts
 * call this; only the `host` part differs.
 */
export function createMainServices(config: ServicesConfig): RunningServices {
  mkdirSync(config.dataDir, { recursive: true });
  const store = new Store({
    path: join(config.dataDir, DATABASE_FILE),
    synchronous: config.synchronous ?? 'FULL',
    ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
  });
  try {
    migrate(store);
  } catch (error) {
    store.close();
    throw error;
  }
  const device = loadDevice(store, config.device ?? {});
  const ctx = createLocalContext(store, device, config.clock ?? systemClock);
  const settings: SettingsDeps = { ctx, secrets: config.secrets, defaultApiUrl: config.defaultApiUrl };
  const api = new ApiClient({
    ...config.api,
    // Read at every request: a new URL or key applies at once.
    get baseUrl() {
      return apiUrl(store.reader, config.defaultApiUrl);
    },
    apiKey: () => config.secrets.get(API_KEY_SECRET),
    // Every request acts on the work point chosen on this device (settings.update work_point_id).
    workPointId: () => selectedWorkPointId(store.reader),
    pacer: new RatePacer(config.pacer),
    locale: readSettings(settings).locale,
  });
  const engine = new SyncEngine({
    ctx,
    api,
    ...(config.emit ? { emit: config.emit } : {}),
    timers: config.timers ?? true,
    syncIntervalSeconds: () => syncIntervalSeconds(store.reader),
    ...config.engine,
  });
  const embedded = new EmbeddedService({
    dir: join(config.dataDir, SERVICE_FOLDER),
    env: config.embeddedEnv ?? process.env,
    ...(config.nativeBinding ? { nativeBinding: config.nativeBinding } : {}),
    ...(config.pdfRenderer ? { pdfRenderer: config.pdfRenderer } : {}),
  });
  const presetService = config.presetService ?? false;
  const recoveredAtStart = engine.start();
  return {
    recoveredAtStart,
    appVersion: config.appVersion ?? '0.1.0',
    ctx,
    store,
    engine,
    secrets: config.secrets,
    settings,
    host: config.host,
    changed: () => engine.nudge('push'),
    embedded,
    presetService,
    ready: async () => {
      if (await startChosenEmbedded({ store, secrets: config.secrets, embedded, presetService })) engine.nudge('full');
    },
    close: async () => {
      // The engine first: its last pass may still be talking to the embedded service.
      await engine.stop();
      await embedded.close();
      store.close();
    },
  };
}
