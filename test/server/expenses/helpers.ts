import { expect } from 'vitest';
import type { ApiReply, TestServer } from '../../support/server';

/** A company of its own: a key with every scope, and helpers that fail loudly on an unexpected reply. */
export interface Firm {
  key: string;
  /** The company's own CUI (not a supplier's): pass it to `firm` for a second key of the same company. */
  cui: string;
  companyId: string;
  workPointId: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply>;
  /** Calls and expects `status`; returns the reply. */
  ok(method: string, path: string, body: unknown, status?: number): Promise<ApiReply>;
  supplier(body?: Record<string, unknown>): Promise<string>;
  category(name?: string): Promise<number>;
  expense(body: Record<string, unknown>): Promise<Record<string, unknown> & { id: string }>;
}

let counter = 0;

export interface FirmOptions {
  scopes?: string[];
  /** Same CUI as an existing firm: another key (and work point) of that company. */
  cui?: string;
  workPointName?: string;
}

export async function firm(server: TestServer, options: FirmOptions = {}): Promise<Firm> {
  const cui = options.cui ?? String(20_000_000 + Math.floor(Math.random() * 79_999_999));
  const created = await server.key({ ...options, cui });
  const call: Firm['call'] = (method, path, body, headers) => server.api(created.api_key, method, path, body, headers);
  const ok: Firm['ok'] = async (method, path, body, status = 200) => {
    const res = await call(method, path, body);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, expected ${status}: ${res.text}`);
    return res;
  };
  return {
    key: created.api_key,
    cui,
    companyId: created.company_id,
    workPointId: created.work_point_id,
    call,
    ok,
    supplier: async (body = {}) => {
      counter += 1;
      const res = await ok('POST', '/suppliers', { name: `Furnizor ${counter} SRL`, ...body }, 201);
      return res.body.data.id as string;
    },
    category: async (name) => {
      counter += 1;
      const res = await ok('POST', '/expense-categories', { name: name ?? `Categorie ${counter}` }, 201);
      return res.body.data.id as number;
    },
    expense: async (body) => {
      const res = await ok('POST', '/expenses', body, 201);
      return res.body.data;
    },
  };
}

/** Asserts the error envelope and returns `error`. */
export function expectError(res: ApiReply, status: number, code: string, type?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(code);
  if (type) expect(res.body.error.type).toBe(type);
  expect(res.body.meta.version).toBe('v1');
  return res.body.error as { code: string; type: string; message: string; param?: string; fields?: Record<string, string> };
}

/** Valid CUIs (control digit checked): ANAF's own and a few computed ones. */
export const CUIS = ['1590082', '14399840', '18547290', '13548146', '6859662'] as const;
