import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { TestServer } from '../../support/server';

const CHILD = join(__dirname, 'sync-child.ts');
const ROOT = join(__dirname, '..', '..', '..');

export interface ChildRun {
  killed: boolean;
  /** Outbox items the child said it finished before it ended. */
  items: number;
  output: string;
}

/**
 * Runs the sync engine over `dataDir` in a child process (sync-child.ts); with `killAfterItems`, SIGKILLs
 * it that many items (plus `killDelayMs`) into the push: a crash at a point of the protocol, not a
 * shutdown the engine could clean up after.
 */
export function runSyncChild(dataDir: string, apiBase: string, killAfterItems: number | null, killDelayMs: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, apiBase], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let items = 0;
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      items = (output.match(/^item$/gm) ?? []).length;
      if (killAfterItems !== null && items >= killAfterItems) setTimeout(kill, killDelayMs);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const guard = setTimeout(() => {
      kill();
      reject(new Error(`child did not finish: ${output.slice(-2000)}`));
    }, 60_000);
    child.on('exit', () => {
      clearTimeout(guard);
      resolve({ killed, items, output });
    });
  });
}

/** Every page of a list endpoint of the service, as the records. */
export async function fetchAllPages<T>(server: TestServer, apiKey: string, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await server.api(apiKey, 'GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}&per_page=100`);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    out.push(...(res.body.data.data as T[]));
    if (!res.body.data.has_more) return out;
  }
}
