import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EfacturaClient } from '../../server/anaf/efactura-client';
import { ANAF_DAILY_LIMITS, DailyQuotaLedger } from '../../server/anaf/daily-quota';
import { toApiError } from '../../server/modules/efactura-spv/anaf-errors';
import { ApiError } from '../../server/platform/errors';
import { startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { COMPANY, connectedClient, expectAnafError, invoiceXml } from './helpers';

/**
 * ANAF's daily limits per message: 10 downloads and 100 state checks a day. Past them ANAF answers,
 * with HTTP 200, "S-au facut deja 10 descarcari la mesajul cu id_descarcare=… in cursul zilei". The
 * client counts its own calls and stops before the limit, believes ANAF when it says the quota is
 * spent (another program may have used it), and says so in Romanian, with what to do.
 */
let sim: AnafSimulator;
beforeAll(async () => {
  sim = await startAnafSimulator({ pollsBeforeDone: 0 });
});
afterAll(async () => {
  await sim.close();
});

async function uploadedAndDone(client: EfacturaClient, id: string): Promise<{ uploadIndex: string; downloadId: string }> {
  const { uploadIndex } = await client.upload(invoiceXml({ id }), { cif: 'RO12345674', standard: 'UBL' });
  const s = await client.messageStatus(uploadIndex);
  if (s.state !== 'ok') throw new Error(`expected ok, got ${s.state}`);
  return { uploadIndex, downloadId: s.downloadId };
}

describe("ANAF's daily quotas", () => {
  it('stops downloading a message after its 10 a day, without asking ANAF an 11th time', async () => {
    const { client } = await connectedClient(sim);
    const { downloadId } = await uploadedAndDone(client, 'Q-0001');
    for (let i = 0; i < ANAF_DAILY_LIMITS.download; i += 1) expect((await client.download(downloadId)).kind).toBe('invoice');
    const calls = sim.state.requestsTo('/api/test/FCTEL/rest/descarcare').length;
    const err = await expectAnafError(client.download(downloadId));
    expect(err.quota).toMatchObject({ scope: 'download', id: downloadId, limit: 10 });
    expect(sim.state.requestsTo('/api/test/FCTEL/rest/descarcare')).toHaveLength(calls);
    const api = toApiError(err);
    expect(api).toBeInstanceOf(ApiError);
    expect((api as ApiError).status).toBe(429);
    expect((api as ApiError).code).toBe('anaf_quota_reached');
  });

  it("believes ANAF's HTTP-200 quota answer when another program spent the day's downloads", async () => {
    const { client, tokens } = await connectedClient(sim);
    const { downloadId } = await uploadedAndDone(client, 'Q-0002');
    // Another program (the SPV web page, an accountant's tool) used today's downloads.
    sim.state.quotaUsed.set(`download:${downloadId}`, 10);
    const fresh = new EfacturaClient({
      environment: 'test', companyId: COMPANY, tokens, baseUrls: { test: sim.baseUrls.efacturaTest, prod: sim.baseUrls.efacturaProd },
      quota: new DailyQuotaLedger(),
    });
    const err = await expectAnafError(fresh.download(downloadId));
    expect(err.kind).toBe('unavailable');
    expect(err.quota).toMatchObject({ scope: 'download', limit: 10 });
    expect(err.anafMessages[0]).toBe(`S-au facut deja 10 descarcari la mesajul cu id_descarcare=${downloadId} in cursul zilei`);
    const before = sim.state.requestsTo('/api/test/FCTEL/rest/descarcare').length;
    await expectAnafError(fresh.download(downloadId));
    expect(sim.state.requestsTo('/api/test/FCTEL/rest/descarcare')).toHaveLength(before);
  });

  it('stops checking the state of a message after its 100 a day, and opens again the next Bucharest day', async () => {
    let now = new Date('2026-11-25T10:00:00Z');
    const ledger = new DailyQuotaLedger(() => now);
    for (let i = 0; i < ANAF_DAILY_LIMITS.status; i += 1) ledger.take('status', '5001', 'stareMesaj');
    expect(() => ledger.take('status', '5001', 'stareMesaj')).toThrow(/daily limit of 100 status checks/);
    expect(ledger.remaining('status', '5002')).toBe(100);
    // 22:30 UTC is already the next day in Bucharest.
    now = new Date('2026-11-25T22:30:00Z');
    expect(() => ledger.take('status', '5001', 'stareMesaj')).not.toThrow();
  });

  it('says it in Romanian, with what to do', () => {
    const err = new DailyQuotaLedger();
    for (let i = 0; i < 10; i += 1) err.take('download', '77', 'descarcare');
    let caught: unknown;
    try {
      err.take('download', '77', 'descarcare');
    } catch (e) {
      caught = e;
    }
    const api = toApiError(caught) as ApiError;
    expect(api.toBody('ro', 'https://x').message).toBe(
      'ANAF permite 10 cereri de acest fel pe zi pentru un mesaj, iar cele de azi pentru mesajul 77 s-au epuizat. Nu s-a pierdut nimic: reîncercați mâine; până atunci nu mai întrebăm ANAF.',
    );
    expect(api.toBody('en', 'https://x').message).toMatch(/^ANAF allows 10 requests of this kind a day for one message, and today's are used up for message 77/);
  });
});
