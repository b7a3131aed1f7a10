/**
 * Where a server's busy time went, from a V8 CPU profile (`bench/server.ts --cpu-prof <dir>`, or any
 * `node --cpu-prof` run): idle and start-up samples (module loading, app building) are dropped, then
 * it prints the inclusive share of the frames named (default: the platform's stages) and the frames
 * with the most self time.
 *
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [frame name]...
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const STARTUP = /Module\._load|loadAndTranslate|startServer|buildApp|moduleStrategy|compileSourceTextModule|ModuleJob|evaluate/;
const DEFAULT_FRAMES = [
  'authenticate', 'hashKey', 'checkRateLimit', 'canonicalInput', 'parsePart', 'runHandler', 'membersJson', 'meta ',
  'executeQuery', 'compileQuery', 'writev', 'onSendHook', 'parserOnHeadersComplete', '(garbage collector)', 'promiseInitHook',
];

const [file, ...frames] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/profile-top.ts <file.cpuprofile> [frame name]...');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*\/(node_modules|server|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;

const perNode = new Map<number, number>();
for (const s of profile.samples) perNode.set(s, (perNode.get(s) ?? 0) + 1);
let busy = 0;
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
for (const [id, count] of perNode) {
  const stack: string[] = [];
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) stack.push(label(byId.get(cur)!));
  if (stack[0]!.startsWith('(idle)') || stack[0]!.startsWith('(program)') || stack.some((f) => STARTUP.test(f))) continue;
  busy += count;
  self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + count);
  for (const f of new Set(stack)) inclusive.set(f, (inclusive.get(f) ?? 0) + count);
}
const pct = (n: number) => `${((100 * n) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
console.log(`${busy} busy samples`);
for (const name of frames.length ? frames : DEFAULT_FRAMES) {
  let best: [string, number] = ['', 0];
  for (const entry of inclusive) if (entry[0].includes(name) && entry[1] > best[1]) best = entry;
  console.log(`${pct(best[1])}  ${name.padEnd(26)} ${best[0]}`);
}
console.log('-- most self time');
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(count)}  ${name}`);
