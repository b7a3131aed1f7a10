import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds dist/renderer once when any renderer source (or shared code it bundles) is newer than the
 * last build. Test files run in two workers at once, so the build is guarded by a directory lock
 * (mkdir is atomic): the second worker waits for the first one's build instead of racing it.
 */
const ROOT = process.cwd();
const OUT = join(ROOT, 'dist', 'renderer', 'index.html');
const LOCK = join(ROOT, 'node_modules', '.cache', 'tejghea-renderer-build.lock');
const SOURCES = ['renderer', 'shared'];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function rendererIsStale(): boolean {
  if (!existsSync(OUT)) return true;
  const built = statSync(OUT).mtimeMs;
  return SOURCES.some((dir) => newestMtime(join(ROOT, dir)) > built);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function ensureRendererBuilt(): void {
  if (!rendererIsStale()) return;
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another worker is building; a lock older than two minutes belongs to a dead run.
      if (Date.now() - started > 120_000 || (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 120_000)) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      sleep(200);
      if (!rendererIsStale()) return;
    }
  }
  try {
    if (!rendererIsStale()) return;
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  } finally {
    rmdirSync(LOCK);
  }
}
