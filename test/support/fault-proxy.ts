import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A small HTTP proxy in front of the real server that injects the faults a counter's network has:
 * 500s, 429s, connections dropped before the request reaches the server or AFTER the server has
 * acted (the reply is lost: the case idempotency exists for), stalls (no reply at all), and a
 * "down" switch that refuses everything (offline).
 */
export type Fault = 'pass' | 'status500' | 'status503' | 'status429' | 'status422' | 'drop_before' | 'drop_after' | 'stall';

export interface FaultRates {
  status500?: number;
  status503?: number;
  status429?: number;
  drop_before?: number;
  drop_after?: number;
  stall?: number;
}

export interface FaultProxy {
  url: string;
  /** `${url}/v1` */
  base: string;
  /** Everything refused at once (connection destroyed): the device is offline. */
  setDown(down: boolean): void;
  /** Faults for the next requests, in order; then back to the random rates. */
  plan(faults: Fault[]): void;
  /** Random faults with these probabilities (a seeded generator: runs are repeatable). */
  setRates(rates: FaultRates, seed?: number): void;
  /** Only requests whose `METHOD path` matches are faulted (default: all). */
  setFilter(filter: ((method: string, path: string) => boolean) | null): void;
  readonly counts: Record<Fault | 'down', number>;
  close(): Promise<void>;
}

/** mulberry32: small, seeded, good enough to pick faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function errorReply(res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({
    success: false,
    error: { message: `injected ${code}`, type: status === 429 ? 'rate_limit_error' : 'api_error', code, status },
    meta: { version: 'v1', request_id: '00000000-0000-4000-8000-000000000000', response_time: '0ms' },
  });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** The field the injected 422 names, and its message. */
export const INJECTED_422 = { field: 'lines.0.vat_rate', message: 'Cota de TVA nu este permisă pentru acest produs.' };

function validationReply(res: ServerResponse): void {
  const body = JSON.stringify({
    success: false,
    error: { message: 'Datele trimise nu sunt valide.', type: 'validation_error', code: 'validation_error', status: 422, param: INJECTED_422.field, fields: { [INJECTED_422.field]: INJECTED_422.message } },
    meta: { version: 'v1', request_id: '00000000-0000-4000-8000-000000000000', response_time: '0ms' },
  });
  res.writeHead(422, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const counts: Record<Fault | 'down', number> = {
    pass: 0, status500: 0, status503: 0, status429: 0, status422: 0, drop_before: 0, drop_after: 0, stall: 0, down: 0,
  };
  let down = false;
  let planned: Fault[] = [];
  let rates: FaultRates = {};
  let random = seededRandom(1);
  let filter: ((method: string, path: string) => boolean) | null = null;

  const pick = (method: string, path: string): Fault => {
    if (filter && !filter(method, path)) return 'pass';
    const next = planned.shift();
    if (next) return next;
    let r = random();
    for (const fault of ['status500', 'status503', 'status429', 'drop_before', 'drop_after', 'stall'] as const) {
      const p = rates[fault] ?? 0;
      if (r < p) return fault;
      r -= p;
    }
    return 'pass';
  };

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      const upstreamReq = httpRequest(
        { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (upstreamRes) => {
          readBody(upstreamRes).then(
            (buf) => {
              const out: Record<string, string | string[]> = {};
              for (const [k, v] of Object.entries(upstreamRes.headers)) if (v !== undefined && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
              out['content-length'] = String(buf.length);
              resolve({ status: upstreamRes.statusCode ?? 502, headers: out, body: buf });
            },
            reject,
          );
        },
      );
      upstreamReq.on('error', reject);
      upstreamReq.end(body);
    });

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (down) {
        counts.down += 1;
        req.socket.destroy();
        return;
      }
      const body = await readBody(req);
      const fault = pick(req.method ?? 'GET', (req.url ?? '').split('?')[0] ?? '');
      counts[fault] += 1;
      switch (fault) {
        case 'drop_before':
          req.socket.destroy();
          return;
        case 'stall':
          // Never answer; the socket is destroyed when the client gives up or the proxy closes.
          return;
        case 'status500':
          errorReply(res, 500, 'injected_error');
          return;
        case 'status503':
          errorReply(res, 503, 'injected_unavailable', { 'retry-after': '1' });
          return;
        case 'status429':
          errorReply(res, 429, 'rate_limit_exceeded', { 'retry-after': '1' });
          return;
        case 'status422':
          // A refusal of the data, in the contract's envelope, in Romanian as the device asks for it:
          // never retried by the device; only planned, never drawn at random.
          validationReply(res);
          return;
        case 'drop_after': {
          // The server does the work; its reply never reaches the client.
          await forward(req, body).catch(() => undefined);
          req.socket.destroy();
          return;
        }
        case 'pass': {
          try {
            const reply = await forward(req, body);
            res.writeHead(reply.status, reply.headers);
            res.end(reply.body);
          } catch {
            req.socket.destroy();
          }
        }
      }
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Each request on its own connection keeps "drop" faults from spilling onto the next request.
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    base: `${url}/v1`,
    setDown: (value) => {
      down = value;
      if (value) for (const s of sockets) s.destroy();
    },
    plan: (faults) => {
      planned = [...faults];
    },
    setRates: (value, seed = 1) => {
      rates = value;
      random = seededRandom(seed);
    },
    setFilter: (value) => {
      filter = value;
    },
    counts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
