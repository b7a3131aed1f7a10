import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';

/**
 * The invoice routes take bodies up to 16 MiB (a 5,000-line invoice; server/modules/invoicing/invoice-routes.ts).
 * One byte more is 413 `body_too_large` in the contract's envelope with its request id, answered while most
 * of the body is still unsent, and nothing is stored; a body of exactly the limit that is otherwise valid is
 * taken. Both with a declared Content-Length and with a chunked body that declares none.
 */

const LIMIT = 16 * 1024 * 1024;

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: { success: boolean; error: { code: string; status: number; type: string; message: string }; meta: { request_id: string; version: string } };
  /** Body bytes written before the first byte of the reply arrived. */
  sentBeforeReply: number;
  /** Body bytes written in all (the sender stops once the server answered or closed). */
  sent: number;
  /** The connection was reset by the server. */
  reset: boolean;
}

/**
 * One raw exchange: the head, then `bodyBytes` of spaces (inside a chunked body when `chunked`), written as
 * fast as the socket takes them and stopped as soon as the server answers. Spaces are valid JSON
 * whitespace, so only the size can be what the server objects to.
 */
function rawPost(url: string, head: string, bodyBytes: number, chunked: boolean): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let reply = '';
    let sent = 0;
    let sentBeforeReply = -1;
    let reset = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no reply after ${sent} bytes`));
    }, 60_000);
    socket.on('data', (d: Buffer) => {
      if (sentBeforeReply < 0) sentBeforeReply = sent;
      reply += d.toString('utf8');
      // A whole answer on a connection the server keeps (it drains a body a few times the limit): done.
      const end = reply.indexOf('\r\n\r\n');
      const length = end < 0 ? null : /\r\ncontent-length:\s*(\d+)/i.exec(reply.slice(0, end));
      if (end >= 0 && length && Buffer.byteLength(reply.slice(end + 4)) >= Number(length[1])) socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (reply === '' && reset) {
        resolve({ status: 0, headers: {}, body: null as unknown as RawReply['body'], sentBeforeReply, sent, reset });
        return;
      }
      const [top = '', body = ''] = reply.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      try {
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as RawReply['body'], sentBeforeReply, sent, reset });
      } catch {
        reject(new Error(`not an envelope after ${sent} bytes: ${reply.slice(0, 300)}`));
      }
    });
    socket.on('connect', () => {
      socket.write(head);
      const piece = 64 * 1024;
      const spaces = Buffer.alloc(piece, 0x20);
      const frame = chunked ? Buffer.concat([Buffer.from(`${piece.toString(16)}\r\n`), spaces, Buffer.from('\r\n')]) : spaces;
      const pump = (): void => {
        while (sent < bodyBytes && !socket.destroyed && sentBeforeReply < 0) {
          sent += piece;
          if (!socket.write(frame)) {
            socket.once('drain', pump);
            return;
          }
        }
        if (sent >= bodyBytes && chunked && !socket.destroyed && sentBeforeReply < 0) socket.write('0\r\n\r\n');
      };
      pump();
    });
  });
}

describe.each(DIALECTS)('invoice bodies at and over the 16 MiB limit on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let companyId: string;
  let clientId: string;
  let draftId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
    const created = await server.key();
    key = created.api_key;
    companyId = created.company_id;
    expect((await server.api(key, 'POST', '/invoice-series', { name: 'TJ', is_primary: true })).status).toBe(201);
    const client = await server.api(key, 'POST', '/clients', { name: 'Ștefan Popescu', type: 'person' });
    expect(client.status, client.text).toBe(201);
    clientId = client.body.data.id;
    const draft = await server.api(key, 'POST', '/invoices', { is_draft: true, client_id: clientId, items: [{ description: 'Ciornă', quantity: 1, price: 10, vat_rate: 21 }] });
    expect(draft.status, draft.text).toBe(201);
    draftId = draft.body.data.id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Rows of the company (invoices, their lines, clients): what a refused body must leave as it was. */
  const stored = async () => {
    const db = server.storage.db;
    const invoices = await db.selectFrom('invoices').select('id').where('company_id', '=', companyId).execute();
    const lines = await db.selectFrom('invoice_lines').select('id').where('invoice_id', 'in', invoices.map((i) => i.id)).execute();
    const clients = await db.selectFrom('clients').select('id').where('company_id', '=', companyId).execute();
    return { invoices: invoices.length, lines: lines.length, clients: clients.length };
  };

  const expect413 = (r: RawReply, total: number, connection: 'keep-alive' | 'close') => {
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ success: false, error: { code: 'body_too_large', status: 413, type: 'invalid_request_error' }, meta: { version: 'v1' } });
    expect(r.body.error.message.length).toBeGreaterThan(5);
    expect(r.body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['x-request-id']).toBe(r.body.meta.request_id);
    // Answered while most of the body was still unsent: the server did not read it all first.
    expect(r.sentBeforeReply).toBeGreaterThanOrEqual(0);
    expect(r.sentBeforeReply).toBeLessThan(total);
    // Up to 4 times the limit the server reads the rest and drops it (a client still sending gets the
    // answer, not a reset); beyond, it closes the connection after the answer.
    expect(r.headers.connection).toBe(connection);
    expect(r.sent).toBeLessThan(total);
  };

  const head = (method: string, path: string, extra: string) =>
    `${method} /v1${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}\r\n`;

  it('POST /invoices with a declared length one byte over the limit: 413 before the body is read, nothing stored', async () => {
    const before = await stored();
    const r = await rawPost(server.url, head('POST', '/invoices', `Content-Length: ${LIMIT + 1}\r\n`), LIMIT + 1, false);
    expect413(r, LIMIT + 1, 'keep-alive');
    // Declared too large: refused on the head alone, before a quarter of the body could pass.
    expect(r.sentBeforeReply).toBeLessThan(LIMIT / 4);
    expect(await stored()).toEqual(before);
  }, 90_000);

  it('a declared length of 10 GiB is refused the same way, without waiting for any of it', async () => {
    const before = await stored();
    const huge = 10 * 1024 * 1024 * 1024;
    const r = await rawPost(server.url, head('POST', '/invoices', `Content-Length: ${huge}\r\n`), huge, false);
    expect413(r, huge, 'close');
    expect(r.sentBeforeReply).toBeLessThan(LIMIT / 4);
    expect(await stored()).toEqual(before);
  }, 90_000);

  it('POST /invoices with a chunked body that declares no length: 413 once the limit is passed, not at the end; nothing stored', async () => {
    const before = await stored();
    // Far past the limit: loopback socket buffers can hold several MiB the server never reads.
    const total = 4 * LIMIT;
    const r = await rawPost(server.url, head('POST', '/invoices', 'Transfer-Encoding: chunked\r\n'), total, true);
    if (r.status === 0) {
      // Known race (2 runs in about 20 here, under load): Fastify cuts a chunked body at the limit, answers 413 and closes
      // while the rest of the body is still arriving; the kernel then resets the connection, and the reset
      // can overtake the reply. The server still stopped reading long before the end.
      expect(r.reset).toBe(true);
      expect(r.sent).toBeLessThan(total);
    } else {
      expect413(r, total, 'close');
    }
    expect(await stored()).toEqual(before);
  }, 90_000);

  it('PUT /invoices/{id} over the limit: 413, the draft unchanged', async () => {
    const draftBefore = (await server.api(key, 'GET', `/invoices/${draftId}`)).body.data;
    const r = await rawPost(server.url, head('PUT', `/invoices/${draftId}`, `Content-Length: ${LIMIT + 1}\r\n`), LIMIT + 1, false);
    expect413(r, LIMIT + 1, 'keep-alive');
    const draftAfter = (await server.api(key, 'GET', `/invoices/${draftId}`)).body.data;
    expect(draftAfter.lines).toEqual(draftBefore.lines);
    expect(draftAfter.updated_at).toBe(draftBefore.updated_at);
  }, 90_000);

  it('a valid invoice whose body is exactly 16 MiB is taken (201), with its lines', async () => {
    const before = await stored();
    const invoice = {
      client_id: clientId,
      items: Array.from({ length: 200 }, (_, i) => ({ description: `Articol ${i + 1} ${'ț'.repeat(100)}`, quantity: 1, price: 10.5, vat_rate: 21 })),
    };
    const json = JSON.stringify(invoice);
    // Whitespace between tokens is JSON, so the body is valid at any size; the lines make it a real invoice.
    const body = `${json.slice(0, -1)}${' '.repeat(LIMIT - Buffer.byteLength(json))}}`;
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const res = await server.api(key, 'POST', '/invoices', body);
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    expect(res.body.data.lines).toHaveLength(200);
    const after = await stored();
    expect(after).toEqual({ invoices: before.invoices + 1, lines: before.lines + 200, clients: before.clients });
  }, 120_000);
});
