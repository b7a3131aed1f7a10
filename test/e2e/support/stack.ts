import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app';
import { createAnafServices } from '../../../server/modules/efactura-spv/anaf-services';
import { pollSubmissions } from '../../../server/modules/efactura-spv/submissions';
import { systemClock } from '../../../server/platform/clock';
import type { AnafServices } from '../../../server/platform/services';
import { SIM_OAUTH_CLIENT, startAnafSimulator, type AnafSimulator } from '../../support/anaf-simulator';
import { callApi, startTestServer, type ApiReply, type TestServer } from '../../support/server';

/**
 * The real Invoicing Service for the end-to-end tests, on loopback, with the system clock (the
 * desktop dates invoices with today's date in Bucharest, so the service must agree on "today").
 * It can be stopped and started again on the same port over the same database: that is how the
 * tests take the device offline for real, with connections refused, not with a mock.
 */
export interface E2eServer {
  base: string;
  apiKey: string;
  api(method: string, path: string, body?: unknown): Promise<ApiReply>;
  stop(): Promise<void>;
  start(): Promise<void>;
  readonly running: boolean;
  close(): Promise<void>;
  inner: TestServer;
  /** The ANAF simulator the service talks to, when started with `anaf: true`. */
  sim: AnafSimulator | null;
  /** One pass of the service's e-Factura status poller (serve.ts runs it on a timer). */
  pollEfactura(): Promise<void>;
}

export interface Seed {
  seriesId: string;
  products: { id: string; name: string; code: string; price: number; vat_rate: number }[];
  clients: { id: string; name: string; cui: string }[];
}

export const SEED_PRODUCTS = [
  { name: 'Cafea boabe Arabica 1 kg', code: '5941234567890', price: 89.9, vat_rate: 11 },
  { name: 'Espressor manual inox', code: '5941234567906', price: 649.99, vat_rate: 21 },
  { name: 'Filtre hârtie (set 100)', code: '5941234567913', price: 12.35, vat_rate: 21 },
  { name: 'Lapte integral 1 l', code: '5941234567920', price: 7.49, vat_rate: 11 },
  { name: 'Cană ceramică 300 ml', code: '5941234567937', price: 24.9, vat_rate: 21 },
  { name: 'Râșniță electrică', code: '5941234567944', price: 219, vat_rate: 21 },
  { name: 'Carte: Istoria cafelei', code: '9789731234567', price: 59, vat_rate: 11 },
  { name: 'Ceai verde Sencha 100 g', code: '5941234567951', price: 18.5, vat_rate: 11 },
] as const;

export const SEED_CLIENTS = [
  { type: 'company', name: 'Client Exemplu SRL', cui: '14399840', vat_payer: true, reg_com: 'J12/345/2001', address: 'Bd. Eroilor nr. 5', city: 'Cluj-Napoca', county: 'Cluj', country: 'RO' },
  { type: 'company', name: 'Cafeneaua Veche SRL', cui: '18547290', vat_payer: true, reg_com: 'J40/8817/2006', address: 'Str. Franceză nr. 2', city: 'București, Sector 3', county: 'București', country: 'RO' },
] as const;

function expectOk(reply: ApiReply, what: string): void {
  if (reply.status >= 300) throw new Error(`${what}: HTTP ${reply.status} ${reply.text.slice(0, 400)}`);
}

export const COMPANY = { companyName: 'Tejghea Demo SRL', cui: '40075649' };

