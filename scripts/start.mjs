// `npm start`: builds and runs the desktop app in Electron. Where Electron's binary is missing
// (installed with ELECTRON_SKIP_BINARY_DOWNLOAD, or a machine that cannot download it) it says so
// and starts the web host instead, which runs the same app in a browser: a shop owner ends at a
// ready counter either way, with no second command.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { ensureElectronSqlite } from './electron-native.mjs';

const require = createRequire(import.meta.url);

/**
 * The Electron executable, or null. Electron's own entry tries to download the binary when it is
 * missing; we look first (its `path.txt` is written only by a completed install) so that a machine
 * without network gets our message at once instead of a failed download.
 */
function findElectron() {
  let packageDir;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH && !existsSync(join(packageDir, 'path.txt'))) return null;
  try {
    return require('electron');
  } catch {
    return null;
  }
}

const run = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const electronPath = findElectron();
if (typeof electronPath !== 'string' || !existsSync(electronPath)) {
  console.error(
    [
      "Electron's binary is not installed on this machine (it was skipped or could not be downloaded).",
      'Starting the same app in your browser instead (the web host, as `npm run start:web` does):',
      'open the http://127.0.0.1:…/#token=… address it prints below.',
      '',
      'For the desktop window, install Electron with network access: `npm rebuild electron` (without ELECTRON_SKIP_BINARY_DOWNLOAD).',
      '',
    ].join('\n'),
  );
  run('npm', ['run', '--silent', 'start:web']);
  process.exit(0);
}

run('npm', ['run', '--silent', 'build']);
const nativeBinding = ensureElectronSqlite();
run(electronPath, ['.'], { ...process.env, TEJGHEA_SQLITE_BINDING: nativeBinding });
