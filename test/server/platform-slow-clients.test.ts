import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

interface Stalled {
  socket: Socket;
  received: string;
  closed: Promise<void>;
}

/** A connection that sends `head` (maybe nothing) and then stalls; keeps what the server says. */
function stall(url: string, head: string): Promise<Stalled> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const stalled: Stalled = {
      socket,
      received: '',
      closed: new Promise((done) => socket.on('close', () => done())),
    };
    socket.on('data', (d: Buffer) => (stalled.received += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (head) socket.write(head);
      resolve(stalled);
    });
    socket.once('error', reject);
  });
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms))]);

describe('slow and stalled clients', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    // Short limits so the test sees them act; the defaults are longer (docs/service-settings.md).
    server = await startTestServer('sqlite', {
      connectionLimits: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 500, idleTimeoutMs: 4_000, timeoutCheckIntervalMs: 200 },
    });
    key = (await server.key()).api_key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('200 stalled connections do not stop a normal client, and are all dropped', async () => {
    const stalled = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        if (i % 4 === 0) return stall(server.url, ''); // connects, says nothing
        if (i % 4 === 1) return stall(server.url, 'GET /v1/me HTTP/1.1\r\nHost: x\r\n'); // headers never end
        if (i % 4 === 2) return stall(server.url, 'G'); // one byte of a request line
        // headers complete, body promised and never sent
        return stall(server.url, `POST /v1/clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`);
      }),
    );
    // While they hang, a normal client is served, again and again.
    for (let i = 0; i < 5; i++) {
      const res = await within(server.api(key, 'GET', '/me'), 5_000, 'a normal request');
      expect(res.status).toBe(200);
    }
    // Every stalled connection is closed by the service (generous bound: a busy machine is slow).
    await within(Promise.all(stalled.map((s) => s.closed)), 20_000, 'closing the stalled connections');
    // Those that had begun a request got the envelope (408), never a bare status line.
    const answered = stalled.filter((s) => s.received.length > 0);
    // Those whose request line or headers had begun get the 408 (Node answers only a begun request).
    expect(answered.length).toBeGreaterThanOrEqual(100);
    for (const s of answered) {
      expect(s.received).toMatch(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(s.received.slice(s.received.indexOf('\r\n\r\n') + 4)) as { success: boolean; error: { code: string }; meta: { request_id: string } };
      expect(body).toMatchObject({ success: false, error: { code: 'request_timeout' } });
      expect(body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // And the service is still serving.
    expect((await server.api(key, 'GET', '/me')).status).toBe(200);
  });

  it('closes an idle keep-alive connection after its keep-alive timeout', async () => {
    const s = await stall(server.url, `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    await within(s.closed, 10_000, 'closing the idle keep-alive connection');
    expect(s.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(s.received).toMatch(/keep-alive: timeout=\d/i);
  });
});
