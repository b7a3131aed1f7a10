import type { RecordSync } from '../../shared/ipc/contract';
import type { ReadDb } from '../db/store';
import { syncStates, type EntityType } from '../sync/outbox';

/** Sync state of each row of a page, in one query. */
export function recordSyncs(db: ReadDb, type: EntityType, rows: ReadonlyArray<{ id: string; server_id: string | null }>): Map<string, RecordSync> {
  const states = syncStates(db, type, rows.map((r) => r.id));
  const out = new Map<string, RecordSync>();
  for (const row of rows) {
    const open = states.get(row.id);
    out.set(row.id, {
      state: open ? open.state : row.server_id ? 'synced' : 'pending',
      server_id: row.server_id,
      error: open?.error ?? null,
    });
  }
  return out;
}

export function recordSync(db: ReadDb, type: EntityType, row: { id: string; server_id: string | null }): RecordSync {
  return recordSyncs(db, type, [row]).get(row.id)!;
}

/** `%term%` for LIKE with the wildcards of the term escaped (used with ESCAPE '\'). */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Deep-sets a dotted path (`items.0.product_id`) in a JSON body. */
export function setPath(target: unknown, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target as Record<string, unknown>;
  for (let i = 0; i < keys.length - 1; i++) {
    node = node[keys[i]!] as Record<string, unknown>;
    if (node === null || typeof node !== 'object') throw new Error(`no such path ${path}`);
  }
  node[keys[keys.length - 1]!] = value;
}
