import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/dates';
import { uploadDeadlineState, type DeadlineState } from '../../shared/ro/working-days';
import { startDesktop, type Desktop } from './support/desktop';
import { screenshot } from './support/flows';
import { tempDataDir } from './support/stack';

/**
 * The sync centre warns about ANAF's clock: fiscal invoices not accepted in RO e-Factura whose
 * 5-working-day deadline is near, today or past, and nothing for one in time or already accepted.
 * The device is offline (no service): the deadlines are the device's own arithmetic.
 */
describe('e-Factura deadlines in the sync centre', () => {
  let desktop: Desktop;
  const dir = tempDataDir();

  /** The latest issue date, going back from today, whose deadline is in `state` today. */
  function issuedFor(state: DeadlineState, today: string): string {
    for (let back = 0; back < 30; back += 1) {
      const day = addDays(today, -back);
      if (uploadDeadlineState(day, today).state === state) return day;
    }
    throw new Error(`no issue date puts the deadline in state ${state}`);
  }

  beforeAll(async () => {
    desktop = await startDesktop({ apiUrl: 'http://127.0.0.1:9', dataDir: dir.dir, engine: { probeDelayMs: { min: 60_000, max: 60_000 } } });
    const today = desktop.services.ctx.today();
    const db = desktop.services.store.raw;
    const insert = db.prepare(`INSERT INTO invoices (id, server_id, document_type, status, series_id, series_name, number, full_number, numbering,
        issue_date, due_date, client_id, buyer, currency, net_bani, vat_bani, total_bani, discount_bani, vat_breakdown, paid_state, amount_paid_bani,
        payment_method, spv_environment, efactura_status, issued_at, created_at, updated_at, server_updated_at)
      VALUES (?, ?, 'fiscal', 'issued', 'ser', 'TJ', ?, ?, 'server', ?, NULL, NULL, NULL, 'RON', 10000, 2100, 12100, 0, '[]', 'unpaid', 0,
        NULL, 'live', ?, 1, 1, 1, 1)`);
    const rows: [string, DeadlineState | 'ok', string][] = [
      ['inv-overdue', 'overdue', 'not_sent'], ['inv-today', 'today', 'rejected'], ['inv-soon', 'soon', 'not_sent'],
      ['inv-ok', 'ok', 'not_sent'], ['inv-accepted', 'overdue', 'accepted'],
    ];
    rows.forEach(([id, state, status], i) => insert.run(id, `srv-${id}`, i + 1, `TJ-2026-${String(i + 1).padStart(4, '0')}`, issuedFor(state as DeadlineState, today), status));
  }, 120_000);

  afterAll(async () => {
    await desktop?.close();
    dir.remove();
  });

  it('lists what is near, due today or past, with its last day, and says so in Romanian', async () => {
    await desktop.open('#/sync');
    const page = desktop.page;
    await page.waitForSelector('[data-testid=efactura-deadlines]');
    const rows = await page.$$eval('[data-testid=efactura-deadline-row]', (trs) => trs.map((tr) => [tr.getAttribute('data-state'), tr.textContent ?? ''] as const));
    expect(rows.map(([state, text]) => [state, text.slice(0, 12)])).toEqual([
      ['overdue', 'TJ-2026-0001'], ['today', 'TJ-2026-0002'], ['soon', 'TJ-2026-0003'],
    ]);
    const text = await page.textContent('[data-testid=efactura-deadlines]');
    expect(text).toContain('Termen depășit');
    expect(text).toContain('Ultima zi azi');
    expect(text).toContain('respinsă de ANAF');
    expect(text).toMatch(/\d{2}\.\d{2}\.\d{4}/);
    await screenshot(page, 'sync-efactura-deadlines');

    // Each invoice shows its own last day.
    await page.click('[data-testid=efactura-deadline-row][data-state=soon] button');
    const deadline = await page.waitForSelector('[data-testid=efactura-upload-deadline]');
    expect(await deadline.textContent()).toMatch(/^De încărcat în e-Factura până la \d{2}\.\d{2}\.\d{4} \(5 zile lucrătoare\)$/);
  });
});
