import { expect } from 'vitest';
import type { ApiReply, TestServer } from '../../support/server';

/** Valid identifiers (control digits computed by hand and checked by the shared validators' tests). */
export const VALID = {
  cui: '1590082',
  cui2: '18378743',
  cui3: '30300832',
  cnp: '1900101400012',
  cnp2: '2850315123457',
  /** Banca Transilvania (BTRL) and BCR (RNCB) bank codes. */
  ibanBtrl: 'RO48BTRL01301202925689XX',
  ibanBcr: 'RO95RNCB0082044543210001',
  ibanIng: 'RO29INGB0000999900000001',
  /** A bank code no list knows: the IBAN is valid, the bank stays unnamed. */
  ibanUnknownBank: 'RO49AAAA1B31007593840000',
  ibanDe: 'DE89370400440532013000',
  ibanGb: 'GB82WEST12345698765432',
  ibanFr: 'FR1420041010050500013M02606',
} as const;

/** A company of its own, with a key holding every scope. */
export interface Firm {
  key: string;
  companyId: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply>;
  /** Calls and expects `status` (default 201 for a POST, every POST of the catalog being a create; else 200); returns the reply. */
  ok(method: string, path: string, body?: unknown, status?: number): Promise<ApiReply>;
}

export async function firm(server: TestServer, scopes?: string[]): Promise<Firm> {
  const created = await server.key(scopes ? { scopes } : {});
  const call: Firm['call'] = (method, path, body, headers) => server.api(created.api_key, method, path, body, headers);
  return {
    key: created.api_key,
    companyId: created.company_id,
    call,
    ok: async (method, path, body, status = method === 'POST' ? 201 : 200) => {
      const res = await call(method, path, body);
      if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, expected ${status}: ${res.text}`);
      return res;
    },
  };
}

/** Asserts an error reply in the contract's envelope and returns its `error`. */
export function expectError(res: ApiReply, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.status).toBe(status);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.meta.version).toBe('v1');
  return res.body.error as { code: string; type: string; param?: string; message: string; fields?: Record<string, string> };
}
