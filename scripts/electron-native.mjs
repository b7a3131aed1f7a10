// better-sqlite3 is compiled for Node (tests, server, web host). Electron needs a build for its own
// ABI; we keep it beside the Node one (better-sqlite3's `nativeBinding` option loads it), so that
// switching between `npm test` and `npm start` never rebuilds back and forth.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function ensureElectronSqlite() {
  const electronVersion = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')).version;
  const outDir = resolve('.electron-native', electronVersion);
  const binding = join(outDir, 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  const work = resolve('.electron-native', 'build');
  mkdirSync(work, { recursive: true });
  cpSync('node_modules/better-sqlite3', work, { recursive: true });
  console.log(`building better-sqlite3 for Electron ${electronVersion} (once)…`);
  const r = spawnSync(
    'npx',
    ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'],
    { cwd: work, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('could not build better-sqlite3 for Electron');
  mkdirSync(outDir, { recursive: true });
  cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), binding);
  return binding;
}
