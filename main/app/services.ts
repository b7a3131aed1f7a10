import { mkdirSync } from 'node:fs';
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
}

export interface RunningServices extends MainServices {
  /** Outbox items found in flight at start (the previous process died mid-request). */
  recoveredAtStart: number;
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
    close: async () => {
      await engine.stop();
      store.close();
    },
  };
}
