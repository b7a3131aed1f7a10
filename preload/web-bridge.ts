import { EVENTS_PATH, EVENTS_PROTOCOL, INVOKE_PATH, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX } from '../shared/ipc/web-transport';
import { createPreloadApi, type TejgheaApi } from './bridge';

/**
 * The web host's side of `window.tejghea`: the same `{ invoke, on }` as the Electron preload, over
 * HTTP (calls) and a WebSocket (events) to the web host on 127.0.0.1. Pure browser code: no Node.
 *
 * The per-run secret arrives in the URL fragment (`#token=...`, never sent to any server by the
 * browser), is kept in sessionStorage for reloads, and removed from the address bar at once. Every
 * call carries it in a header; the event socket carries it as a subprotocol.
 */


interface SocketLike {
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(): void;
}

export interface WebBridgeOptions {
  /** e.g. `http://127.0.0.1:5199` */
  origin: string;
  token: string;
  fetch: typeof fetch;
  WebSocket: new (url: string, protocols: string[]) => SocketLike;
  /** Delay before reconnecting the event socket (ms). */
  reconnectMs?: number;
}

export interface WebBridge extends TejgheaApi {
  /** Closes the event socket (tests). */
  close(): void;
}

const failure = (code: string, message: string) => ({ ok: false as const, error: { type: 'unavailable' as const, code, message } });

export function createWebBridge(options: WebBridgeOptions): WebBridge {
  let socket: SocketLike | null = null;
  let closed = false;
  let deliver: (event: string, payload: unknown) => void = () => undefined;
  const wsUrl = `${options.origin.replace(/^http/, 'ws')}${EVENTS_PATH}`;
  const connect = () => {
    if (closed) return;
    socket = new options.WebSocket(wsUrl, [EVENTS_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${options.token}`]);
    socket.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      try {
        const parsed = JSON.parse(message.data) as { event?: unknown; payload?: unknown };
        if (typeof parsed.event === 'string') deliver(parsed.event, parsed.payload);
      } catch {
        // Not ours: ignored.
      }
    };
    socket.onclose = () => {
      socket = null;
      if (!closed) setTimeout(connect, options.reconnectMs ?? 1000);
    };
    socket.onerror = () => undefined;
  };
  const api = createPreloadApi({
    invoke: async (channel, payload) => {
      try {
        const response = await options.fetch(`${options.origin}${INVOKE_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: options.token },
          body: JSON.stringify({ channel, payload: payload === undefined ? null : payload }),
        });
        return (await response.json()) as unknown;
      } catch {
        return failure('host_unreachable', 'The local host does not answer: is `npm run start:web` still running?');
      }
    },
    subscribe: (listener) => {
      deliver = listener;
      connect();
    },
  });
  return {
    ...api,
    close: () => {
      closed = true;
      socket?.close();
    },
  };
}

/** The token from `#token=...` (then stripped from the address bar), or the one kept for this tab. */
export function takeToken(location: { hash: string; pathname: string; search: string }, storage: { getItem(k: string): string | null; setItem(k: string, v: string): void }, replace: (url: string) => void): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match?.[1]) {
    storage.setItem('tejghea.token', match[1]);
    replace(`${location.pathname}${location.search}`);
    return match[1];
  }
  return storage.getItem('tejghea.token');
}

interface BrowserGlobals {
  location: { origin: string; hash: string; pathname: string; search: string };
  sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
  history: { replaceState(data: unknown, unused: string, url: string): void };
  fetch: typeof fetch;
  WebSocket: WebBridgeOptions['WebSocket'];
  tejghea?: TejgheaApi;
}

// Installed as soon as the script runs in a page (before the renderer's module scripts).
const page = (globalThis as { window?: unknown }).window as BrowserGlobals | undefined;
if (page && !page.tejghea) {
  const token = takeToken(page.location, page.sessionStorage, (url) => page.history.replaceState(null, '', url));
  if (token) {
    const bridge = createWebBridge({ origin: page.location.origin, token, fetch: page.fetch.bind(page), WebSocket: page.WebSocket });
    page.tejghea = Object.freeze({ invoke: bridge.invoke, on: bridge.on });
  } else {
    console.error('Tejghea: open the address printed by `npm run start:web` (it carries the access token).');
  }
}
