import type { Store } from '../db/store';
import type { LocalContext } from '../local/context';
import type { EmbeddedService } from '../local/embedded-service/service';
import type { SettingsDeps } from '../local/settings';
import type { SecretStore } from '../secrets/index';
import type { SyncEngine } from '../sync/engine';

/** What only a host can do (Electron: PDF through Chromium; the web host cannot). */
export interface HostServices {
  kind: 'electron' | 'web';
  savePdf?: (html: string, fileName: string) => Promise<{ saved: boolean; path: string | null }>;
  /** Saves bytes made elsewhere (a supplier's e-Factura PDF from ANAF) where the user chooses. */
  saveFile?: (bytes: Uint8Array, fileName: string) => Promise<{ saved: boolean; path: string | null }>;
}

/** Everything the handlers use: built once per process by main/app/services.ts. */
export interface MainServices {
  appVersion: string;
  ctx: LocalContext;
  store: Store;
  engine: SyncEngine;
  secrets: SecretStore;
  settings: SettingsDeps;
  host: HostServices;
  /** A local change was written: the engine pushes it soon. */
  changed(): void;
  /** The Invoicing Service this desktop can run itself ("Pe acest calculator"); idle unless chosen. */
  embedded: EmbeddedService;
  /** The host was given a service address: no first-run screen (see embedded-service/choice.ts). */
  presetService: boolean;
}
