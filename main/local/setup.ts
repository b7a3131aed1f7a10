import { z } from 'zod';
import { SETUP_STEPS, zPrintLayout, type SetupState, type zSetupUpdate } from '../../shared/ipc/contract-series-admin';
import { getSetting, setSetting } from '../db/queries/settings';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';

/**
 * The setup wizard's state and this device's print choices, in the local settings (no migration:
 * the settings table is a key-value store).
 *
 * `onboarding_done` when never written is inferred: an install that already has an API key and
 * series or invoices in its cache predates the wizard (or was set up by hand) and is not sent
 * through it; one whose first full sync found neither (a company just made) is. With no key, or
 * before that first sync, it reads as done: there is nothing to set up from yet. The wizard writes an
 * explicit value on its first save, so creating the first series mid-wizard does not end it.
 */
const zStored = z.object({
  onboarding_done: z.boolean(),
  completed: z.array(z.enum(SETUP_STEPS)),
  invoice_series_id: z.string().nullable(),
  receipt_series_id: z.string().nullable(),
});
type Stored = z.infer<typeof zStored>;

const KEY = 'onboarding';

function inferredDone(db: ReadDb, hasApiKey: boolean): boolean {
  if (!hasApiKey) return true;
  // Before the first full sync the cache says nothing about the firm: no wizard yet (it would flash
  // up for an upgraded install, then vanish). The company profile is kept by the first full pass,
  // after the series are read.
  if (!db.get(sql`SELECT 1 AS ok FROM settings WHERE key = 'company_profile'`)) return true;
  const data = db.get<{ n: number }>(sql`SELECT (SELECT COUNT(*) FROM series) + (SELECT COUNT(*) FROM invoices) AS n`)?.n ?? 0;
  return data > 0;
}

export function readSetup(db: ReadDb, hasApiKey: boolean): SetupState {
  const stored = getSetting(db, KEY, zStored);
  return {
    onboarding_done: stored ? stored.onboarding_done : inferredDone(db, hasApiKey),
    source: stored ? 'stored' : 'inferred',
    completed: stored?.completed ?? [],
    invoice_series_id: stored?.invoice_series_id ?? null,
    receipt_series_id: stored?.receipt_series_id ?? null,
    print_layout: getSetting(db, 'print_layout', zPrintLayout) ?? 'a4',
    logo: getSetting(db, 'logo', z.string()) ?? null,
  };
}

export function writeSetup(db: WriteDb, hasApiKey: boolean, patch: z.output<typeof zSetupUpdate>): void {
  const current = readSetup(db, hasApiKey);
  const next: Stored = {
    onboarding_done: patch.onboarding_done ?? current.onboarding_done,
    completed: patch.completed ? [...new Set([...current.completed, ...patch.completed])] : current.completed,
    invoice_series_id: patch.invoice_series_id !== undefined ? patch.invoice_series_id : current.invoice_series_id,
    receipt_series_id: patch.receipt_series_id !== undefined ? patch.receipt_series_id : current.receipt_series_id,
  };
  setSetting(db, KEY, next);
  if (patch.print_layout !== undefined) setSetting(db, 'print_layout', patch.print_layout);
  if (patch.logo !== undefined) setSetting(db, 'logo', patch.logo);
}
