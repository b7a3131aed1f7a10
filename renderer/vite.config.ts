import { defineConfig } from 'vite';

/**
 * The renderer bundle: `vite build --config renderer/vite.config.ts` -> dist/renderer. Electron
 * loads it from disk and the web host serves it over HTTP, so every asset path is relative (`base:
 * './'`). No React plugin is installed: Vite 8 transforms TSX itself with oxc, told here to use
 * React's automatic runtime (`react/jsx-runtime`), the same setting as tsconfig's `"jsx": "react-jsx"`.
 */
// import.meta.dirname (Node >= 20.11) rather than node:url, so this file needs no Node import of its own.
const root = import.meta.dirname;

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'react' },
  },
  build: {
    outDir: `${root}/../dist/renderer`,
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    // One CSS file and a few chunks: the app is loaded from disk, where request count does not matter.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      onwarn(warning, warn) {
        // react-query marks files "use client" for server-component bundlers; meaningless in a client-only app.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: { strictPort: false },
});
