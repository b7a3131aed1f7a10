import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToAnaf } from '../../server/anaf/http';
import { PublicDataClient } from '../../server/anaf/public-data-client';
import { startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { connectedClient, expectAnafError, fastPolicy, invoiceXml } from './helpers';

let sim: AnafSimulator;
beforeAll(async () => {
  sim = await startAnafSimulator({ pollsBeforeDone: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('retries, timeouts and dropped connections against the simulator', () => {
  it('retries 5xx on a read and then succeeds', async () => {
    const { client } = await connectedClient(sim);
    sim.state.addReceivedInvoice({ buyerCif: '12345674', sellerCif: '76543210', xml: invoiceXml() });
    const before = sim.state.requestsTo('listaMesajeFactura').length;
    sim.state.failNext(1, 500, 'listaMesajeFactura');
    sim.state.failNext(1, 503, 'listaMesajeFactura');
    const list = await client.listMessages({ days: 1, cif: '12345674' });
    expect(list.messages.length).toBeGreaterThan(0);
    expect(sim.state.requestsTo('listaMesajeFactura').length - before).toBe(3);
  });

  it('gives up after maxAttempts with unavailable and ANAF\'s message', async () => {
    const { client } = await connectedClient(sim);
    const before = sim.state.requestsTo('stareMesaj').length;
    sim.state.failNext(5, 500, 'stareMesaj');
    const err = await expectAnafError(client.messageStatus('5001120000'));
    expect(err.kind).toBe('unavailable');
    expect(err.status).toBe(500);
    expect(err.attempts).toBe(3);
    expect(err.anafMessages).toEqual(['A aparut o eroare tehnica. Cod: SIM-500']);
    expect(sim.state.requestsTo('stareMesaj').length - before).toBe(3);
    sim.state.faults.length = 0;
  });

  it('does not resend an upload after a 500 (it may have been filed), but does after a 503', async () => {
    const { client } = await connectedClient(sim);
    const before = sim.state.requestsTo('/rest/upload').length;
    sim.state.failNext(1, 500, '/rest/upload');
    const err = await expectAnafError(client.upload(invoiceXml({ id: 'R-500' }), { cif: '12345674', standard: 'UBL' }));
    expect(err.kind).toBe('unavailable');
    expect(sim.state.requestsTo('/rest/upload').length - before).toBe(1);

    sim.state.failNext(1, 503, '/rest/upload');
    const ok = await client.upload(invoiceXml({ id: 'R-503' }), { cif: '12345674', standard: 'UBL' });
    expect(ok.uploadIndex).toMatch(/^\d+$/);
    expect(sim.state.requestsTo('/rest/upload').length - before).toBe(3);
  });

  it('surfaces a stalled answer as timeout within the configured time, without retrying it', async () => {
    const { client } = await connectedClient(sim, { http: { timeoutMs: 300 } });
    const before = sim.state.requestsTo('descarcare').length;
    sim.state.stallNext(3_000, 1, 'descarcare');
    const started = performance.now();
    const err = await expectAnafError(client.download('3001470000'));
    const elapsed = performance.now() - started;
    expect(err.kind).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
    expect(sim.state.requestsTo('descarcare').length - before).toBe(1);
  });

  it('a timeout also covers a body that stops halfway', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '1000' });
      res.write(Buffer.alloc(10));
      // ...and never finishes.
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const started = performance.now();
      const err = await expectAnafError(
        sendToAnaf({ method: 'GET', url: `http://127.0.0.1:${port}/x`, idempotent: true }, { timeoutMs: 200, maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 }),
      );
      expect(err.kind).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(800);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('retries a read whose connection was dropped', async () => {
    const { client } = await connectedClient(sim);
    sim.state.addReceivedInvoice({ buyerCif: '76543210', sellerCif: '12345674', xml: invoiceXml() });
    const before = sim.state.requestsTo('listaMesajeFactura').length;
    sim.state.dropNext(2, 'listaMesajeFactura');
    const list = await client.listMessages({ days: 1, cif: '76543210' });
    expect(list.messages.length).toBeGreaterThan(0);
    expect(sim.state.requestsTo('listaMesajeFactura').length - before).toBe(3);
  });

  it('a dropped upload is not resent; a refused connection is (nothing reached ANAF)', async () => {
    const { client } = await connectedClient(sim);
    const before = sim.state.requestsTo('/rest/upload').length;
    sim.state.dropNext(1, '/rest/upload');
    const err = await expectAnafError(client.upload(invoiceXml({ id: 'D-1' }), { cif: '12345674', standard: 'UBL' }));
    expect(err.kind).toBe('unavailable');
    expect(sim.state.requestsTo('/rest/upload').length - before).toBe(1);

    // A port nobody listens on: ECONNREFUSED every time, so all attempts are made.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    let calls = 0;
    const refused = await expectAnafError(
      sendToAnaf(
        { method: 'POST', url: `http://127.0.0.1:${port}/upload`, body: 'x', idempotent: false },
        { timeoutMs: 1_000, maxAttempts: 3, backoffBaseMs: 1, backoffMaxMs: 2 },
        { sleep: async () => void calls++ },
      ),
    );
    expect(refused.kind).toBe('unavailable');
    expect(refused.message).toContain('ECONNREFUSED');
    expect(refused.attempts).toBe(3);
    expect(calls).toBe(2);
  });

  it('the public services retry too', async () => {
    const pub = new PublicDataClient({ baseUrl: sim.baseUrls.publicApi, http: fastPolicy, minIntervalMs: 0 });
    sim.state.failNext(2, 502, '/bilant');
    const result = await pub.balanceSheet('12345674', 2024);
    expect(result.status).toBe('published');
  });

  it('a token refused twice is an auth error (no loop)', async () => {
    const { client, tokens } = await connectedClient(sim);
    // Every token this manager gets is dead on arrival: refresh works, ANAF still says 401.
    const original = tokens.accessTokenAfterRejection.bind(tokens);
    tokens.accessTokenAfterRejection = async (company, rejected) => {
      const fresh = await original(company, rejected);
      sim.state.expireAccessTokens();
      return fresh;
    };
    sim.state.expireAccessTokens();
    const before = sim.state.requestsTo('listaMesajeFactura').length;
    const err = await expectAnafError(client.listMessages({ days: 1, cif: '12345674' }));
    expect(err.kind).toBe('auth');
    expect(err.status).toBe(401);
    expect(sim.state.requestsTo('listaMesajeFactura').length - before).toBe(2);
  });
});
