import { isChannelName, isEventName } from '../shared/ipc/channels';

/**
 * The whole surface the page gets: `invoke(channel, payload)` and `on(event, cb)`, over the
 * contract's allow-list. Kept free of Electron so it can be tested without the binary; `index.ts`
 * wires it to `ipcRenderer` and exposes it with `contextBridge`.
 */
export interface PreloadTransport {
  invoke(channel: string, payload: unknown): Promise<unknown>;
  /** Subscribes to the single event channel; the listener gets (eventName, payload). */
  subscribe(listener: (event: string, payload: unknown) => void): void;
}

export interface TejgheaApi {
  invoke(channel: string, payload?: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

const refused = (code: string, message: string) => ({ ok: false as const, error: { type: 'permission_error' as const, code, message } });

export function createPreloadApi(transport: PreloadTransport): TejgheaApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  transport.subscribe((event, payload) => {
    if (!isEventName(event)) return;
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch {
        // One page listener throwing must not keep the others from hearing the event.
      }
    }
  });
  return Object.freeze({
    invoke: (channel: string, payload?: unknown) => {
      // Refused here already: a channel outside the contract never reaches the main process.
      if (!isChannelName(channel)) return Promise.resolve(refused('unknown_channel', 'Unknown channel'));
      return transport.invoke(channel, payload);
    },
    on: (event: string, listener: (payload: unknown) => void) => {
      if (!isEventName(event)) throw new Error(`Unknown event ${String(event)}`);
      if (typeof listener !== 'function') throw new Error('The listener must be a function');
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  });
}
