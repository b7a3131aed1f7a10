import { z } from 'zod';
import type { ChannelSpec, Domain } from './contract';

/**
 * The first run and the embedded service: which service the desktop syncs with ("Pe acest
 * calculator" runs the Invoicing Service inside the app; "Conectare la un serviciu" checks a remote
 * one before saving it), and the owner's controls over the embedded one (open it to the shop's
 * network, keys for the other counters).
 */

const spec = <I extends z.ZodType, O extends z.ZodType>(s: ChannelSpec<I, O>) => s;
const zNone = z.object({}).strict().optional();
const ALL: readonly Domain[] = ['settings', 'invoices', 'clients', 'products', 'receipts', 'series', 'catalog', 'purchases', 'outbox', 'sync'];

export const zSetupStatus = z.object({
  /** No service configured yet: the first-run screen shows. */
  needs_first_run: z.boolean(),
  mode: z.enum(['embedded', 'remote']).nullable(),
  embedded: z.object({
    running: z.boolean(),
    port: z.number().int().nullable(),
    /** Listening on every interface (a second counter can connect), not only on loopback. */
    network_open: z.boolean(),
    /** What a second counter types as the service address (this machine's LAN addresses). */
    addresses: z.array(z.string()),
  }),
});
export type SetupStatus = z.infer<typeof zSetupStatus>;

export const zFoundCompany = z.object({
  cui: z.string(),
  name: z.string(),
  reg_com: z.string(),
  address: z.string(),
  street: z.string(),
  city: z.string(),
  county: z.string(),
  postal_code: z.string(),
  vat_payer: z.boolean(),
  vat_on_collection: z.boolean(),
});

export const zSetupLookup = z.discriminatedUnion('status', [
  z.object({ status: z.literal('found'), company: zFoundCompany }),
  z.object({ status: z.literal('not_found') }),
  z.object({ status: z.literal('invalid_cui'), reason: z.enum(['format', 'checksum']) }),
  /** ANAF did not answer (offline, timeout): the data is typed by hand. */
  z.object({ status: z.literal('unreachable') }),
]);

const text = (max: number) => z.string().trim().max(max);

export const zEmbeddedCompanyInput = z.object({
  cui: z.string().trim().min(1, 'Required|Obligatoriu').max(20),
  name: z.string().trim().min(1, 'Required|Obligatoriu').max(200),
  reg_com: text(100).optional(),
  street: text(150).optional(),
  city: text(50).optional(),
  county: text(50).optional(),
  postal_code: text(20).optional(),
  vat_payer: z.boolean(),
  vat_on_collection: z.boolean(),
});

export const zConnectResult = z.discriminatedUnion('problem', [
  z.object({ problem: z.literal('none'), base_url: z.string(), company: z.object({ id: z.string(), name: z.string(), cui: z.string() }) }),
  z.object({ problem: z.literal('unreachable'), base_url: z.string() }),
  z.object({ problem: z.literal('wrong_key'), base_url: z.string() }),
  z.object({ problem: z.literal('missing_v1'), base_url: z.string(), suggested_url: z.string() }),
  z.object({ problem: z.literal('not_a_service'), base_url: z.string() }),
  z.object({ problem: z.literal('refused'), base_url: z.string(), status: z.number().int(), message: z.string() }),
  z.object({ problem: z.literal('other_company'), base_url: z.string(), key_company: z.string(), local_company: z.string() }),
]);
export type ConnectResult = z.infer<typeof zConnectResult>;

export const zCounterKey = z.object({
  id: z.string(),
  own: z.boolean(),
  name: z.string(),
  key_hint: z.string(),
  status: z.enum(['active', 'expired', 'revoked']),
  created_at: z.number().int(),
  revoked_at: z.number().int().nullable(),
});

export const setupContract = {
  'setup.status': spec({ input: zNone, output: zSetupStatus }),
  /** ONLINE (ANAF). The company's public data by CUI; `unreachable` when ANAF does not answer in time. */
  'setup.lookupCompany': spec({ input: z.object({ cui: z.string().trim().min(1).max(20) }), output: zSetupLookup, online: true }),
  /** Starts the embedded service, creates the company and this counter's key in it, and syncs to it. */
  'setup.createEmbedded': spec({ input: zEmbeddedCompanyInput, output: zSetupStatus, mutates: ALL }),
  /** ONLINE. Checks a service address and key (GET /me); saves them only when `problem` is `none`. */
  'setup.connectService': spec({
    input: z.object({
      base_url: z.url('An address such as https://host/v1|O adresă precum https://server/v1').max(500),
      api_key: z.string().trim().regex(/^sk_(live|test)_[0-9A-Za-z]{24}$/, 'Not an API key|Nu este o cheie API'),
    }),
    output: zConnectResult,
    mutates: ALL,
  }),
  /** Re-binds the embedded service to every interface (true) or to loopback only (false). */
  'setup.setNetworkOpen': spec({ input: z.object({ open: z.boolean() }), output: zSetupStatus, mutates: ['settings'] }),
  /** The company's keys in the embedded service (the other counters'), never their secrets. */
  'setup.keys.list': spec({ input: zNone, output: z.array(zCounterKey) }),
  /** A key for another counter: the secret is in this answer only. */
  'setup.keys.create': spec({
    input: z.object({ name: z.string().trim().min(1, 'Required|Obligatoriu').max(100) }),
    output: z.object({ id: z.string(), name: z.string(), api_key: z.string() }),
    mutates: ['settings'],
  }),
  'setup.keys.revoke': spec({ input: z.object({ id: z.string().min(1).max(64) }), output: z.object({ revoked: z.boolean() }), mutates: ['settings'] }),
} as const;
