// Reads vitest's JSON report and prints the one line CI reads: `tests: N passed, M failed`.
// When the report is missing (typecheck or lint failed before the tests ran), that step counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const [reportPath = '.vitest-report.json', statusText = '0'] = process.argv.slice(2);
const status = Number(statusText);
if (!existsSync(reportPath)) {
  console.log(`tests: 0 passed, ${status === 0 ? 0 : 1} failed`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const passed = report.numPassedTests ?? 0;
let failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A suite that failed to load has no failed test but failed all the same.
const brokenSuites = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).every((a) => a.status !== 'failed')).length;
failed += brokenSuites;
if (status !== 0 && failed === 0) failed = 1;
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
