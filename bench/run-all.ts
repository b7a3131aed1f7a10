/**
 * `npm run bench`: every benchmark, one after the other (they would disturb each other in parallel on
 * two cores). Each prints its own figures and its ratio to a baseline measured in the same run.
 */
import { spawnSync } from 'node:child_process';

const benches = ['bench/server.ts', 'bench/numbering.ts', 'bench/sync.ts', 'bench/invoice-list.ts', 'bench/import.ts', 'bench/efactura-check.ts', 'bench/counter.ts', 'bench/counter-screen.ts'];
let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n=== ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
