import { expect } from 'vitest';
import type { Dialect } from '../../../server/db/types';
import { cuiControlDigit } from '../../../shared/ro/cui';
import { startTestServer, type ApiReply, type TestServer } from '../../support/server';

/** The real service with budgets wide enough for a test that makes hundreds of documents in one minute. */
export function startInvoicingServer(dialect: Dialect): Promise<TestServer> {
  return startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
}

export interface Firm {
  key: string;
  companyId: string;
  workPointId: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply>;
  /** Calls and expects a 2xx; answers `data` (or the whole body for top-level replies). */
  ok(method: string, path: string, body?: unknown): Promise<ApiReply['body']>;
}

let cuiCounter = 0;

/** A valid Romanian CUI (control digit computed), different on every call. */
export function validCui(): string {
  cuiCounter += 1;
  const body = String(1_000_000 + ((Date.now() % 1_000_000) * 7 + cuiCounter * 13) % 8_999_999);
  return `${body}${cuiControlDigit(body)}`;
}

export async function newFirm(server: TestServer, options: { cui?: string; workPointName?: string } = {}): Promise<Firm> {
  const key = await server.key({ ...(options.cui ? { cui: options.cui } : {}), ...(options.workPointName ? { workPointName: options.workPointName } : {}) });
  const call: Firm['call'] = (method, path, body, headers) => server.api(key.api_key, method, path, body, headers);
  return {
    key: key.api_key,
    companyId: key.company_id,
    workPointId: key.work_point_id,
    call,
    ok: async (method, path, body) => {
      const res = await call(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
      return res.body.data ?? res.body;
    },
  };
}

/** Another work point of the firm, with a key of its own. */
export async function branchOf(server: TestServer, firm: Firm, workPointName = 'Punct 2'): Promise<Firm> {
  const cui = (await server.storage.db.selectFrom('companies').select('cui').where('id', '=', firm.companyId).executeTakeFirstOrThrow()).cui;
  return newFirm(server, { cui, workPointName });
}

/** The names of a firm's invoice or receipt series (receipt prefixes), sorted, read past the API. */
export async function seriesNamesOf(server: TestServer, companyId: string, kind: 'invoice' | 'receipt'): Promise<string[]> {
  const rows = await server.storage.db.selectFrom('number_series').select('name').where('company_id', '=', companyId).where('kind', '=', kind).execute();
  return rows.map((r) => r.name).sort();
}

export async function newClient(firm: Firm, name = 'Client Test SRL'): Promise<{ id: string; name: string }> {
  return firm.ok('POST', '/clients', { name, cui: `RO${validCui()}`, address: 'Str. Lungă 1', city: 'Brașov', county: 'Brașov' });
}

export async function newSeries(firm: Firm, body: Record<string, unknown> = {}): Promise<{ id: string; name: string; next_number: number }> {
  return firm.ok('POST', '/invoice-series', { name: 'TJ', ...body });
}

export const LINE = { description: 'Cafea boabe 1kg', quantity: 2, price: 45.5, vat_rate: 21 };

export async function issue(firm: Firm, body: Record<string, unknown>): Promise<ApiReply['body']> {
  return firm.ok('POST', '/invoices', { items: [LINE], ...body });
}

export function expectError(res: ApiReply, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }, res.text).toEqual({ status, code });
  expect(res.body.success).toBe(false);
}

export const DEVICE_A = { device_id: 'dev-a', device_name: 'Casa 1', device_platform: 'win32' };
export const DEVICE_B = { device_id: 'dev-b', device_name: 'Casa 2', device_platform: 'darwin' };
