import { z } from 'zod';
import { getSetting, setSetting } from '../../db/queries/settings';
import type { ReadDb, WriteDb } from '../../db/store';

/**
 * The firm's rule for selling below zero (GET /stock/settings `negative_stock`), as last read, for
 * the counter's warning. Kept in `settings` so the counter still knows it offline. Not read on every
 * sync pass (a pass's requests are counted and kept few): the counter reads it when it is older than
 * `NEGATIVE_RULE_TTL_MS`, and "Sincronizează acum" makes it old, so a change on the service is seen
 * at once by whoever asks for a sync.
 */
export const NEGATIVE_RULE_TTL_MS = 5 * 60_000;
const KEY = 'stock.negative_stock';
const zRule = z.object({ value: z.enum(['allow', 'block']), read_at: z.number() });
export type NegativeRule = z.infer<typeof zRule>;

export function readNegativeRule(db: ReadDb): NegativeRule | undefined {
  return getSetting(db, KEY, zRule);
}

export function storeNegativeRule(db: WriteDb, value: 'allow' | 'block', now: number): void {
  setSetting(db, KEY, { value, read_at: now });
}

/** The rule stays known (offline too) but is read again at the next chance. */
export function markNegativeRuleStale(db: WriteDb): void {
  const rule = readNegativeRule(db);
  if (rule) setSetting(db, KEY, { ...rule, read_at: 0 });
}
