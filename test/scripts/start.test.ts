import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const electronInstalled = existsSync('node_modules/electron/path.txt');

describe('npm start', () => {
  it.skipIf(electronInstalled)(
    'where Electron’s binary is missing, says so and starts the web host instead (skipped where Electron is installed: it would open the app)',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tejghea-start-'));
      // PORT=0: any free port, so a developer's running web host on 5199 is left alone.
      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        env: { ...process.env, PORT: '0', TEJGHEA_DATA_DIR: dataDir, TEJGHEA_API_URL: '' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
      child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
      try {
        const opened = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no address printed\nstdout: ${stdout}\nstderr: ${stderr}`)), 170_000);
          child.stdout.on('data', () => {
            const m = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(stdout);
            if (m) {
              clearTimeout(timer);
              resolve(m[1]!);
            }
          });
          child.once('exit', (code) => reject(new Error(`exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`)));
        });
        expect(stderr).toContain("Electron's binary is not installed");
        expect(stderr).toContain('Starting the same app in your browser instead');
        // It must not try (and fail) to download the binary first.
        expect(stdout + stderr).not.toContain('Downloading Electron');
        // The web host serves the app, from the data folder given, with no service configured yet (the first-run screen asks).
        expect(stdout).toContain(`data in ${dataDir}`);
        expect(stdout).toContain('no service yet');
        const page = await fetch(opened.replace(/#.*/, ''));
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('/__tejghea/bridge.js');
      } finally {
        if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
