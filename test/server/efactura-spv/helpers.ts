import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Dialect } from '../../../server/db/types';
import type { HttpPolicy } from '../../../server/anaf/index';
import { fixedClock } from '../../../server/platform/clock';
import type { AnafServices } from '../../../server/platform/services';
import { createAnafServices } from '../../../server/modules/efactura-spv/anaf-services';
import type { EfacturaServices } from '../../../server/modules/efactura-spv/token-store';
import { cuiControlDigit } from '../../../shared/ro/cui';
import { SIM_OAUTH_CLIENT, startAnafSimulator, type AnafSimulator, type AnafSimulatorOptions } from '../../support/anaf-simulator';
import { startTestServer, type ApiReply, type TestServer } from '../../support/server';

/** Quick retries and a short deadline: fault tests stay fast, and a stalled ANAF times out in a second and a half. */
export const testPolicy: Partial<HttpPolicy> = { timeoutMs: 1_500, maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 };

export const TOKEN_KEY = Buffer.alloc(32, 7);

export interface Env {
  server: TestServer;
  sim: AnafSimulator;
  /** The service clock (the server's own `server.clock` is not used: this one is passed to it). */
  clock: ReturnType<typeof fixedClock>;
  anaf: AnafServices;
  /** What pollSubmissions needs, for tests that drive the poller as serve.ts's timer would. */
  services: EfacturaServices;
  close(): Promise<void>;
}

export interface EnvOptions {
  sim?: AnafSimulatorOptions;
  tokenKey?: Buffer | null;
  /** false: the server has no OAuth client configured. */
  oauth?: boolean;
  /** false: no ANAF services at all. */
  anaf?: boolean;
  /** Service clock start (Unix seconds); default now, so that ANAF's windows and ours agree. */
  start?: number;
}

/** The real service on loopback, wired to an ANAF simulator on loopback. */
export async function startEnv(dialect: Dialect, options: EnvOptions = {}): Promise<Env> {
  const sim = await startAnafSimulator({ pollsBeforeDone: 1, ...options.sim });
  const clock = fixedClock(options.start ?? Math.floor(Date.now() / 1000));
  const anaf = createAnafServices({
    oauth: options.oauth === false ? null : { ...SIM_OAUTH_CLIENT, baseUrl: sim.baseUrls.oauth },
    efacturaBaseUrls: { test: sim.baseUrls.efacturaTest, prod: sim.baseUrls.efacturaProd },
    pdfBaseUrl: sim.baseUrls.pdf,
    publicBaseUrl: sim.baseUrls.publicApi,
    http: testPolicy,
    publicMinIntervalMs: 0,
    tokenKey: options.tokenKey === undefined ? TOKEN_KEY : options.tokenKey,
    clock,
  });
  const server = await startTestServer(dialect, { clock, ...(options.anaf === false ? {} : { extraServices: { anaf } }) });
  return {
    server,
    sim,
    clock,
    anaf,
    services: { storage: server.storage, clock, anaf },
    close: async () => {
      await server.close();
      await sim.close();
    },
  };
}

let cuiCounter = 0;

/** A CUI with a valid control digit, different on every call (the simulator grants SPV rights to it). */
export function newCui(): string {
  cuiCounter += 1;
  const body = String(3_100_000 + Math.floor(Math.random() * 800_000) * 10 + (cuiCounter % 10));
  return `${body}${cuiControlDigit(body)}`;
}

export interface Firm {
  key: string;
  cui: string;
  companyId: string;
  workPointId: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply>;
  ok(method: string, path: string, body?: unknown, status?: number): Promise<ApiReply>;
}

export interface FirmOptions {
  cui?: string;
  workPointName?: string;
  scopes?: string[];
  /** Fill the company profile (address etc.); default true. */
  profile?: boolean;
  /** Link with ANAF through the API; default true. */
  link?: boolean;
  /** The simulator grants SPV rights for the CUI; default true. */
  spv?: boolean;
  vatPayer?: boolean;
}

export const SELLER_PROFILE = {
  name: 'Tejghea Test SRL',
  reg_com: 'J12/1234/2020',
  street: 'Str. Memorandumului nr. 28',
  city: 'Cluj-Napoca',
  county: 'Cluj',
  postal_code: '400114',
  iban: 'RO49AAAA1B31007593840000',
  email: 'facturi@tejghea.test',
  phone: '+40 264 123 456',
};

export async function firm(env: Env, options: FirmOptions = {}): Promise<Firm> {
  const cui = options.cui ?? newCui();
  const created = await env.server.key({
    cui,
    companyName: 'Tejghea Test SRL',
    ...(options.workPointName ? { workPointName: options.workPointName } : {}),
    ...(options.scopes ? { scopes: options.scopes } : {}),
  });
  if (options.spv !== false) env.sim.state.spvCifs.add(cui);
  const call: Firm['call'] = (method, path, body, headers) => env.server.api(created.api_key, method, path, body, headers);
  const ok: Firm['ok'] = async (method, path, body, status = 200) => {
    const res = await call(method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, expected ${status}: ${res.text}`);
    return res;
  };
  const f: Firm = { key: created.api_key, cui, companyId: created.company_id, workPointId: created.work_point_id, call, ok };
  if (options.profile !== false) await ok('PUT', '/company/profile', { ...SELLER_PROFILE, vat_payer: options.vatPayer ?? true });
  if (options.link !== false) await link(env, f);
  return f;
}

/** The browser part of the consent: open ANAF's authorize URL, follow its redirect to our callback. */
export async function consent(authorizeUrl: string): Promise<{ code: string; state: string }> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`authorize answered ${res.status}`);
  const target = new URL(res.headers.get('location') ?? '');
  return { code: target.searchParams.get('code') ?? '', state: target.searchParams.get('state') ?? '' };
}

export async function link(_env: Env, f: Firm): Promise<void> {
  const started = await f.ok('GET', '/efactura/oauth/authorize-url');
  const back = await consent(started.body.data.authorize_url);
  expect(back.state).toBe(started.body.data.state);
  await f.ok('POST', '/efactura/oauth/callback', back);
}

export function expectError(res: ApiReply, status: number, code: string): Record<string, unknown> & { code: string; type: string; message: string } {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status}: ${res.text}`);
  }
  expect(res.body.success).toBe(false);
  return res.body.error;
}

