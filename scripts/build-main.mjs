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
  external: ['electron', 'better-sqlite3'],
});
await build({
  ...common,
  entryPoints: ['preload/index.ts'],
  outfile: 'dist/preload/index.cjs',
  format: 'cjs',
  external: ['electron'],
});
