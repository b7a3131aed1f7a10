import { hash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import type { Db } from '../db/types';
import { newId, randomBase62 } from './ids';

export const KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{24}$/;

/**
 * Scope names are `<resource>:read` and `<resource>:write`; `*` grants everything and
 * `<resource>:*` both verbs of one resource. Write implies read.
 */
export const RESOURCES = [
  'clients', 'products', 'invoices', 'invoice_series', 'receipts', 'payments', 'expenses',
  'expense_categories', 'suppliers', 'supplier_bills', 'bank_accounts', 'currencies', 'languages',
  'vat_rates', 'efactura', 'fiscal_data', 'accounting', 'work_points', 'stock', 'webhooks',
] as const;
export type Resource = (typeof RESOURCES)[number];
export type Scope = `${Resource}:read` | `${Resource}:write`;

const SCOPE_NAMES = new Set<string>(['*', ...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:*`])]);

export const zScopeName = z.string().refine((s) => SCOPE_NAMES.has(s), { message: 'Unknown scope|Permisiune necunoscută' });

export function scopeAllows(granted: readonly string[], needed: Scope): boolean {
  const colon = needed.indexOf(':');
  const resource = needed.slice(0, colon);
  const verb = needed.slice(colon + 1);
  return granted.some(
    (g) => g === '*' || g === needed || g === `${resource}:*` || (verb === 'read' && g === `${resource}:write`),
  );
}

export function hashKey(secret: string): string {
  // One-shot (Node 20.12+): every authenticated request hashes its key, and a Hash object per call cost more than the digest.
  return hash('sha256', secret, 'hex');
}

/** Equal-time comparison of two hex digests, so a timing probe learns nothing about stored hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function zIpOrCidr() {
  return z.string().refine((v) => parseIpRule(v) !== null, { message: 'Not an IP address or CIDR range|Nu este o adresă IP sau un interval CIDR' });
}

interface IpRule {
  address: string;
  prefix: number | null;
  family: 'ipv4' | 'ipv6';
}

/** `10.0.0.1`, `10.0.0.0/8`, `2001:db8::1`, `2001:db8::/32`; null when it is none of these. */
export function parseIpRule(rule: string): IpRule | null {
  const [address = '', prefixText, ...rest] = rule.trim().split('/');
  if (rest.length) return null;
  const version = isIP(address);
  if (!version) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, prefix: null, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (version === 4 ? 32 : 128)) return null;
  return { address, prefix, family };
}

/** The allow-list of a key as a BlockList (used here as an allow list), IPv4 and IPv6, single IPs and CIDR. */
export function buildAllowList(rules: readonly string[]): BlockList {
  const list = new BlockList();
  for (const rule of rules) {
    const parsed = parseIpRule(rule);
    if (!parsed) continue;
    if (parsed.prefix === null) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

export function ipAllowed(list: BlockList, ip: string): boolean {
  // Node reports IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d; an IPv4 rule must match them.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return list.check(mapped[1]!, 'ipv4') || list.check(ip, 'ipv6');
  const version = isIP(ip);
  if (!version) return false;
  return list.check(ip, version === 6 ? 'ipv6' : 'ipv4');
}

export interface CreateKeyInput {
  companyName: string;
  cui: string;
  workPointName?: string;
  keyName?: string;
  scopes?: string[];
  expiresAt?: number | null;
  allowIps?: string[];
  mode?: 'live' | 'test';
  now: number;
}

export interface CreatedKey {
  api_key: string;
  key_id: string;
  company_id: string;
  work_point_id: string;
}

export const DEFAULT_WORK_POINT_NAME = 'Sediu';

/** Creates the company and the work point when new, then a key; the secret is returned here only. */
export async function createApiKey(db: Db, input: CreateKeyInput): Promise<CreatedKey> {
  const scopes = input.scopes?.length ? input.scopes : ['*'];
  for (const s of scopes) if (!SCOPE_NAMES.has(s)) throw new Error(`unknown scope: ${s}`);
  for (const ip of input.allowIps ?? []) if (!parseIpRule(ip)) throw new Error(`not an IP or CIDR range: ${ip}`);
  return db.transaction().execute(async (trx) => {
    let company = await trx.selectFrom('companies').selectAll().where('cui', '=', input.cui).executeTakeFirst();
    if (!company) {
      company = { id: newId('cmp'), name: input.companyName, cui: input.cui, created_at: input.now };
      await trx.insertInto('companies').values(company).execute();
    }
    const wpName = input.workPointName ?? DEFAULT_WORK_POINT_NAME;
    let workPoint = await trx
      .selectFrom('work_points')
      .select('id')
      .where('company_id', '=', company.id)
      .where('name', '=', wpName)
      .executeTakeFirst();
    if (!workPoint) {
      workPoint = { id: newId('wp') };
      await trx
        .insertInto('work_points')
        .values({ id: workPoint.id, company_id: company.id, name: wpName, address: null, created_at: input.now, updated_at: null })
        .execute();
    }
    const secret = `sk_${input.mode ?? 'live'}_${randomBase62(24)}`;
    const id = newId('key');
    await trx
      .insertInto('api_keys')
      .values({
        id,
        company_id: company.id,
        work_point_id: workPoint.id,
        name: input.keyName ?? 'default',
        key_hash: hashKey(secret),
        key_hint: `${secret.slice(0, 12)}…`,
        scopes: JSON.stringify(scopes),
        allow_ips: input.allowIps?.length ? JSON.stringify(input.allowIps.map((r) => r.trim())) : null,
        expires_at: input.expiresAt ?? null,
        revoked_at: null,
        created_at: input.now,
      })
      .execute();
    return { api_key: secret, key_id: id, company_id: company.id, work_point_id: workPoint.id };
  });
}

export interface KeySummary {
  id: string;
  name: string;
  key_hint: string;
  company_id: string;
  company: string;
  cui: string;
  work_point_id: string;
  work_point: string;
  scopes: string[];
  allow_ips: string[];
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  status: 'active' | 'expired' | 'revoked';
}

/** Every key, oldest first, without anything secret (the hash stays in the database too). */
export async function listApiKeys(db: Db, now: number): Promise<KeySummary[]> {
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('companies', 'companies.id', 'api_keys.company_id')
    .innerJoin('work_points', 'work_points.id', 'api_keys.work_point_id')
    .select([
      'api_keys.id', 'api_keys.name', 'api_keys.key_hint', 'api_keys.scopes', 'api_keys.allow_ips', 'api_keys.expires_at',
      'api_keys.revoked_at', 'api_keys.created_at', 'api_keys.company_id', 'api_keys.work_point_id',
      'companies.name as company', 'companies.cui', 'work_points.name as work_point',
    ])
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    scopes: JSON.parse(r.scopes) as string[],
    allow_ips: r.allow_ips ? (JSON.parse(r.allow_ips) as string[]) : [],
    status: r.revoked_at !== null ? 'revoked' : r.expires_at !== null && r.expires_at <= now ? 'expired' : 'active',
  }));
}

/** Revokes a key for good; false when there is no active key with that id. */
export async function revokeApiKey(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
