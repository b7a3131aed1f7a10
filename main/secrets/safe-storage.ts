import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { SecretStore } from './index';

/** The part of Electron's `safeStorage` used here (passed in, so this file never imports electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

const zFile = z.record(z.string(), z.string());

/**
 * Secrets encrypted by the OS keychain through Electron's `safeStorage`; only the ciphertext (base64)
 * is on disk. Refuses to store anything when encryption is unavailable (e.g. Linux without a keyring)
 * rather than silently writing plain text.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly kind = 'safe-storage' as const;
  private readonly path: string;

  constructor(
    private readonly safeStorage: SafeStorageLike,
    dataDir: string,
  ) {
    this.path = join(dataDir, 'secrets', 'secrets.enc.json');
  }

  private read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    const parsed = zFile.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
    return parsed.success ? parsed.data : {};
  }

  private write(values: Record<string, string>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(values), { mode: 0o600 });
    renameSync(tmp, this.path);
  }

  get(name: string): string | null {
    const value = this.read()[name];
    if (value === undefined) return null;
    try {
      return this.safeStorage.decryptString(Buffer.from(value, 'base64'));
    } catch {
      // Encrypted by another user account or keychain: as good as absent.
      return null;
    }
  }

  set(name: string, value: string): void {
    if (!this.safeStorage.isEncryptionAvailable()) throw new Error('OS encryption is not available: the API key cannot be stored safely');
    this.write({ ...this.read(), [name]: this.safeStorage.encryptString(value).toString('base64') });
  }

  delete(name: string): void {
    const values = this.read();
    delete values[name];
    if (Object.keys(values).length === 0) rmSync(this.path, { force: true });
    else this.write(values);
  }
}
