import { networkInterfaces } from 'node:os';
import { z } from 'zod';
import { deleteSetting, getSetting, setSetting } from '../../db/queries/settings';
import type { ReadDb, Store } from '../../db/store';
import type { SecretStore } from '../../secrets/index';
import { API_KEY_SECRET } from '../settings';
import { ALL_INTERFACES, LOOPBACK, type EmbeddedService } from './service';

/** Which service this desktop syncs with, as chosen on the first-run screen. */
export const zServiceMode = z.enum(['embedded', 'remote']);
export type ServiceMode = z.infer<typeof zServiceMode>;

const zEmbeddedChoice = z.object({ port: z.number().int().min(1).max(65535), lan: z.boolean() });
export type EmbeddedChoice = z.infer<typeof zEmbeddedChoice>;

const MODE = 'service_mode';
const EMBEDDED = 'embedded_service';

export function serviceMode(db: ReadDb): ServiceMode | null {
  return getSetting(db, MODE, zServiceMode) ?? null;
}

export function embeddedChoice(db: ReadDb): EmbeddedChoice | null {
  return getSetting(db, EMBEDDED, zEmbeddedChoice) ?? null;
}

export interface SetupDeps {
  store: Store;
  secrets: SecretStore;
  embedded: EmbeddedService;
  /**
   * The host was started with a service address (TEJGHEA_API_URL, or a test harness): the user
   * configures the key in Settings as before, and the first-run screen stays away.
   */
  presetService: boolean;
}

/** The first-run screen shows while no service is configured: no key, no address given to the host. */
export function needsFirstRun(deps: SetupDeps): boolean {
  return !deps.presetService && deps.secrets.get(API_KEY_SECRET) === null;
}

/**
 * Starts the embedded service when it is the chosen one: on the port it had (so the address a second
 * counter typed keeps working), bound to the network only when the owner opened it. The API URL is
 * written again because a taken port makes the service move.
 */
export async function startChosenEmbedded(deps: SetupDeps): Promise<boolean> {
  if (serviceMode(deps.store.reader) !== 'embedded') return false;
  const choice = embeddedChoice(deps.store.reader);
  // The address was changed in Settings to another service (the firm moved to a hosted one): this
  // computer no longer serves, and its own service must not take the address back.
  const url = getSetting(deps.store.reader, 'api_url', z.string());
  if (choice && url !== undefined && url !== `http://${LOOPBACK}:${choice.port}/v1`) {
    rememberMode(deps.store, 'remote');
    return false;
  }
  await listenAndRemember(deps, { port: choice?.port ?? 0, lan: choice?.lan ?? false });
  return true;
}

export async function listenAndRemember(deps: SetupDeps, wanted: { port: number; lan: boolean }): Promise<string> {
  const got = await deps.embedded.start({ host: wanted.lan ? ALL_INTERFACES : LOOPBACK, port: wanted.port });
  const base = `http://${LOOPBACK}:${got.port}/v1`;
  deps.store.write((db) => {
    setSetting(db, EMBEDDED, { port: got.port, lan: wanted.lan });
    setSetting(db, 'api_url', base);
  });
  return base;
}

export function rememberMode(store: Store, mode: ServiceMode): void {
  store.write((db) => {
    setSetting(db, MODE, mode);
    if (mode === 'remote') deleteSetting(db, EMBEDDED);
  });
}

/**
 * The addresses a second counter in the shop types: this machine's IPv4 addresses on its networks
 * (loopback and link-local left out), with the embedded service's port.
 */
export function lanAddresses(port: number): string[] {
  const out: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family !== 'IPv4' || entry.internal || entry.address.startsWith('169.254.')) continue;
      out.push(`http://${entry.address}:${port}/v1`);
    }
  }
  return out;
}
