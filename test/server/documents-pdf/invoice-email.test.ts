import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { startInvoicingServer, newFirm, expectError } from '../invoicing/helpers';
import { firmWithInvoice } from './helpers';
import { parseMime } from './mime';
import { pdfText, squeezed } from './pdf-text';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback: it checks the login, refuses one domain, and keeps what it receives. */
async function startSmtp(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'magazin' && auth.password === 'parola-smtp') callback(null, { user: 'magazin' });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refuzat.test')) {
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(DIALECTS)('sending an invoice by e-mail (%s)', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    [server, smtp] = await Promise.all([startInvoicingServer(dialect), startSmtp()]);
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const settings = (overrides: Record<string, unknown> = {}) => ({
    host: '127.0.0.1', port: smtp.port, security: 'none', username: 'magazin', password: 'parola-smtp',
    from_address: 'facturi@tejghea.test', from_name: 'Tejghea Test SRL', ...overrides,
  });

  const invoiceFor = (clientEmail: string | null = 'contabil@cafeneaua.test') => firmWithInvoice(server, { clientEmail, series: 'EML' });

  it('keeps the SMTP settings without ever answering the password', async () => {
    const firm = await newFirm(server);
    expectError(await firm.call('GET', '/settings/email'), 404, 'resource_missing');
    const put = await firm.ok('PUT', '/settings/email', settings());
    expect(put).toMatchObject({ object: 'smtp_settings', host: '127.0.0.1', port: smtp.port, security: 'none', username: 'magazin', has_password: true });
    const got = await firm.call('GET', '/settings/email');
    expect(got.status).toBe(200);
    expect(got.text).not.toContain('parola-smtp');
    // Omitted, the password is kept; the port defaults to the security's usual one.
    expect(await firm.ok('PUT', '/settings/email', { host: 'smtp.exemplu.ro', security: 'tls', from_address: 'a@b.ro', username: 'x' })).toMatchObject({ port: 465, has_password: true });
    const row = await server.storage.db.selectFrom('smtp_settings').select(['password']).where('company_id', '=', firm.companyId).executeTakeFirstOrThrow();
    expect(row.password).toBe('parola-smtp'); // no ANAF_TOKEN_KEY in this test server: stored in clear, and said so
    expect(await firm.ok('PUT', '/settings/email', { host: 'smtp.exemplu.ro', from_address: 'a@b.ro', password: null })).toMatchObject({ has_password: false, port: 587 });
    expectError(await firm.call('PUT', '/settings/email', { host: 'smtp.exemplu.ro', from_address: 'nu-e-adresa' }), 422, 'validation_error');
  });

  it('sends the invoice with its PDF attached to the recipients, and logs it', async () => {
    const { firm, invoice } = await invoiceFor();
    await firm.ok('PUT', '/settings/email', settings());
    const before = smtp.received.length;
    const res = await firm.call('POST', `/invoices/${invoice.id}/send`, {
      to: 'contabil@client.test', cc: ['sef@client.test'], subject: `Factura ${invoice.full_number}`, message: 'Vă mulțumim!', attach_xml: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ object: 'invoice_email', status: 'sent', to: ['contabil@client.test'], cc: ['sef@client.test'] });
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.from).toBe('facturi@tejghea.test');
    expect(mail.to.sort()).toEqual(['contabil@client.test', 'sef@client.test']);
    const parsed = parseMime(mail.raw);
    expect(parsed.headers.subject).toContain(invoice.full_number);
    expect(parsed.headers.to).toBe('contabil@client.test');
    const text = parsed.parts.find((p) => p.headers['content-type']?.startsWith('text/plain'));
    expect(text?.body.toString('utf8')).toContain('Vă mulțumim!');
    const pdf = parsed.parts.find((p) => p.headers['content-type']?.startsWith('application/pdf'));
    expect(pdf?.headers['content-disposition']).toContain(`${invoice.full_number}.pdf`);
    expect(pdf!.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const printed = squeezed(pdfText(pdf!.body));
    expect(printed).toContain(invoice.full_number);
    expect(printed).toContain('Total de plată 1.234,56 lei');
    const xml = parsed.parts.find((p) => p.headers['content-type']?.startsWith('application/xml'));
    expect(xml?.body.toString('utf8')).toContain(`<cbc:ID>${invoice.full_number}</cbc:ID>`);

    const log = await firm.ok('GET', `/invoices/${invoice.id}/emails`);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'sent', subject: `Factura ${invoice.full_number}`, attachments: [`${invoice.full_number}.pdf`, `${invoice.full_number}.xml`] });
    expect(log[0].message_id).toEqual(expect.any(String));
  });

  it('writes to the client’s address with a Romanian subject and letter when none is given; takes the SDK’s `recipients`', async () => {
    const { firm, invoice } = await invoiceFor();
    await firm.ok('PUT', '/settings/email', settings());
    expect((await firm.call('POST', `/invoices/${invoice.id}/send`, {})).status).toBe(200);
    let mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(['contabil@cafeneaua.test']);
    const parsed = parseMime(mail.raw);
    // Non-ASCII subjects are MIME-encoded words; the number and the seller stay readable in the header.
    expect(parsed.headers.subject).toContain(invoice.full_number);
    const letter = parsed.parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body.toString('utf8');
    expect(letter).toContain(`factura ${invoice.full_number} din 21.11.2026, în valoare de 1.234,56 lei`);
    expect((await firm.call('POST', `/invoices/${invoice.id}/send`, { recipients: ['a@client.test', 'b@client.test'] })).status).toBe(200);
    mail = smtp.received.at(-1)!;
    expect(mail.to.sort()).toEqual(['a@client.test', 'b@client.test']);
  });

  it('takes Contazen SDK’s sendByEmail body as the SDK sends it: recipients, cc, bcc, subject, message', async () => {
    const { firm, invoice } = await invoiceFor();
    await firm.ok('PUT', '/settings/email', settings());
    const res = await firm.call('POST', `/invoices/${invoice.id}/send`, {
      recipients: ['contabil@client.test', 'director@client.test'], cc: ['sef@client.test'], bcc: ['arhiva@tejghea.test'],
      subject: 'Factura dvs.', message: 'Găsiți atașată factura.',
    });
    expect(res.status, res.text).toBe(200);
    // The SDK reads only the status (isSuccess); the reply is the e-mail's log entry.
    expect(res.body).toMatchObject({ success: true, data: { object: 'invoice_email', status: 'sent', to: ['contabil@client.test', 'director@client.test'], cc: ['sef@client.test'], bcc: ['arhiva@tejghea.test'] } });
    const mail = smtp.received.at(-1)!;
    expect(mail.to.sort()).toEqual(['arhiva@tejghea.test', 'contabil@client.test', 'director@client.test', 'sef@client.test']);
    const parsed = parseMime(mail.raw);
    expect(parsed.headers.to).toBe('contabil@client.test, director@client.test');
    expect(parsed.headers.cc).toBe('sef@client.test');
    expect(parsed.headers.bcc, 'a blind copy is not written in the message').toBeUndefined();
    expect(parsed.headers.subject).toBe('Factura dvs.');
    expect(parsed.parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!.body.toString('utf8')).toContain('Găsiți atașată factura.');
    const pdf = parsed.parts.find((p) => p.headers['content-type']?.startsWith('application/pdf'))!;
    expect(squeezed(pdfText(pdf.body))).toContain('Total de plată 1.234,56 lei');
  });

  it('answers the mail server’s failures in the envelope (424), logs them, never a 5xx', async () => {
    const { firm, invoice } = await invoiceFor(null);
    // No settings yet; then no recipient at all.
    expectError(await firm.call('POST', `/invoices/${invoice.id}/send`, { to: 'x@client.test' }), 409, 'smtp_not_configured');
    await firm.ok('PUT', '/settings/email', settings());
    expectError(await firm.call('POST', `/invoices/${invoice.id}/send`, {}), 422, 'email_no_recipient');
    expectError(await firm.call('POST', `/invoices/${invoice.id}/send`, { to: 'nu-e-adresa' }), 422, 'validation_error');
    expectError(await firm.call('POST', `/invoices/${invoice.id}/send`, { to: 'x@client.test', necunoscut: 1 }), 422, 'unknown_parameter');

    const refused = await firm.call('POST', `/invoices/${invoice.id}/send`, { to: 'cineva@refuzat.test' }, { 'accept-language': 'ro' });
    expectError(refused, 424, 'smtp_rejected');
    expect(refused.body.error.message).toContain('Serverul de e-mail a refuzat mesajul');
    expect(refused.body.error.message).toContain('550');

    server.clock.advance(60);
    await firm.ok('PUT', '/settings/email', settings({ password: 'gresita' }));
    const auth = await firm.call('POST', `/invoices/${invoice.id}/send`, { to: 'x@client.test' }, { 'accept-language': 'ro' });
    expectError(auth, 424, 'smtp_auth_failed');
    expect(auth.body.error.message).toContain('utilizatorul sau parola');

    // A port nobody listens on: the SMTP server's own, closed after use.
    server.clock.advance(60);
    const closed = await startSmtp();
    await closed.close();
    await firm.ok('PUT', '/settings/email', settings({ port: closed.port }));
    const down = await firm.call('POST', `/invoices/${invoice.id}/send`, { to: 'x@client.test' }, { 'accept-language': 'ro' });
    expectError(down, 424, 'smtp_unreachable');
    expect(down.body.error.message).toContain('nu a putut fi contactat');

    const log = await firm.ok('GET', `/invoices/${invoice.id}/emails`);
    expect(log.map((e: { status: string; error: { code: string } | null }) => [e.status, e.error?.code])).toEqual([
      ['failed', 'smtp_unreachable'],
      ['failed', 'smtp_auth_failed'],
      ['failed', 'smtp_rejected'],
    ]);
  });

  it('keeps firms apart: another firm can neither send nor read the log', async () => {
    const { invoice } = await invoiceFor();
    const other = await newFirm(server);
    await other.ok('PUT', '/settings/email', settings());
    expectError(await other.call('POST', `/invoices/${invoice.id}/send`, { to: 'x@client.test' }), 404, 'resource_missing');
    expectError(await other.call('GET', `/invoices/${invoice.id}/emails`), 404, 'resource_missing');
  });
});
