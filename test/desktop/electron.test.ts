import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_CSP, cspFor, isAppUrl, MAIN_WINDOW_PREFERENCES, opensExternally, PRINT_CSP, PRINT_WINDOW_PREFERENCES, requestAllowed,
} from '../../main/electron-policy';
import { SafeStorageSecretStore } from '../../main/secrets/safe-storage';
import { FileSecretStore } from '../../main/secrets/file-store';

/** Whether Electron's binary was downloaded (it is not here: ELECTRON_SKIP_BINARY_DOWNLOAD). Never triggers a download. */
function electronBinaryPresent(): boolean {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    return existsSync(pathFile) && existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()));
  } catch {
    return false;
  }
}

describe('Electron security policy (checked without the binary)', () => {
  it('windows are isolated, sandboxed, without Node; the print window runs no script', () => {
    expect(MAIN_WINDOW_PREFERENCES).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, webSecurity: true });
    expect(PRINT_WINDOW_PREFERENCES).toMatchObject({ javascript: false, sandbox: true, nodeIntegration: false });
  });

  it('the CSP loads nothing remote, evaluates no strings, and cannot be framed', () => {
    for (const csp of [APP_CSP, PRINT_CSP]) {
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
    }
    expect(APP_CSP).toMatch(/frame-ancestors 'none'/);
    expect(PRINT_CSP).not.toMatch(/script-src/);
    expect(cspFor('app://tejghea/__print/x.html')).toBe(PRINT_CSP);
    expect(cspFor('app://tejghea/index.html')).toBe(APP_CSP);
  });

  it('navigation stays in the app; requests leave only for the app scheme; outside links go to the browser', () => {
    expect(isAppUrl('app://tejghea/invoices/1')).toBe(true);
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://tejghea.evil/x', 'app://other/x', 'javascript:alert(1)']) {
      expect(isAppUrl(url)).toBe(false);
      expect(requestAllowed(url)).toBe(false);
    }
    expect(requestAllowed('app://tejghea/assets/app.js')).toBe(true);
    expect(opensExternally('https://anaf.ro/')).toBe(true);
    expect(opensExternally('http://anaf.ro/')).toBe(false);
    expect(opensExternally('file:///x')).toBe(false);
  });
});

describe('API key storage, behind one interface', () => {
  const keychain = {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
    decryptString: (b: Buffer) => Buffer.from(b.toString().slice(4), 'base64').toString(),
  };

  it('safeStorage: only ciphertext on disk; refuses when the OS cannot encrypt', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-sec-'));
    try {
      const store = new SafeStorageSecretStore(keychain, dir);
      store.set('api_key', 'sk_live_abcdefghijklmnopqrstuvwx');
      expect(store.get('api_key')).toBe('sk_live_abcdefghijklmnopqrstuvwx');
      expect(readFileSync(join(dir, 'secrets', 'secrets.enc.json'), 'utf8')).not.toContain('sk_live_');
      const locked = new SafeStorageSecretStore({ ...keychain, isEncryptionAvailable: () => false }, dir);
      expect(() => locked.set('api_key', 'x')).toThrow(/not available/);
      store.delete('api_key');
      expect(store.get('api_key')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('web host file store: 0600 file in a 0700 folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-sec-'));
    try {
      const store = new FileSecretStore(dir);
      store.set('api_key', 'sk_test_abcdefghijklmnopqrstuvwx');
      expect(store.get('api_key')).toBe('sk_test_abcdefghijklmnopqrstuvwx');
      expect(statSync(store.path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(store.path)).mode & 0o777).toBe(0o700);
      store.delete('api_key');
      expect(existsSync(store.path)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Electron main process with the real binary', () => {
  it.skipIf(!electronBinaryPresent())(
    'SKIPPED HERE: needs the Electron binary (not downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD); main/electron.ts is type-checked only',
    async () => {
      // With the binary: bundle main and preload as scripts/build-main.mjs does, launch, and check the window.
      const { build } = await import('esbuild');
      const out = mkdtempSync(join(tmpdir(), 'tejghea-electron-'));
      try {
        await build({ entryPoints: ['main/electron.ts'], bundle: true, platform: 'node', format: 'esm', outfile: join(out, 'main', 'electron.mjs'), external: ['electron', 'better-sqlite3', 'esbuild'] });
        await build({ entryPoints: ['preload/index.ts'], bundle: true, platform: 'node', format: 'cjs', outfile: join(out, 'preload', 'index.cjs'), external: ['electron'] });
        const { _electron } = await import('playwright-core');
        const app = await _electron.launch({ args: [join(out, 'main', 'electron.mjs')], env: { ...process.env, TEJGHEA_DATA_DIR: join(out, 'data') } });
        try {
          const page = await app.firstWindow();
          expect(await page.evaluate(() => Object.keys((globalThis as { tejghea?: object }).tejghea ?? {}).sort())).toEqual(['invoke', 'on']);
          expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
          const reply = await page.evaluate(() => (globalThis as unknown as { tejghea: { invoke(c: string): Promise<unknown> } }).tejghea.invoke('app.info'));
          expect(reply).toMatchObject({ ok: true, value: { host: 'electron' } });
        } finally {
          await app.close();
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
