/**
 * A lean keep-alive HTTP/1.1 load generator for the benchmarks, in the manner of wrk: each
 * connection is a plain TCP socket that sends one prebuilt request, reads exactly one response
 * (status line, headers, `Content-Length` body) and sends the next. Node's `http.Agent` client spends
 * more CPU per request than the service's cheapest route on a slow machine (≈150 µs on the two-core
 * CI machine), and with one client that cost is paid serially, inside the figure being measured; this
 * client spends a few microseconds, so what is measured is the service.
 *
 * It speaks only what our service answers: no chunked bodies (Fastify always sends `Content-Length`
 * for JSON), no pipelining (one request in flight per connection, as a real client waits for its answer).
 */
import net from 'node:net';

export interface RawRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  body: Buffer;
}

/** The request's bytes, built once and sent again for every repetition. */
export function encodeRequest(request: RawRequest, host: string): Buffer {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body, 'utf8');
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: ${host}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push(`content-length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

/** One kept-alive connection; `send` writes a request and resolves with its whole response. */
export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.tryComplete();
    });
    const fail = (error: Error) => {
      this.pending?.reject(error);
      this.pending = null;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed by the server')));
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new RawConnection(socket)));
      socket.setNoDelay(true);
      socket.once('error', reject);
    });
  }

  send(request: Buffer): Promise<RawResponse> {
    if (this.pending) return Promise.reject(new Error('one request at a time per connection'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private tryComplete(): void {
    if (!this.pending) return;
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.pending.reject(new Error(`response without Content-Length: ${head.split('\r\n')[0]}`));
      this.pending = null;
      return;
    }
    const total = end + HEADER_END.length + Number(length[1]);
    if (this.buffer.length < total) return;
    const status = Number(head.slice(9, 12));
    const body = this.buffer.subarray(end + HEADER_END.length, total);
    this.buffer = this.buffer.subarray(total);
    const { resolve } = this.pending;
    this.pending = null;
    resolve({ status, body });
  }
}