export async function startE2eServer(options: { anaf?: boolean } = {}): Promise<E2eServer> {
  let sim: AnafSimulator | null = null;
  let anaf: AnafServices | undefined;
  if (options.anaf) {
    sim = await startAnafSimulator({ pollsBeforeDone: 1 });
    sim.state.spvCifs.add(COMPANY.cui);
    anaf = createAnafServices({
      oauth: { ...SIM_OAUTH_CLIENT, baseUrl: sim.baseUrls.oauth },
      efacturaBaseUrls: { test: sim.baseUrls.efacturaTest, prod: sim.baseUrls.efacturaProd },
      pdfBaseUrl: sim.baseUrls.pdf,
      publicBaseUrl: sim.baseUrls.publicApi,
      http: { timeoutMs: 2_000, maxAttempts: 2, backoffBaseMs: 5, backoffMaxMs: 20 },
      publicMinIntervalMs: 0,
      tokenKey: Buffer.alloc(32, 7),
      clock: systemClock,
    });
  }
  const appOptions = { clock: systemClock, ...(anaf ? { extraServices: { anaf } } : {}) };
  const inner = await startTestServer('sqlite', appOptions);
  const key = await inner.key(COMPANY);
  const port = Number(new URL(inner.url).port);
  let app: FastifyInstance | null = inner.app;
  const self: E2eServer = {
    base: inner.base,
    apiKey: key.api_key,
    inner,
    get running() {
      return app !== null;
    },
    api: (method, path, body) => callApi(inner.base, key.api_key, method, path, body),
    stop: async () => {
      if (!app) return;
      await app.close();
      app = null;
    },
    start: async () => {
      if (app) return;
      const next = buildApp({ storage: inner.storage, ...appOptions }).app;
      await next.listen({ port, host: '127.0.0.1' });
      app = next;
    },
    close: async () => {
      if (app && app !== inner.app) await app.close();
      app = null;
      await inner.close();
      await sim?.close();
    },
    sim,
    pollEfactura: async () => {
      if (!anaf) throw new Error('started without ANAF');
      await pollSubmissions({ storage: inner.storage, clock: systemClock, anaf }, systemClock.now());
    },
  };
  return self;
}

/**
 * The company's details for its documents (PUT /company/profile) and its e-Factura link: the OAuth
 * consent through the simulator's authorize page, as the accountant does it once in a browser.
 */
export async function linkEfactura(server: E2eServer): Promise<void> {
  const profile = await server.api('PUT', '/company/profile', {
    name: 'Tejghea Demo SRL', vat_payer: true, reg_com: 'J40/1234/2016', street: 'Str. Lipscani nr. 12', city: 'Sector 3',
    county: 'București', postal_code: '030031', iban: 'RO49AAAA1B31007593840000', bank: 'Banca Transilvania', email: 'facturi@tejghea.test',
  });
  expectOk(profile, 'company profile');
  const started = await server.api('GET', '/efactura/oauth/authorize-url');
  expectOk(started, 'authorize url');
  const res = await fetch(started.body.data.authorize_url, { redirect: 'manual' });
  const target = new URL(res.headers.get('location') ?? '');
  const back = await server.api('POST', '/efactura/oauth/callback', { code: target.searchParams.get('code'), state: target.searchParams.get('state') });
  expectOk(back, 'oauth callback');
}

/** A company's data on the service: a primary fiscal series, a catalog with barcodes, two clients. */
export async function seed(server: E2eServer): Promise<Seed> {
  const series = await server.api('POST', '/invoice-series', { name: 'TJ', is_primary: true, description: 'Magazin Lipscani' });
  expectOk(series, 'series');
  const products: Seed['products'] = [];
  for (const p of SEED_PRODUCTS) {
    const r = await server.api('POST', '/products', { ...p, price_includes_vat: true });
    expectOk(r, `product ${p.name}`);
    products.push({ id: r.body.data.id, ...p });
  }
  const clients: Seed['clients'] = [];
  for (const c of SEED_CLIENTS) {
    const r = await server.api('POST', '/clients', c);
    expectOk(r, `client ${c.name}`);
    clients.push({ id: r.body.data.id, name: c.name, cui: c.cui });
  }
  return { seriesId: series.body.data.id, products, clients };
}

/** A POST the test's setup relies on: anything but success stops the test with the service's words. */
export async function postOk(server: E2eServer, path: string, body: unknown): Promise<{ id: string } & Record<string, unknown>> {
  const r = await server.api('POST', path, body);
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body.data;
}

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-e2e-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
