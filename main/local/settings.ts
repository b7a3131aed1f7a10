import { z } from 'zod';
import type { Settings, zSettingsUpdate } from '../../shared/ipc/contract';
import { getSetting, setSetting } from '../db/queries/settings';
import type { ReadDb } from '../db/store';
import { zCompanyProfile, type CompanyProfile } from '../../shared/schemas/efactura';
import type { SecretStore } from '../secrets/index';
import { renameDevice } from '../sync/device';
import type { LocalContext } from './context';

/**
 * Local settings. Legal cash ceilings change by law: they are settings with defaults, never constants
 * (Legea 70/2015: 5,000 lei a day per partner between firms, 10,000 lei a day from a person).
 */
export const DEFAULTS = {
  locale: 'ro' as const,
  sync_interval_seconds: 300,
  cash_limits: { b2b_daily_bani: 500_000, b2c_daily_bani: 1_000_000 },
};

const zCompany = z.object({ id: z.string(), name: z.string(), cui: z.string() });
const zWorkPoint = z.object({ id: z.string(), name: z.string() });
const zCash = z.object({ b2b_daily_bani: z.number().int().min(0), b2c_daily_bani: z.number().int().min(0) });

export const API_KEY_SECRET = 'api_key';

export interface SettingsDeps {
  ctx: LocalContext;
  secrets: SecretStore;
  /** The API base URL from the environment (TEJGHEA_API_URL), used until the user sets another. */
  defaultApiUrl: string;
}

export function apiUrl(db: ReadDb, fallback: string): string {
  return getSetting(db, 'api_url', z.string()) ?? fallback;
}

export function syncIntervalSeconds(db: ReadDb): number {
  return getSetting(db, 'sync_interval_seconds', z.number().int()) ?? DEFAULTS.sync_interval_seconds;
}

export function readSettings(deps: SettingsDeps): Settings {
  const db = deps.ctx.store.reader;
  return {
    api_url: apiUrl(db, deps.defaultApiUrl),
    device: deps.ctx.device,
    locale: getSetting(db, 'locale', z.enum(['ro', 'en'])) ?? DEFAULTS.locale,
    default_series_id: getSetting(db, 'default_series_id', z.string().nullable()) ?? null,
    sync_interval_seconds: syncIntervalSeconds(db),
    cash_limits: getSetting(db, 'cash_limits', zCash) ?? DEFAULTS.cash_limits,
    efactura_environment: getSetting(db, 'efactura_environment', z.enum(['test', 'live'])) ?? 'test',
    has_api_key: deps.secrets.get(API_KEY_SECRET) !== null,
    company: getSetting(db, 'company', zCompany) ?? null,
    work_point: getSetting(db, 'work_point', zWorkPoint) ?? null,
  };
}

export function updateSettings(deps: SettingsDeps, patch: z.output<typeof zSettingsUpdate>): Settings {
  const current = readSettings(deps);
  if (patch.device_name !== undefined) deps.ctx.device = renameDevice(deps.ctx.store, deps.ctx.device, patch.device_name);
  deps.ctx.store.write((db) => {
    if (patch.api_url !== undefined) setSetting(db, 'api_url', patch.api_url.replace(/\/+$/, ''));
    if (patch.locale !== undefined) setSetting(db, 'locale', patch.locale);
    if (patch.default_series_id !== undefined) setSetting(db, 'default_series_id', patch.default_series_id);
    if (patch.sync_interval_seconds !== undefined) setSetting(db, 'sync_interval_seconds', patch.sync_interval_seconds);
    if (patch.cash_limits !== undefined) setSetting(db, 'cash_limits', { ...current.cash_limits, ...patch.cash_limits });
    if (patch.efactura_environment !== undefined) setSetting(db, 'efactura_environment', patch.efactura_environment);
  });
  return readSettings(deps);
}

/** What /me said about the key: shown in the settings, refreshed at every successful probe. */
export function rememberIdentity(ctx: LocalContext, me: { company: z.infer<typeof zCompany>; work_point: z.infer<typeof zWorkPoint> }): boolean {
  const db = ctx.store.reader;
  const same =
    JSON.stringify(getSetting(db, 'company', zCompany)) === JSON.stringify(me.company) &&
    JSON.stringify(getSetting(db, 'work_point', zWorkPoint)) === JSON.stringify(me.work_point);
  if (same) return false;
  ctx.store.write((w) => {
    setSetting(w, 'company', me.company);
    setSetting(w, 'work_point', me.work_point);
  });
  return true;
}

// A copy kept by a build before the two print mentions existed reads with their defaults until the next pull.
const zStoredProfile = zCompanyProfile.extend({
  capital_social_bani: zCompanyProfile.shape.capital_social_bani.default(null),
  vat_on_collection: zCompanyProfile.shape.vat_on_collection.default(false),
});

/** The seller data printed on documents, as last read from GET /company/profile. */
export function companyProfile(db: ReadDb): CompanyProfile | null {
  return getSetting(db, 'company_profile', zStoredProfile) ?? null;
}

export function rememberCompanyProfile(ctx: LocalContext, profile: CompanyProfile): boolean {
  if (JSON.stringify(companyProfile(ctx.store.reader)) === JSON.stringify(profile)) return false;
  ctx.store.write((db) => setSetting(db, 'company_profile', profile));
  return true;
}
