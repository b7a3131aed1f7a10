import { z } from 'zod';
import { sql } from '../sql';
import type { ReadDb, WriteDb } from '../store';

/** A setting read from disk is checked against its schema: a value that no longer fits reads as absent. */
export function getSetting<T extends z.ZodType>(db: ReadDb, key: string, schema: T): z.output<T> | undefined {
  const row = db.get<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${key}`);
  if (!row) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    return undefined;
  }
  const result = schema.safeParse(parsed);
  return result.success ? result.data : undefined;
}

export function setSetting(db: WriteDb, key: string, value: unknown): void {
  db.run(sql`INSERT INTO settings (key, value) VALUES (${key}, ${JSON.stringify(value)})
             ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

export function deleteSetting(db: WriteDb, key: string): void {
  db.run(sql`DELETE FROM settings WHERE key = ${key}`);
}

/** The work point chosen on this device (settings.update `work_point_id`); null: the API key's own. */
export function selectedWorkPointId(db: ReadDb): string | null {
  return getSetting(db, 'work_point_id', z.string().nullable()) ?? null;
}
