import { createHash, timingSafeEqual } from 'node:crypto';
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
  'vat_rates', 'efactura', 'fiscal_data', 'accounting',
] as const;
export type Resource = (typeof RESOURCES)[number];
export type Scope = `${Resource}:read` | `${Resource}:write`;

export const zScopeName = z.string().refine(
  (s) => s === '*' || RESOURCES.some((r) => s === `${r}:read` || s === `${r}:write` || s === `${r}:*`),
  { message: 'Unknown scope|Permisiune necunoscută' },
);

export function scopeAllows(granted: readonly string[], needed: Scope): boolean {
  const [resource, verb] = needed.split(':') as [string, string];
  return granted.some(
    (g) => g === '*' || g === needed || g === `${resource}:*` || (verb === 'read' && g === `${resource}:write`),
  );
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
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

function parseIpRule(rule: string): { address: string; prefix: number | null; family: 'ipv4' | 'ipv6' } | null {
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
  // Node reports IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return list.check(mapped[1]!, 'ipv4') || list.check(ip, 'ipv6');
  return list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
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

/** Creates the company and the work point when new, then a key; the secret is returned here only. */
export async function createApiKey(db: Db, input: CreateKeyInput): Promise<CreatedKey> {
  return db.transaction().execute(async (trx) => {
    let company = await trx.selectFrom('companies').selectAll().where('cui', '=', input.cui).executeTakeFirst();
    if (!company) {
      company = { id: newId('cmp'), name: input.companyName, cui: input.cui, created_at: input.now };
      await trx.insertInto('companies').values(company).execute();
    }
    const wpName = input.workPointName ?? 'Sediu';
    let workPoint = await trx
      .selectFrom('work_points')
      .selectAll()
      .where('company_id', '=', company.id)
      .where('name', '=', wpName)
      .executeTakeFirst();
    if (!workPoint) {
      workPoint = { id: newId('wp'), company_id: company.id, name: wpName, created_at: input.now };
      await trx.insertInto('work_points').values(workPoint).execute();
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
        scopes: JSON.stringify(input.scopes?.length ? input.scopes : ['*']),
        allow_ips: input.allowIps?.length ? JSON.stringify(input.allowIps) : null,
        expires_at: input.expiresAt ?? null,
        revoked_at: null,
        created_at: input.now,
      })
      .execute();
    return { api_key: secret, key_id: id, company_id: company.id, work_point_id: workPoint.id };
  });
}
