import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { fuzzService } from '../support/openapi-fuzz-run';

/**
 * The bounded fuzz run of CI: every operation of /v1/openapi.json, a few generated requests each
 * (valid, boundary, invalid), on both dialects: no 5xx, the envelope on every error, and a refused
 * request changes nothing in the database. The long run: `npx tsx scripts/fuzz.ts --runs 200 --seed N`.
 * FUZZ_SEED replays a run (a failure prints its seed per operation); FUZZ_RUNS sets the requests per operation.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);

describe.each(DIALECTS)('requests generated from the OpenAPI document on %s', (dialect) => {
  it('never answer 5xx, always answer errors in the envelope, and change nothing when refused', async () => {
    const report = await fuzzService({ dialect, runsPerOperation: RUNS, seed: SEED });
    expect(report.operations).toBeGreaterThan(100);
    expect(report.requests).toBeGreaterThanOrEqual(report.operations * RUNS);
    expect(report.failures).toEqual([]);
    // The run reached past validation, not only refusals.
    const ok = Object.entries(report.statuses).filter(([s]) => Number(s) < 300).reduce((n, [, c]) => n + c, 0);
    expect(ok).toBeGreaterThan(0);
  }, 120_000);
});
