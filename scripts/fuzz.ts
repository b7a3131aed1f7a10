/**
 * The long fuzz run: requests generated from the served OpenAPI document against the real service,
 * on each dialect, as the CI test test/server/fuzz-openapi.test.ts does in a bounded run.
 *
 *   npx tsx scripts/fuzz.ts --runs 200 --seed 42 [--dialects sqlite,postgres] [--only createInvoice]
 *
 * Prints the statuses seen and every failure (with the seed that replays it); exits 1 on any failure.
 */
import { parseArgs } from 'node:util';
import { fuzzService } from '../test/support/openapi-fuzz-run';
import type { Dialect } from '../server/db/types';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    only: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

async function main(): Promise<void> {
  const runs = Number(values.runs);
  const seed = Number(values.seed);
  let failed = false;
  for (const dialect of values.dialects!.split(',') as Dialect[]) {
    const started = Date.now();
    const report = await fuzzService({
      dialect,
      runsPerOperation: runs,
      seed,
      ...(values.only ? { only: new RegExp(values.only) } : {}),
      ...(values.verbose ? { log: (line: string) => console.log(line) } : {}),
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${dialect}: ${report.requests} requests to ${report.operations} operations in ${seconds} s, seed ${seed}`);
    console.log(`  statuses: ${Object.entries(report.statuses).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    for (const failure of report.failures) console.log(`  FAIL ${failure}`);
    failed ||= report.failures.length > 0;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
