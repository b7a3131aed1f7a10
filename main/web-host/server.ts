import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName } from '../../shared/ipc/channels';
import type { IpcRouter } from '../ipc/router';
import { BRIDGE_SCRIPT_PATH, EVENTS_PATH, EVENTS_PROTOCOL, INVOKE_PATH, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX } from '../../shared/ipc/web-transport';

/**
 * The web host's transport: the same IPC contract as Electron, over HTTP (calls) and a WebSocket
 * (events), bound to 127.0.0.1 only. Three locks on the door:
 * - a per-run secret (random, 256 bits) on every call and on the event socket;
 * - the Origin must be this host's own (another site open in the same browser cannot call in);
 * - the Host header must be this host's own (DNS rebinding cannot borrow the origin).
 * It also serves the built renderer (`dist/renderer`) with the bridge script injected into its page.
 */

export interface WebHostOptions {
  router: IpcRouter;
  /** Only 127.0.0.1 (or localhost / ::1): the bridge is never offered to the network. */
  host?: string;
  port?: number;
  rendererDir: string;
  /** The compiled browser side of the bridge (preload/web-bridge.ts as one script). */
  bridgeScript: string;
  /** Fixed secret (tests); a random one otherwise. */
  secret?: string;
}

export interface WebHost {
  url: string;
  /** The address to open: carries the secret in its fragment. */
  openUrl: string;
  secret: string;
  port: number;
  origins: string[];
  broadcast(event: EventName, payload: unknown): void;
  close(): Promise<void>;
}

// An import's file travels through here as base64 (20 MiB of file, about 27 MiB of text).
const MAX_BODY = 32 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.map': 'application/json', '.webp': 'image/webp', '.jpg': 'image/jpeg',
};

function sameSecret(given: string | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const refusal = (status: number, code: string, message: string) => ({ status, body: { ok: false, error: { type: 'permission_error', code, message } } });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`The web host binds to loopback only, not ${host}`);
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const rendererDir = resolve(options.rendererDir);
  let origins: string[] = [];
  let hosts = new Set<string>();

  const csp = () =>
    [
      "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:", "font-src 'self' data:",
      `connect-src 'self' ${origins.map((o) => o.replace(/^http/, 'ws')).join(' ')}`, "object-src 'none'", "base-uri 'none'",
      "form-action 'none'", "frame-ancestors 'none'",
    ].join('; ');

  const securityHeaders = () => ({
    'content-security-policy': csp(),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  });

  /** Host header is ours (DNS rebinding guard) and, when present, so is Origin. */
  const checkRequest = (req: IncomingMessage, requireOrigin: boolean): { status: number; body: unknown } | null => {
    if (!hosts.has(req.headers.host ?? '')) return refusal(403, 'host_refused', 'Unknown Host');
    const origin = req.headers.origin;
    if (requireOrigin && !origin) return refusal(403, 'origin_refused', 'Origin required');
    if (origin !== undefined && !origins.includes(origin)) return refusal(403, 'origin_refused', 'Calls are accepted from the app only');
    return null;
  };

  const indexHtml = (): string | null => {
    const file = join(rendererDir, 'index.html');
    if (!existsSync(file)) return null;
    const html = readFileSync(file, 'utf8');
    // The bridge must exist before the renderer's module scripts run: a classic script in <head>.
    const tag = `<script src="${BRIDGE_SCRIPT_PATH}"></script>`;
    return /<head[^>]*>/i.test(html) ? html.replace(/<head([^>]*)>/i, `<head$1>${tag}`) : `${tag}${html}`;
  };

  const serveStatic = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (pathname === BRIDGE_SCRIPT_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store', ...securityHeaders() });
      res.end(options.bridgeScript);
      return;
    }
    if (!existsSync(join(rendererDir, 'index.html'))) {
      const message =
        'The renderer is not built: run `npm run build:renderer` (vite build --config renderer/vite.config.ts), ' +
        `which writes ${rendererDir}. The IPC bridge is running; only the page is missing.`;
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', ...securityHeaders() });
      res.end(message);
      return;
    }
    const target = normalize(join(rendererDir, pathname));
    if (target !== rendererDir && !target.startsWith(rendererDir + sep)) {
      res.writeHead(404).end();
      return;
    }
    const isFile = existsSync(target) && statSync(target).isFile();
    if (!isFile || target.endsWith(`${sep}index.html`)) {
      // Client-side routes (no file extension) get the app page; a missing asset is a plain 404.
      if (isFile || extname(pathname) === '') {
        res.writeHead(200, { 'content-type': MIME['.html']!, 'cache-control': 'no-store', ...securityHeaders() });
        res.end(indexHtml());
        return;
      }
      res.writeHead(404, securityHeaders()).end();
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(target)] ?? 'application/octet-stream', ...securityHeaders() });
    res.end(readFileSync(target));
  };

  const invoke = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = checkRequest(req, true);
    if (refused) return json(res, refused.status, refused.body);
    if (!sameSecret(req.headers[TOKEN_HEADER] as string | undefined, secret)) {
      const r = refusal(401, 'unauthorized', 'Missing or wrong access token: open the address printed at start');
      return json(res, r.status, r.body);
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return json(res, 415, { ok: false, error: { type: 'validation_error', code: 'invalid_payload', message: 'JSON expected' } });
    }
    let message: { channel?: unknown; payload?: unknown };
    try {
      message = JSON.parse(await readBody(req)) as typeof message;
    } catch {
      return json(res, 400, { ok: false, error: { type: 'validation_error', code: 'invalid_payload', message: 'Malformed request' } });
    }
    const payload = message.payload === null ? undefined : message.payload;
    const reply = await options.router.dispatch(message.channel, payload, { host: 'web', url: req.headers.origin ?? '', isMainFrame: true });
    json(res, 200, reply);
  };

  const server: Server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && pathname === INVOKE_PATH) {
      void invoke(req, res).catch(() => json(res, 500, { ok: false, error: { type: 'internal_error', code: 'internal_error', message: 'Internal error' } }));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const refused = checkRequest(req, false);
    if (refused) return json(res, refused.status, refused.body);
    serveStatic(req, res);
  });

  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has(EVENTS_PROTOCOL) ? EVENTS_PROTOCOL : false),
  });
  server.on('upgrade', (req, socket, head) => {
    const deny = (status: number) => {
      socket.write(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    if ((req.url ?? '').split('?')[0] !== EVENTS_PATH) return deny(403);
    if (checkRequest(req, true)) return deny(403);
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const token = offered.find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))?.slice(TOKEN_PROTOCOL_PREFIX.length);
    if (!sameSecret(token, secret)) return deny(401);
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', () => undefined);
    });
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 5199, host, () => resolveListen());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 5199;
  const hostForUrl = host === '::1' ? '[::1]' : host;
  origins = [`http://${hostForUrl}:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}`].filter((o, i, a) => a.indexOf(o) === i);
  hosts = new Set(origins.map((o) => o.slice('http://'.length)));
  const url = `http://${hostForUrl}:${port}`;
  return {
    url,
    openUrl: `${url}/#token=${secret}`,
    secret,
    port,
    origins,
    broadcast: (event, payload) => {
      const text = JSON.stringify({ event, payload });
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
    },
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      const closing = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closing;
    },
  };
}
