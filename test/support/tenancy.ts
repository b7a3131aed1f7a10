import { expect } from 'vitest';
import type { CreateKeyInput, CreatedKey } from '../../server/platform/api-keys';
import { randomBase62 } from '../../server/platform/ids';
import type { ApiReply, TestServer } from './server';

export type ProbeMethod = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';

export interface IsolationCase {
  /** Creates the resource with company A's key and returns its id. */
  create: (key: string) => Promise<string>;
  /** Paths (under /v1) that name the resource, e.g. `(id) => [\`/clients/${id}\`]`. */
  paths: (id: string) => string[];
  /** Methods tried on every path with company B's key; default GET, PUT, DELETE. */
  methods?: ProbeMethod[];
  /** Body of the PUT/PATCH/POST probes: a valid one, so that only tenancy can be what refuses it. */
  update?: unknown;
  /** List endpoints (under /v1) where company A sees the resource and company B must not. */
  lists?: string[];
  /** Options of both keys (scopes, work point name). */
  keyInput?: Partial<Omit<CreateKeyInput, 'now' | 'cui' | 'companyName'>>;
}

export interface IsolationResult {
  id: string;
  owner: CreatedKey;
  stranger: CreatedKey;
}

/** An id shaped like `id` (same prefix, same length) that names nothing. */
function lookalikeId(id: string): string {
  const cut = id.lastIndexOf('_');
  const prefix = cut >= 0 ? id.slice(0, cut + 1) : '';
  return `${prefix}${randomBase62(Math.max(8, id.length - prefix.length))}`;
}

function withQuery(path: string, query: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** What a reply says, without what differs between any two replies (meta, request id). */
function gist(reply: ApiReply) {
  return { status: reply.status, body: reply.body?.success === false ? reply.body.error : reply.body?.data ?? reply.text };
}

/** Every item of a list endpoint, page by page (per_page 100, at most 50 pages). */
async function listAll(server: TestServer, key: string, path: string): Promise<Array<{ id?: unknown }>> {
  const items: Array<{ id?: unknown }> = [];
  for (let page = 1; page <= 50; page += 1) {
    const res = await server.api(key, 'GET', withQuery(path, `per_page=100&page=${page}`));
    expect(res.status, `GET ${path} page ${page}: ${res.text}`).toBe(200);
    expect(res.body.data?.object, `GET ${path} answers the list shape`).toBe('list');
    items.push(...(res.body.data.data as Array<{ id?: unknown }>));
    if (!res.body.data.has_more) return items;
  }
  throw new Error(`GET ${path}: more than 50 pages`);
}

/**
 * Proves that a resource of one company is invisible to another: company A creates it; company B's
 * key gets exactly the 404 a never-existing id gets (same status, code, param and message) on every
 * path and method, never finds it in a list, and cannot name A's work point; and A still sees the
 * resource unchanged afterwards (B's PUT changed nothing, B's DELETE deleted nothing). Each check is
 * also made to be able to fail: A must see the resource where B must not.
 */
export async function expectIsolated(server: TestServer, c: IsolationCase): Promise<IsolationResult> {
  const owner = await server.key({ ...c.keyInput });
  const stranger = await server.key({ ...c.keyInput });
  expect(owner.company_id).not.toBe(stranger.company_id);
  const id = await c.create(owner.api_key);
  expect(typeof id === 'string' && id.length > 0, 'create returns the new id').toBe(true);
  const paths = c.paths(id);
  expect(paths.length, 'at least one path names the resource').toBeGreaterThan(0);
  const methods = c.methods ?? ['GET', 'PUT', 'DELETE'];

  const before = new Map<string, ReturnType<typeof gist>>();
  for (const path of paths) {
    const res = await server.api(owner.api_key, 'GET', path);
    expect(res.status, `the owner reads GET ${path}: ${res.text}`).toBe(200);
    before.set(path, gist(res));
  }
  for (const list of c.lists ?? []) {
    const seen = await listAll(server, owner.api_key, list);
    expect(seen.some((item) => item.id === id), `the owner finds ${id} in GET ${list}`).toBe(true);
  }

  for (const path of paths) {
    expect(path.includes(id), `path ${path} contains the id`).toBe(true);
    const missingPath = path.split(id).join(lookalikeId(id));
    for (const method of methods) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : (c.update ?? {});
      // A path's query (`?expand[]=…`) is a GET's: another method does not know it and refuses it by name.
      const on = (p: string) => (method === 'GET' ? p : p.split('?')[0]!);
      const foreign = await server.api(stranger.api_key, method, on(path), body);
      const missing = await server.api(stranger.api_key, method, on(missingPath), body);
      expect(foreign.status, `${method} ${path} with another company's key: ${foreign.text}`).toBe(404);
      expect(foreign.body?.error?.code, `${method} ${path}: a real route refusing, not an unknown one`).toBe('resource_missing');
      expect(gist(foreign), `${method} ${path} answers exactly like a missing id`).toEqual(gist(missing));
    }
  }

  for (const list of c.lists ?? []) {
    const seen = await listAll(server, stranger.api_key, list);
    expect(seen.some((item) => item.id === id), `another company never sees ${id} in GET ${list}`).toBe(false);
    const search = await server.api(stranger.api_key, 'GET', withQuery(list, `work_point_id=${encodeURIComponent(owner.work_point_id)}`));
    expect(search.status, `GET ${list} naming the other company's work point`).toBe(404);
    expect(search.body?.error).toMatchObject({ code: 'resource_missing', param: 'work_point_id' });
  }

  for (const path of paths) {
    const res = await server.api(owner.api_key, 'GET', path);
    expect(gist(res), `GET ${path} by the owner is unchanged after the other company's attempts`).toEqual(before.get(path));
  }
  return { id, owner, stranger };
}
