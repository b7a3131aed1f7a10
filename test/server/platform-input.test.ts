import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type ApiReply, type TestServer } from '../support/server';
import { MAX_AMOUNT } from '../../shared/schemas/common';

/** The contract's error envelope, with the request id it was answered under. */
function expectEnvelope(res: ApiReply, status: number, code: string): ApiReply['body'] {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, status }, meta: { version: 'v1' } });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
  return res.body.error;
}

/** One raw HTTP exchange over a socket: what was written, and every byte the server sent back. */
function rawExchange(
  url: string,
  head: string,
  bodyBytes = 0,
): Promise<{ reply: string; reset: boolean; sentBeforeReply: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let reply = '';
    let reset = false;
    let sent = 0;
    let sentBeforeReply = -1;
    socket.on('data', (d: Buffer) => {
      if (sentBeforeReply < 0) sentBeforeReply = sent;
      reply += d.toString('utf8');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => resolve({ reply, reset, sentBeforeReply }));
    socket.on('connect', () => {
      socket.write(head);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (sent < bodyBytes && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

function parseRawReply(reply: string): { status: number; headers: Record<string, string>; body: ApiReply['body'] } {
  const [head = '', body = ''] = reply.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe.each(DIALECTS)('every input gets the envelope on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let invoiceId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
    key = (await server.key()).api_key;
    expect((await server.api(key, 'POST', '/invoice-series', { name: 'TJ', is_primary: true })).status).toBe(201);
    const client = await server.api(key, 'POST', '/clients', { name: 'Ștefan Popescu', type: 'person' });
    expect(client.status, client.text).toBe(201);
    const invoice = await server.api(key, 'POST', '/invoices', {
      client_id: client.body.data.id, items: [{ description: 'Cafea', quantity: 1, price: 100, vat_rate: 21 }],
    });
    expect(invoice.status, invoice.text).toBe(201);
    invoiceId = invoice.body.data.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const count = async (table: 'clients' | 'payments' | 'work_points') =>
    Number((await server.storage.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('malformed JSON is 400 invalid_json', async () => {
    expectEnvelope(await server.api(key, 'POST', '/clients', '{"name": "A",'), 400, 'invalid_json');
    expectEnvelope(await server.api(key, 'POST', '/clients', 'nu e json'), 400, 'invalid_json');
  });

  it('a body in another content type, or with none, is 415', async () => {
    expectEnvelope(await server.api(key, 'POST', '/clients', 'name=A', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
    expectEnvelope(await server.api(key, 'POST', '/clients', '{"name":"A"}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    const res = await fetch(`${server.base}/clients`, {
      method: 'POST', headers: { authorization: `Bearer ${key}` }, body: new Blob([Buffer.from('{"name":"A"}')]),
    });
    const text = await res.text();
    expectEnvelope({ status: res.status, headers: res.headers, body: JSON.parse(text), text }, 415, 'unsupported_media_type');
  });

  it('a charset other than UTF-8 is 415, whatever the bytes', async () => {
    const before = await count('clients');
    for (const charset of ['ebcdic', 'utf-16', 'windows-1250', 'ISO-8859-2', '"utf-16le"']) {
      const error = expectEnvelope(
        await server.api(key, 'POST', '/clients', JSON.stringify({ name: 'Ana' }), { 'content-type': `application/json; charset=${charset}` }),
        415,
        'unsupported_charset',
      );
      expect(error.message).toContain(charset.replace(/"/g, '').toLowerCase());
    }
    // UTF-8, spelled either way, is fine.
    for (const charset of ['utf-8', 'UTF-8', 'utf8']) {
      const ok = await server.api(key, 'POST', '/clients', JSON.stringify({ name: `Ana ${charset}`, type: 'person' }), { 'content-type': `application/json; charset=${charset}` });
      expect(ok.status, ok.text).toBe(201);
    }
    expect(await count('clients')).toBe(before + 3);
  });

  it('bytes that are not UTF-8 are 400 invalid_utf8, not stored corrupted', async () => {
    const before = await count('clients');
    // "Ştefan" in windows-1250: Ş is 0xAA, a lone continuation byte in UTF-8.
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xaa]), Buffer.from('tefan"}')]);
    const res = await fetch(`${server.base}/clients`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: bytes,
    });
    const text = await res.text();
    expectEnvelope({ status: res.status, headers: res.headers, body: JSON.parse(text), text }, 400, 'invalid_utf8');
    expect(await count('clients')).toBe(before);
  });

  it('null, an array or a string where an object belongs is 422', async () => {
    const before = await count('clients');
    for (const body of ['null', '[{"name":"A"}]', '"A"', '12']) {
      const error = expectEnvelope(await server.api(key, 'POST', '/clients', body), 422, 'validation_error');
      expect(error.fields).toHaveProperty('(body)');
    }
    // An empty array is PHP's empty object (json_encode([])), read as {} (issue 18): here, a client without a name.
    const empty = expectEnvelope(await server.api(key, 'POST', '/clients', '[]'), 422, 'validation_error');
    expect(empty.fields).toHaveProperty('name');
    expect(await count('clients')).toBe(before);
  });

  it('the NUL character, in a body, a query or a path, is 422 naming where, and stores nothing', async () => {
    const before = await count('clients');
    const error = expectEnvelope(await server.api(key, 'POST', '/clients', { type: 'person', name: 'Ana\u0000Pop' }), 422, 'validation_error');
    expect(error.fields).toHaveProperty('name');
    expect(expectEnvelope(await server.api(key, 'POST', '/clients?work_point_id=%00', { type: 'person', name: 'Ana' }), 422, 'validation_error').fields)
      .toHaveProperty('work_point_id');
    expectEnvelope(await server.api(key, 'GET', '/clients/cli%00x'), 422, 'validation_error');
    expectEnvelope(await server.api(key, 'GET', '/clients?search=a%00'), 422, 'validation_error');
    // A backslash followed by u0000 is text, not NUL.
    const ok = await server.api(key, 'POST', '/clients', { type: 'person', name: 'Ana \\u0000 Pop' });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.name).toBe('Ana \\u0000 Pop');
    expect(await count('clients')).toBe(before + 1);
  });

  it('a body nested too deep is 400 json_too_deep, with or without an Idempotency-Key', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expectEnvelope(await server.api(key, 'POST', '/clients', deep), 400, 'json_too_deep');
    expectEnvelope(await server.api(key, 'POST', '/clients', deep, { 'idempotency-key': 'deep-1' }), 400, 'json_too_deep');
    const deepObject = `{"name":"A","x":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`;
    expectEnvelope(await server.api(key, 'POST', '/clients', deepObject, { 'idempotency-key': 'deep-2' }), 400, 'json_too_deep');
    // Brackets inside strings do not count.
    const ok = await server.api(key, 'POST', '/clients', { name: `Paranteze ${'[{'.repeat(50)}`, type: 'person' }, { 'idempotency-key': 'deep-3' });
    expect(ok.status, ok.text).toBe(201);
  });

  it('an empty, over-long or non-ASCII Idempotency-Key is 400 and creates nothing', async () => {
    const before = await count('work_points');
    for (const idem of ['', 'x'.repeat(256), 'cheie cu spatiu']) {
      const error = expectEnvelope(await server.api(key, 'POST', '/work-points', { name: `P ${idem.length}` }, { 'idempotency-key': idem }), 400, 'invalid_idempotency_key');
      expect(error.param).toBe('Idempotency-Key');
    }
    expect(await count('work_points')).toBe(before);
    expect((await server.api(key, 'POST', '/work-points', { name: 'Cheie bună' }, { 'idempotency-key': 'x'.repeat(255) })).status).toBe(201);
  });

  it('a body over the limit is 413, answered before the body is read, and the connection is not reset first', async () => {
    const size = 5 * 1024 * 1024;
    const head =
      `POST /v1/clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const { reply, sentBeforeReply } = await rawExchange(server.url, head, size);
    const parsed = parseRawReply(reply);
    expect(parsed.status).toBe(413);
    expect(parsed.body).toMatchObject({ success: false, error: { code: 'body_too_large', status: 413 } });
    expect(parsed.headers['x-request-id']).toBe(parsed.body.meta.request_id);
    expect(parsed.headers.connection).toBe('close');
    // The reply came while most of the body was still to be sent.
    expect(sentBeforeReply).toBeLessThan(size);
  });

  it('oversized headers are 431 in the envelope', async () => {
    const head = `GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const { reply } = await rawExchange(server.url, head);
    const parsed = parseRawReply(reply);
    expect(parsed.status).toBe(431);
    expect(parsed.body).toMatchObject({ success: false, error: { code: 'headers_too_large', status: 431, type: 'invalid_request_error' } });
    expect(parsed.headers['x-request-id']).toBe(parsed.body.meta.request_id);
    expect(parsed.headers['access-control-allow-origin']).toBe('*');
  });

  it('a request line Node cannot parse is 400 in the envelope', async () => {
    const { reply } = await rawExchange(server.url, 'GET /v1/me HTTP/1.1\r\nHost x\r\n\r\n');
    const parsed = parseRawReply(reply);
    expect(parsed.status).toBe(400);
    expect(parsed.body).toMatchObject({ success: false, error: { code: 'bad_request' } });
  });

  describe('numbers beyond the money range are 422 naming the member and the limit', () => {
    const limit = String(MAX_AMOUNT);
    const expectRange = (res: ApiReply, field: string) => {
      const error = expectEnvelope(res, 422, 'validation_error');
      expect(Object.keys(error.fields)).toContain(field);
      expect(error.fields[field]).toMatch(/\d{5,}/);
      return error.fields[field] as string;
    };

    it('payments', async () => {
      const before = await count('payments');
      for (const amount of [1e13, 1e20, 1e300, -1e13]) {
        expect(expectRange(await server.api(key, 'POST', '/payments', { invoice_id: invoiceId, amount }), 'amount')).toContain(limit);
      }
      expectRange(await server.api(key, 'POST', '/payments', { invoice_id: invoiceId, amount: 1, currency: 'EUR', exchange_rate: 1e200 }), 'exchange_rate');
      expect(await count('payments')).toBe(before);
    });

    it('receipts', async () => {
      expect(expectRange(await server.api(key, 'POST', '/receipts', { client_name: 'Ion', amount: 1e13 }), 'amount')).toContain(limit);
      expectRange(await server.api(key, 'POST', '/receipts', { client_name: 'Ion', amount: 10, amount_vat: 1e15 }), 'amount_vat');
      expectRange(await server.api(key, 'POST', '/receipts', { client_name: 'Ion', amount: 10, currency: 'EUR', exchange_rate: 1e12 }), 'exchange_rate');
    });

    it('supplier bills', async () => {
      const supplier = { name: 'Furnizor Mare SRL', cui: 'RO18547290' };
      const base = { supplier, invoice_number: 'B-1', issue_date: '2026-11-05' };
      expectRange(await server.api(key, 'POST', '/supplier-bills', { ...base, tax_exclusive: 1e13, tax: 0 }), 'tax_exclusive');
      expectRange(await server.api(key, 'POST', '/supplier-bills', { ...base, tax_exclusive: 10, tax: 1e16 }), 'tax');
      const bill = await server.api(key, 'POST', '/supplier-bills', { ...base, tax_exclusive: 100, tax: 21 });
      expect(bill.status, bill.text).toBe(201);
      const id = bill.body.data.supplier_bill.id as string;
      expectRange(await server.api(key, 'POST', `/supplier-bills/${id}/pay`, { payment_date: '2026-11-20', amount: 1e13 }), 'amount');
    });

    it('invoice lines whose quantity × price overflows, and huge exchange rates', async () => {
      const client = { type: 'person', name: 'Ion Ionescu' };
      const line = { description: 'Aur', vat_rate: 21 };
      const msg = expectRange(
        await server.api(key, 'POST', '/invoices', { client, items: [{ ...line, quantity: 999_999_999, price: 99_999_999_999 }] }),
        'items.0.price',
      );
      expect(msg).toContain(limit);
      expectRange(await server.api(key, 'POST', '/invoices', { client, items: [{ ...line, quantity: 1e15, price: 1 }] }), 'items.0.quantity');
      expectRange(await server.api(key, 'POST', '/invoices', { client, items: [{ ...line, quantity: 1, price: 1e13 }] }), 'items.0.price');
      expectRange(
        await server.api(key, 'POST', '/invoices', { client, currency: 'EUR', exchange_rate: 1e300, items: [{ ...line, quantity: 1, price: 1 }] }),
        'exchange_rate',
      );
      // Each member within range, but the document total times the rate beyond it: still a 422.
      const many = Array.from({ length: 20 }, () => ({ ...line, quantity: 1000, price: 90_000_000 }));
      const res = await server.api(key, 'POST', '/invoices', { client, currency: 'EUR', exchange_rate: 99_999, items: many });
      expectEnvelope(res, 422, 'validation_error');
    });

    it('expenses', async () => {
      const supplier = await server.api(key, 'POST', '/suppliers', { name: 'Furnizor Cheltuieli SRL' });
      expect(supplier.status, supplier.text).toBe(201);
      const base = { supplier_id: supplier.body.data.id, vat: 0 };
      expect(expectRange(await server.api(key, 'POST', '/expenses', { ...base, amount: 1e13 }), 'amount')).toContain(limit);
      expectRange(await server.api(key, 'POST', '/expenses', { ...base, amount: '99999999999999999999.00' }), 'amount');
      const items = [{ description: 'Mult', quantity: 999_999_999, unit_price: 99_999_999_999, vat: 0 }];
      expect(expectRange(await server.api(key, 'POST', '/expenses', { ...base, items }), 'items.0.unit_price')).toContain(limit);
      // Lines each within range whose sum is not: the last guard still answers 422, never 500.
      const many = Array.from({ length: 200 }, () => ({ description: 'Mult', quantity: 1, unit_price: 99_999_999_999, vat: 0 }));
      expectEnvelope(await server.api(key, 'POST', '/expenses', { ...base, items: many }), 422, 'value_out_of_range');
      expectRange(await server.api(key, 'POST', '/expenses', { ...base, amount: 10, currency: 'EUR', exchange_rate: 1e9 }), 'exchange_rate');
    });
  });
});
