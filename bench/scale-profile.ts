/**
 * Where the service's CPU went in a bench/scale.ts run, by component, per issued invoice: reads the
 * profiles that `SCALE_PROFILE_DIR=<dir> npx tsx bench/scale.ts` wrote (one per service process and
 * run, measured phase only), sums the self time of each run's processes by component (our code,
 * Fastify, Kysely, the pg driver, ioredis, Node's own net/stream/http, GC…) and divides by the
 * invoices of the run. Comparing a 1-process run with a 2-process one shows which part grows.
 *
 *   npx tsx bench/scale-profile.ts <dir> <invoices per run>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const COMPONENTS: Array<[string, (f: ProfileNode['callFrame']) => boolean]> = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['program (V8/native, unattributed)', (f) => f.functionName === '(program)'],
  ['pg driver (pg, pg-protocol, pg-pool)', (f) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//.test(f.url)],
  ['kysely', (f) => f.url.includes('node_modules/kysely/')],
  ['fastify (+ find-my-way, avvio)', (f) => /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse)\//.test(f.url)],
  ['ioredis (rate limits)', (f) => /node_modules\/(ioredis|redis-parser|denque|@ioredis)\//.test(f.url)],
  ['zod', (f) => f.url.includes('node_modules/zod/')],
  ['pino (logger)', (f) => /node_modules\/(pino|pino-std-serializers|sonic-boom)/.test(f.url)],
  ['tsx loader', (f) => f.url.includes('node_modules/tsx/')],
  ['other dependencies', (f) => f.url.includes('node_modules/')],
  ['service code (server/, shared/)', (f) => /\/(server|shared)\//.test(f.url)],
  ['bench hooks (bench/)', (f) => f.url.includes('/bench/')],
  ['node core (net, stream, http, timers)', (f) => f.url.startsWith('node:')],
  ['native functions (syscalls, crypto, JSON, builtins)', () => true],
];

function byComponent(profile: Profile): Map<string, number> {
  const component = new Map<number, string>();
  for (const n of profile.nodes) component.set(n.id, COMPONENTS.find(([, test]) => test(n.callFrame))![0]);
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = component.get(id)!;
    out.set(name, (out.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}

const [dir, invoicesText] = process.argv.slice(2);
if (!dir || !invoicesText) throw new Error('usage: npx tsx bench/scale-profile.ts <dir> <invoices per run>');
const invoices = Number(invoicesText);
const runs = new Map<string, Map<string, number>>();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort()) {
  const label = /^scale-(.+)-pid\d+\.cpuprofile$/.exec(file)?.[1] ?? file;
  const sums = runs.get(label) ?? new Map<string, number>();
  for (const [name, us] of byComponent(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile)) sums.set(name, (sums.get(name) ?? 0) + us);
  runs.set(label, sums);
}
const labels = [...runs.keys()];
console.log(`µs of service CPU per issued invoice, by component (self time, summed over a run's processes; ${invoices} invoices a run)`);
console.log(`${'component'.padEnd(52)}${labels.map((l) => l.padStart(10)).join('')}`);
const busy = (m: Map<string, number>) => [...m].filter(([n]) => n !== 'idle').reduce((a, [, v]) => a + v, 0);
for (const [name] of COMPONENTS) {
  if (name === 'idle') continue;
  console.log(`${name.padEnd(52)}${labels.map((l) => ((runs.get(l)!.get(name) ?? 0) / invoices).toFixed(0).padStart(10)).join('')}`);
}
console.log(`${'busy, total'.padEnd(52)}${labels.map((l) => (busy(runs.get(l)!) / invoices).toFixed(0).padStart(10)).join('')}`);
