import { createIpcClient, IpcCallError, type IpcClient, type TejgheaBridge } from '../shared/ipc';

/**
 * The renderer's only way out: `window.tejghea`, put there by the Electron preload or by the web
 * host's bridge script. Both implement the same contract (shared/ipc/contract.ts); this module does
 * not know, and must not know, which one it talks to. The typed client checks inputs and replies
 * with the contract's zod schemas.
 */
export { IpcCallError };
export type { IpcClient };

function findBridge(): TejgheaBridge | undefined {
  // Not declared on Window here: the hosts own that declaration, and two would have to match exactly.
  const candidate = (globalThis as { tejghea?: unknown }).tejghea;
  if (candidate && typeof candidate === 'object' && typeof (candidate as TejgheaBridge).invoke === 'function' && typeof (candidate as TejgheaBridge).on === 'function') {
    return candidate as TejgheaBridge;
  }
  return undefined;
}

let client: IpcClient | undefined;

/**
 * Resolves once the bridge is present. A host may install it a moment after the page starts (the web
 * host's bridge connects its socket first), so this waits for it, up to `timeoutMs`.
 */
export async function connectIpc(timeoutMs = 10_000): Promise<IpcClient> {
  if (client) return client;
  const started = Date.now();
  for (;;) {
    const bridge = findBridge();
    if (bridge) {
      client = createIpcClient(bridge);
      return client;
    }
    if (Date.now() - started > timeoutMs) throw new Error('window.tejghea is not available');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The connected client; only valid after `connectIpc` resolved (the app renders after it). */
export function ipc(): IpcClient {
  if (!client) throw new Error('IPC used before connectIpc()');
  return client;
}
