import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../server/platform/api-keys';
import { getSetting } from '../../db/queries/settings';
import type { ReadDb } from '../../db/store';
import { AppError } from '../../errors';
import { OWN_KEY_ID } from './first-run';
import type { EmbeddedService } from './service';

export interface CounterKey {
  id: string;
  /** The key this desktop itself uses. */
  own: boolean;
  name: string;
  key_hint: string;
  status: 'active' | 'expired' | 'revoked';
  created_at: number;
  revoked_at: number | null;
}

const zCompany = z.object({ id: z.string(), name: z.string(), cui: z.string() });

function ownCompany(db: ReadDb): z.infer<typeof zCompany> {
  const company = getSetting(db, 'company', zCompany);
  if (!company) throw new AppError('conflict', 'invalid_state', 'The company is not set up yet|Firma nu este încă configurată');
  return company;
}

function running(embedded: EmbeddedService): EmbeddedService {
  if (!embedded.running) throw new AppError('unavailable', 'not_configured', 'The service on this computer is not running|Serviciul de pe acest calculator nu rulează');
  return embedded;
}

/**
 * The owner's keys for the shop's other counters, made straight in the embedded service's database
 * with the service's own functions (the secret is hashed there and shown once, here). Only the keys
 * of this desktop's company are listed or revoked.
 */
export async function listCounterKeys(embedded: EmbeddedService, db: ReadDb): Promise<CounterKey[]> {
  const company = ownCompany(db);
  const own = getSetting(db, OWN_KEY_ID, z.string()) ?? null;
  const keys = await listApiKeys(running(embedded).db(), Math.floor(Date.now() / 1000));
  return keys
    .filter((k) => k.company_id === company.id)
    .map((k) => ({ id: k.id, own: k.id === own, name: k.name, key_hint: k.key_hint, status: k.status, created_at: k.created_at, revoked_at: k.revoked_at }));
}

export async function createCounterKey(embedded: EmbeddedService, db: ReadDb, name: string): Promise<{ id: string; name: string; api_key: string }> {
  const company = ownCompany(db);
  const created = await createApiKey(running(embedded).db(), { companyName: company.name, cui: company.cui, keyName: name.trim(), now: Math.floor(Date.now() / 1000) });
  return { id: created.key_id, name: name.trim(), api_key: created.api_key };
}

export async function revokeCounterKey(embedded: EmbeddedService, db: ReadDb, id: string): Promise<boolean> {
  const company = ownCompany(db);
  if (getSetting(db, OWN_KEY_ID, z.string()) === id) {
    throw new AppError('conflict', 'invalid_state', 'This is the key of this computer|Aceasta este cheia acestui calculator');
  }
  const mine = (await listApiKeys(running(embedded).db(), Math.floor(Date.now() / 1000))).some((k) => k.id === id && k.company_id === company.id);
  if (!mine) return false;
  return revokeApiKey(embedded.db(), id, Math.floor(Date.now() / 1000));
}
