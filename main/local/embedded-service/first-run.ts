import { z } from 'zod';
import { validateCui } from '../../../shared/ro/cui';
import type { CompanyProfileUpdate } from '../../../shared/schemas/efactura';
import { createApiKey, revokeApiKey } from '../../../server/platform/api-keys';
import { getSetting, setSetting } from '../../db/queries/settings';
import { AppError } from '../../errors';
import type { SyncEngine } from '../../sync/engine';
import type { LocalContext } from '../context';
import { API_KEY_SECRET } from '../settings';
import { embeddedChoice, listenAndRemember, rememberMode, type SetupDeps } from './choice';
import { checkRemoteService, type RemoteCheck } from './remote-check';

export interface FirstRunDeps extends SetupDeps {
  ctx: LocalContext;
  engine: SyncEngine;
}

const zStoredCompany = z.object({ name: z.string(), cui: z.string() });

export interface EmbeddedCompanyInput {
  cui: string;
  name: string;
  profile: Omit<CompanyProfileUpdate, 'name'>;
}

/**
 * "Pe acest calculator": the embedded service starts (loopback only), the company and this counter's
 * key are made in its database, the key goes to the secret store and the API URL to the settings,
 * and from then on the desktop talks to it over HTTP like to any service. The profile (Reg. Com.,
 * address, VAT) is written through the API, as every later correction will be.
 */
export async function createEmbeddedCompany(deps: FirstRunDeps, input: EmbeddedCompanyInput): Promise<void> {
  const cui = validateCui(input.cui);
  if (!cui.ok) {
    throw new AppError('validation_error', 'validation_error', 'Invalid CUI|CUI invalid', {
      cui: cui.reason === 'checksum' ? 'The control digit does not match|Cifra de control nu se potrivește' : 'CUI must be 2 to 10 digits|CUI are 2-10 cifre',
    });
  }
  // The data on this computer already belongs to a firm (its key was cleared): only that firm may come back.
  const local = getSetting(deps.store.reader, 'company', zStoredCompany);
  if (local && local.cui !== cui.value) {
    throw new AppError('validation_error', 'validation_error', 'Another firm|Altă firmă', {
      cui: `The data on this computer belongs to ${local.name} (${local.cui})|Datele de pe acest calculator sunt ale firmei ${local.name} (${local.cui})`,
    });
  }
  const choice = embeddedChoice(deps.store.reader);
  await listenAndRemember(deps, { port: choice?.port ?? 0, lan: choice?.lan ?? false });
  const key = await createApiKey(deps.embedded.db(), {
    companyName: input.name.trim(),
    cui: cui.value,
    keyName: `Casa: ${deps.ctx.device.name}`,
    now: Math.floor(Date.now() / 1000),
  });
  keepKey(deps, key.api_key);
  rememberMode(deps.store, 'embedded');
  // This computer's previous key (cleared from the secret store, so no one holds it any more) stops working.
  const previous = getSetting(deps.store.reader, OWN_KEY_ID, z.string());
  if (previous && previous !== key.key_id) await revokeApiKey(deps.embedded.db(), previous, Math.floor(Date.now() / 1000));
  deps.store.write((db) => setSetting(db, OWN_KEY_ID, key.key_id));
  const verified = await deps.engine.verifyKey();
  if (!verified.ok) throw verified.error;
  await deps.engine.updateCompanyProfile({ name: input.name.trim(), ...input.profile });
  deps.engine.nudge('full');
}

/**
 * The key goes to the secret store only. Electron refuses to store it where the system offers no
 * keychain (Linux without one): said in words, never written in clear instead.
 */
function keepKey(deps: FirstRunDeps, key: string): void {
  try {
    deps.secrets.set(API_KEY_SECRET, key);
  } catch {
    throw new AppError(
      'unavailable',
      'secret_store_unavailable',
      'This system offers no keychain to keep the API key safely: install or unlock one (e.g. GNOME Keyring) and try again|Sistemul nu oferă un loc sigur pentru cheia API (keychain): instalați sau deblocați unul (de ex. GNOME Keyring) și încercați din nou',
    );
  }
}

/** The id of this desktop's own key in the embedded service: the owner cannot revoke it by mistake. */
export const OWN_KEY_ID = 'embedded_own_key_id';

/**
 * "Conectare la un serviciu": nothing is saved until the service answered /me with this key, and the
 * key's company is the one the local data already belongs to (if it belongs to any).
 */
export async function connectRemoteService(deps: FirstRunDeps, input: { base_url: string; api_key: string }): Promise<RemoteCheck> {
  const localCompany = getSetting(deps.store.reader, 'company', zStoredCompany) ?? null;
  const check = await checkRemoteService({ ...input, localCompany });
  if (!check.ok) return check;
  deps.store.write((db) => setSetting(db, 'api_url', check.base_url));
  keepKey(deps, input.api_key);
  rememberMode(deps.store, 'remote');
  // A desktop that ran the embedded service and now syncs elsewhere stops serving.
  await deps.embedded.close();
  const verified = await deps.engine.verifyKey();
  if (!verified.ok && verified.error.type !== 'unavailable') throw verified.error;
  deps.engine.nudge('full');
  return check;
}
