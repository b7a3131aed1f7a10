// Bundles the Electron main process and the preload with esbuild.
// The preload runs sandboxed, where only a single CommonJS file can load; main is bundled the same way
// so that packaged apps carry no TypeScript and no dev dependencies.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'info' };

await build({
  ...common,
  entryPoints: ['main/electron.ts'],
  outfile: 'dist/main/electron.cjs',
  format: 'cjs',
  // playwright-core: the desktop prints through Electron (main/electron.ts hands the embedded service its renderer), so the
  // service's Chromium driver is never loaded there; left out of the bundle rather than packed unused.
  external: ['electron', 'better-sqlite3', 'playwright-core'],
});
await build({
  ...common,
  entryPoints: ['preload/index.ts'],
  outfile: 'dist/preload/index.cjs',
  format: 'cjs',
  external: ['electron'],
});
