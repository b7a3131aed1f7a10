import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './server';

export interface ContractEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As the contract writes it, with `{id}` placeholders. */
  path: string;
}

/** Where the contract lives beside the project (`../shared`, as the validators do). */
export const CONTRACT_PATH = join(PROJECT_ROOT, '..', 'shared', 'spec', 'invoicing-service-api.md');

/** The list committed as test data, derived from the contract by {@link deriveContractEndpoints}. */
export const CONTRACT_ENDPOINTS_FILE = join(PROJECT_ROOT, 'test', 'server', 'data', 'contract-endpoints.json');

/**
 * Every method and path the contract names: each `METHOD /path` written anywhere in it, and for the
 * resources of "list and CRUD endpoints for …" the five of CRUD (list, create, retrieve, update, delete).
 */
export function deriveContractEndpoints(spec: string): ContractEndpoint[] {
  const found = new Map<string, ContractEndpoint>();
  const add = (method: ContractEndpoint['method'], path: string) => found.set(`${method} ${path}`, { method, path });
  for (const m of spec.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[A-Za-z0-9_/{}.-]+)/g)) {
    add(m[1] as ContractEndpoint['method'], m[2]!.replace(/[.]$/, ''));
  }
  const crud = /list and CRUD endpoints for ([^.;]+?) exist/.exec(spec);
  if (!crud) throw new Error('the contract no longer says which resources have list and CRUD endpoints');
  const resources = crud[1]!.split(/,\s*|\s+and\s+/).map((r) => r.trim()).filter(Boolean);
  for (const resource of resources) {
    const slug = `/${resource.toLowerCase().replace(/\s+/g, '-')}`;
    add('GET', slug);
    add('POST', slug);
    add('GET', `${slug}/{id}`);
    add('PUT', `${slug}/{id}`);
    add('DELETE', `${slug}/{id}`);
  }
  return [...found.values()].sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
}

/** The committed list, as `METHOD /path` lines. */
export function readCommittedEndpoints(): { source: string; endpoints: string[] } {
  return JSON.parse(readFileSync(CONTRACT_ENDPOINTS_FILE, 'utf8')) as { source: string; endpoints: string[] };
}

export const endpointLine = (e: ContractEndpoint): string => `${e.method} ${e.path}`;

export function contractText(): string | null {
  return existsSync(CONTRACT_PATH) ? readFileSync(CONTRACT_PATH, 'utf8') : null;
}
