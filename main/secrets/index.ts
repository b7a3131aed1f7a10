/**
 * Where the API key lives. One interface, two stores: Electron's `safeStorage` (the OS keychain
 * encrypts it) in the app, a 0600 file in the web host (no keychain in a plain Node process).
 * Synchronous on purpose: both stores are, and the key is read at every request.
 */
export interface SecretStore {
  readonly kind: 'safe-storage' | 'file';
  get(name: string): string | null;
  set(name: string, value: string): void;
  delete(name: string): void;
}

export { FileSecretStore } from './file-store';
export { SafeStorageSecretStore, type SafeStorageLike } from './safe-storage';
