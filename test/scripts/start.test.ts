import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const electronInstalled = existsSync('node_modules/electron/path.txt');

describe('npm start', () => {
  it.skipIf(electronInstalled)(
    'names the web host when Electron’s binary is missing (skipped where Electron is installed: it would start the app)',
    () => {
      const result = spawnSync(process.execPath, ['scripts/start.mjs'], { encoding: 'utf8', timeout: 30_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("Electron's binary is not installed");
      expect(result.stderr).toContain('npm run start:web');
      // It must not try (and fail) to download the binary first.
      expect(result.stdout + result.stderr).not.toContain('Downloading Electron');
    },
  );
});
