/**
 * Shelf-price arithmetic over random counter baskets: baskets priced per second with the shared
 * computation (shared/invoice-math computeTotals, VAT-included lines: totals fixed, VAT extracted per
 * rate, nets shared out), and beside it the baseline measured in the same run: the same baskets
 * priced as net lines (VAT per line, the B2B arithmetic). Every basket is also checked: the total is
 * exactly the sum of quantity x shelf price less discounts, and each rate's VAT is within a ban of
 * its base x rate (BR-CO-17 allows up to 0,99 lei). A failed check exits 1.
 *
 *   npx tsx bench/baskets.ts              # 100,000 baskets
 *   BENCH_N=20000 npx tsx bench/baskets.ts
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { computeTotals, type LineInput } from '../shared/invoice-math';
import { basketArbitrary, shelfLineTotal } from '../test/support/baskets';

const N = Number(process.env.BENCH_N ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const baskets = fc.sample(basketArbitrary, { numRuns: N, seed: 42 });
const netBaskets: LineInput[][] = baskets.map((b) => b.lines.map((l) => ({ ...l, price_includes_vat: false })));
const lines = baskets.reduce((s, b) => s + b.lines.length, 0);

let failures = 0;
for (const b of baskets) {
  const t = computeTotals(b.lines);
  const expected = b.lines.reduce((s, l) => s + shelfLineTotal(l), 0);
  if (t.total_bani !== expected) failures++;
  for (const e of t.breakdown) {
    if (Math.abs(e.vat_bani - Math.round((e.net_bani * e.vat_rate_bp) / 10_000)) > 1) failures++;
  }
}

function rate(run: () => void): number {
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    run();
    const seconds = (performance.now() - start) / 1000;
    best = Math.max(best, N / seconds);
  }
  return best;
}

let sink = 0;
const shelf = rate(() => {
  for (const b of baskets) sink += computeTotals(b.lines).total_bani;
});
const net = rate(() => {
  for (const b of netBaskets) sink += computeTotals(b).total_bani;
});

console.log(`baskets: ${N.toLocaleString('en')} (${lines.toLocaleString('en')} lines, ${(lines / N).toFixed(1)} per basket), best of ${ROUNDS}`);
console.log(`shelf prices (VAT extracted per rate): ${Math.round(shelf).toLocaleString('en')} baskets/s`);
console.log(`baseline, same baskets as net lines:   ${Math.round(net).toLocaleString('en')} baskets/s`);
console.log(`ratio shelf/baseline: ${(shelf / net).toFixed(2)}`);
// Read, so the engine cannot drop the loops whose sums feed it.
if (!Number.isFinite(sink)) console.log('unexpected sum');
console.log(`checks: ${failures === 0 ? 'every total exact, every rate within a ban of BR-CO-17' : `${failures} FAILED`}`);
if (failures > 0) process.exit(1);
