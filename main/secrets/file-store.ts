import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { SecretStore } from './index';

const zFile = z.record(z.string(), z.string());

/**
 * Secrets in one JSON file readable by the owner only (0600, in a 0700 folder). Written to a
 * temporary file with the same mode and renamed, so a crash never leaves half a file or a moment
 * where the secret is readable by others.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly path: string;

  constructor(dataDir: string, fileName = 'secrets.json') {
    this.path = join(dataDir, 'secrets', fileName);
  }

  private read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    const parsed = zFile.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
    return parsed.success ? parsed.data : {};
  }

  private write(values: Record<string, string>): void {
    const dir = dirname(this.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(values), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.path);
  }

  get(name: string): string | null {
    return this.read()[name] ?? null;
  }

  set(name: string, value: string): void {
    this.write({ ...this.read(), [name]: value });
  }

  delete(name: string): void {
    const values = this.read();
    delete values[name];
    if (Object.keys(values).length === 0) rmSync(this.path, { force: true });
    else this.write(values);
  }
}