export const RO_BUYER = {
  type: 'company',
  name: 'Exemplu Client SRL',
  cui: 'RO76543210',
  reg_com: 'J22/987/2019',
  address: 'Bd. Independenței nr. 5',
  city: 'Iași',
  county: 'Iași',
  country: 'RO',
};

export interface InvoiceOptions {
  client?: Record<string, unknown>;
  items?: Array<Record<string, unknown>>;
  is_draft?: boolean;
  document_type?: 'fiscal' | 'proforma';
  currency?: string;
  exchange_rate?: number;
  reverse_charge?: boolean;
  payment_method?: string;
  spv_environment?: 'live' | 'test';
  due_date?: string;
  delivery_date?: string;
  observations?: string;
  allowances_charges?: Record<string, unknown>[];
  references?: Record<string, string>;
}

const seriesOf = new WeakMap<Firm, Record<string, string>>();

/** A primary series of the document type at the firm's work point (made once). */
async function series(f: Firm, documentType: 'fiscal' | 'proforma'): Promise<string> {
  const known = seriesOf.get(f) ?? {};
  if (known[documentType]) return known[documentType];
  const name = documentType === 'fiscal' ? 'TJT' : 'PRF';
  const res = await f.ok('POST', '/invoice-series', { name, document_type: documentType, is_primary: true }, 201);
  known[documentType] = res.body.data.id;
  seriesOf.set(f, known);
  return res.body.data.id;
}

/** An invoice made through POST /invoices, as the desktop app would. */
export async function invoice(f: Firm, o: InvoiceOptions = {}): Promise<Record<string, unknown> & { id: string; full_number: string | null }> {
  const documentType = o.document_type ?? 'fiscal';
  if (o.currency && o.currency !== 'RON') {
    const enabled = await f.call('POST', '/currencies', { code: o.currency });
    if (enabled.status >= 300 && enabled.status !== 409) throw new Error(`POST /currencies answered ${enabled.status}: ${enabled.text}`);
  }
  const body = {
    series_id: await series(f, documentType),
    document_type: documentType,
    client: o.client ?? RO_BUYER,
    is_draft: o.is_draft ?? false,
    currency: o.currency ?? 'RON',
    ...(o.exchange_rate !== undefined ? { exchange_rate: o.exchange_rate } : {}),
    reverse_charge: o.reverse_charge ?? false,
    ...(o.payment_method ? { payment_method: o.payment_method } : {}),
    ...(o.due_date ? { due_date: o.due_date } : {}),
    ...(o.delivery_date ? { delivery_date: o.delivery_date } : {}),
    ...(o.observations ? { observations: o.observations } : {}),
    spv_environment: o.spv_environment ?? 'live',
    items: o.items ?? [{ description: 'Licență Tejghea', quantity: 2, price: 100, vat_rate: 21 }],
    ...(o.allowances_charges ? { allowances_charges: o.allowances_charges } : {}),
    ...(o.references ? { references: o.references } : {}),
  };
  const res = await f.call('POST', '/invoices', body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`POST /invoices answered ${res.status}: ${res.text}`);
  return res.body.data;
}

export async function storno(f: Firm, invoiceId: string): Promise<Record<string, unknown> & { id: string; full_number: string | null }> {
  const res = await f.call('POST', `/invoices/${invoiceId}/storno`, {});
  if (res.status !== 200 && res.status !== 201) throw new Error(`storno answered ${res.status}: ${res.text}`);
  return res.body.data;
}

/** The raw text of a non-JSON reply. */
export async function fetchRaw(env: Env, key: string, path: string): Promise<{ status: number; type: string; bytes: Buffer; disposition: string }> {
  const res = await fetch(`${env.server.base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    disposition: res.headers.get('content-disposition') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/**
 * Called in a describe: before its tests, a service with the ANAF simulator, a seller firm (not linked to
 * the SPV) and a temporary folder for the files a test writes, handed to `started`; all closed and
 * removed after the block.
 */
export function sellerForTests(dialect: Dialect, dirPrefix: string, started: (stack: { env: Env; seller: Firm; dir: string }) => void): void {
  let env: Env | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    env = await startEnv(dialect);
    const seller = await firm(env, { link: false });
    dir = mkdtempSync(join(tmpdir(), dirPrefix));
    started({ env, seller, dir });
  }, 60_000);
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await env?.close();
  });
}

/** The supplier whose e-Factura reaches the tests' firms through the SPV inbox. */
export const SUPPLIER_CUI = '12345674';

/** Puts a supplier's e-Factura in the simulator's inbox of firm `f` (production environment). */
export function receiveFromSupplier(env: Env, f: Firm, xml: string) {
  return env.sim.state.addReceivedInvoice({ buyerCif: f.cui, sellerCif: SUPPLIER_CUI, xml, env: 'prod' });
}
