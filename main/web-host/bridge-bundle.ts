import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** preload/web-bridge.ts as one classic browser script, compiled when the web host starts. */
export async function buildBridgeScript(): Promise<string> {
  const entry = fileURLToPath(new URL('../../preload/web-bridge.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: false,
    legalComments: 'none',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no bridge script');
  return file.text;
}
