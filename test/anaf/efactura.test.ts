import { createHash, createVerify } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswerZip, type EfacturaClient, type MessageStatus } from '../../server/anaf/efactura-client';
import { parseXmlRoot } from '../../server/anaf/xml';
import { startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { connectedClient, expectAnafError, invoiceXml } from './helpers';

let sim: AnafSimulator;
let client: EfacturaClient;
beforeAll(async () => {
  sim = await startAnafSimulator({ pollsBeforeDone: 2 });
  ({ client } = await connectedClient(sim));
});
afterAll(async () => {
  await sim.close();
});

async function pollUntilDone(index: string): Promise<{ final: MessageStatus; polls: MessageStatus[] }> {
  const polls: MessageStatus[] = [];
  for (let i = 0; i < 10; i++) {
    const s = await client.messageStatus(index);
    polls.push(s);
    if (s.state !== 'in prelucrare') return { final: s, polls };
  }
  throw new Error('still processing after 10 polls');
}

describe('e-Factura upload -> stareMesaj -> descarcare', () => {
  it('files an invoice, polls it to ok and downloads the signed ZIP', async () => {
    const xml = invoiceXml({ id: 'TJG-2026-0101' });
    const { uploadIndex, responseDate } = await client.upload(xml, { cif: 'RO12345674', standard: 'UBL' });
    expect(uploadIndex).toMatch(/^\d{10}$/);
    expect(responseDate).toMatch(/^\d{12}$/);

    const uploadCall = sim.state.requestsTo('/api/test/FCTEL/rest/upload').at(-1)!;
    expect(uploadCall.method).toBe('POST');
    expect(uploadCall.query).toEqual({ standard: 'UBL', cif: '12345674' });
    expect(uploadCall.authorization).toMatch(/^Bearer ey/);

    const { final, polls } = await pollUntilDone(uploadIndex);
    expect(polls.map((p) => p.state)).toEqual(['in prelucrare', 'in prelucrare', 'ok']);
    if (final.state !== 'ok') throw new Error('expected ok');

    const answer = await client.download(final.downloadId);
    expect(answer.kind).toBe('invoice');
    expect(answer.files.map((f) => f.name).sort()).toEqual([`${uploadIndex}.xml`, `semnatura_${uploadIndex}.xml`]);
    // The invoice comes back byte for byte.
    expect(answer.main.xml).toBe(xml);
    expect(Array.from(answer.zip.subarray(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04]);

    // The detached signature really covers the document: digest and RSA signature both verify.
    const sig = parseXmlRoot(answer.signature!.xml)!;
    expect(sig.name).toBe('Signature');
    expect(sig.namespace).toBe('http://www.w3.org/2000/09/xmldsig#');
    const digest = /<DigestValue>([^<]+)<\/DigestValue>/.exec(answer.signature!.xml)![1];
    expect(digest).toBe(createHash('sha256').update(xml, 'utf8').digest('base64'));
    const signedInfo = /<SignedInfo>.*<\/SignedInfo>/s.exec(answer.signature!.xml)![0].replace('<SignedInfo>', '<SignedInfo xmlns="http://www.w3.org/2000/09/xmldsig#">');
    const value = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(answer.signature!.xml)![1]!;
    const verifier = createVerify('sha256').update(signedInfo);
    expect(verifier.verify(sim.state.signingKey.publicKey, value, 'base64')).toBe(true);

    // ANAF lists it to the seller as FACTURA TRIMISA and to the buyer (also in our SPV) as FACTURA PRIMITA.
    const sent = await client.listMessages({ days: 1, cif: '12345674', filter: 'T' });
    const mine = sent.messages.find((m) => m.id_solicitare === uploadIndex)!;
    expect(mine).toMatchObject({ tip: 'FACTURA TRIMISA', id: final.downloadId, seller_cif: '12345674', buyer_cif: '76543210' });
    expect(mine.detalii).toBe(`Factura cu id_incarcare=${uploadIndex} emisa de cif_emitent=12345674 pentru cif_beneficiar=76543210`);
    const received = await client.listMessages({ days: 1, cif: '76543210', filter: 'P' });
    expect(received.messages.some((m) => m.id_solicitare === uploadIndex && m.tip === 'FACTURA PRIMITA')).toBe(true);
  });

  it('sends the optional upload flags as ANAF spells them, and uploadb2c for B2C', async () => {
    await client.upload(invoiceXml({ id: 'TJG-2026-0102' }), { cif: '12345674', standard: 'UBL', extern: true, autofactura: true });
    expect(sim.state.requestsTo('/rest/upload').at(-1)!.query).toEqual({ standard: 'UBL', cif: '12345674', extern: 'DA', autofactura: 'DA' });
    await client.upload(invoiceXml({ id: 'TJG-2026-0103' }), { cif: '12345674', standard: 'UBL', b2c: true });
    expect(sim.state.requests.at(-1)!.path).toBe('/api/test/FCTEL/rest/uploadb2c');
  });

  it('a credit note goes as standard CN', async () => {
    const { uploadIndex } = await client.upload(invoiceXml({ id: 'TJG-CN-0007', root: 'CreditNote' }), { cif: '12345674', standard: 'CN' });
    const { final } = await pollUntilDone(uploadIndex);
    expect(final.state).toBe('ok');
  });

  it('an invoice that breaks CIUS-RO rules ends nok, with ANAF\'s error report in the ZIP', async () => {
    const { uploadIndex } = await client.upload(invoiceXml({ id: 'FARA-NUMAR', withoutSellerVat: true }), { cif: '12345674', standard: 'UBL' });
    const { final } = await pollUntilDone(uploadIndex);
    if (final.state !== 'nok') throw new Error(`expected nok, got ${final.state}`);
    const answer = await client.download(final.downloadId);
    if (answer.kind !== 'errors') throw new Error('expected the error report');
    expect(answer.uploadIndex).toBe(uploadIndex);
    expect(answer.sellerCif).toBe('12345674');
    expect(answer.errors).toHaveLength(2);
    // Verbatim, line breaks included (ANAF sends them as &#xA;&#x9; inside the attribute).
    expect(answer.errors[0]).toBe(
      '[BR-RO-010]-Numarul facturii (BT-1) trebuie sa includa cel putin un caracter numeric (0—9).\n\t\t\t\t\t\t\t#Invoice number (BT-1) must include at least one numeric character (0-9).',
    );
    expect(answer.main.xml).toContain('&#xA;&#x9;');
    expect(answer.errors[1]).toMatch(/^\[BR-RO-065\]-Identificatorul de înregistrare fiscala a Vanzatorului/);
    const root = parseXmlRoot(answer.main.xml)!;
    expect(root.name).toBe('header');
    expect(root.namespace).toBe('mfp:anaf:dgti:efactura:mesajEroriFactuta:v1');
    expect(answer.signature?.name).toBe(`semnatura_${uploadIndex}.xml`);

    const errs = await client.listMessages({ days: 1, cif: '12345674', filter: 'E' });
    expect(errs.messages.find((m) => m.id_solicitare === uploadIndex)).toMatchObject({
      tip: 'ERORI FACTURA',
      detalii: `Erori de validare identificate la factura primita cu id_incarcare=${uploadIndex}`,
    });
  });

  it('XML that is not well formed is refused at upload as rejected, with ANAF\'s SAX message', async () => {
    const err = await expectAnafError(client.upload('<Invoice><cbc:ID>1</Invoice>', { cif: '12345674', standard: 'UBL' }));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages[0]).toMatch(/^Fisierul transmis nu este valid\. org\.xml\.sax\.SAXParseException; lineNumber: 1; columnNumber: \d+;/);
  });

  it('a document that is not UBL is refused at upload', async () => {
    const err = await expectAnafError(client.upload('<?xml version="1.0"?><Invoice1 xmlns="urn:x"/>', { cif: '12345674', standard: 'UBL' }));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages).toEqual([
      "Fisierul transmis nu este valid. org.xml.sax.SAXParseException; lineNumber: 1; columnNumber: 1; cvc-elt.1.a: Cannot find the declaration of element 'Invoice1'.",
    ]);
  });

  it('upload for a CIF without SPV rights is rejected with ANAF\'s words', async () => {
    const err = await expectAnafError(client.upload(invoiceXml(), { cif: '1234', standard: 'UBL' }));
    expect(err.kind).toBe('rejected');
    expect(err.message).toContain('Nu aveti drept in SPV pentru CIF=1234');
  });

  it('reports "XML cu erori nepreluat de sistem" as a final state without a download', async () => {
    sim.state.forceNextUploadState('XML cu erori nepreluat de sistem');
    const { uploadIndex } = await client.upload(invoiceXml({ id: 'TJG-2026-0199' }), { cif: '12345674', standard: 'UBL' });
    const { final } = await pollUntilDone(uploadIndex);
    expect(final).toEqual({ state: 'XML cu erori nepreluat de sistem' });
  });

  it('the API answers 401 without a Bearer token it issued', async () => {
    const none = await fetch(`${sim.baseUrls.efacturaTest}/stareMesaj?id_incarcare=1`);
    expect(none.status).toBe(401);
    const forged = await fetch(`${sim.baseUrls.efacturaTest}/stareMesaj?id_incarcare=1`, { headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('stareMesaj for an unknown index raises ANAF\'s error, not a state', async () => {
    const err = await expectAnafError(client.messageStatus('15000'));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages).toEqual(['Nu exista factura cu id_incarcare= 15000']);
  });

  it('descarcare of an unknown id surfaces the JSON eroare', async () => {
    const err = await expectAnafError(client.download('21'));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages).toEqual(['Pentru id=21 nu exista inregistrata nici o factura']);
  });
});

describe('e-Factura message lists', () => {
  it('lists a received supplier invoice and downloads it from the inbox', async () => {
    const supplierXml = invoiceXml({ id: 'FURN-778', sellerCif: '44710212', buyerCif: '12345674' });
    const added = sim.state.addReceivedInvoice({ buyerCif: '12345674', sellerCif: '44710212', xml: supplierXml });
    const list = await client.listMessages({ days: 5, cif: '12345674', filter: 'P' });
    const msg = list.messages.find((m) => m.id === added.downloadId)!;
    expect(msg).toMatchObject({ tip: 'FACTURA PRIMITA', cif: '12345674', id_solicitare: added.uploadIndex, seller_cif: '44710212', buyer_cif: '12345674' });
    expect(msg.data_creare).toMatch(/^\d{12}$/);
    expect(msg.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\+0[23]:00$/);
    expect(Math.abs(Date.parse(msg.created_at!) - Date.now())).toBeLessThan(120_000);
    expect(list.title).toBe('Lista Mesaje disponibile din ultimele 5 zile');
    expect(list.serial).toBe('1234AA456');

    const answer = await client.download(msg.id);
    expect(answer.kind).toBe('invoice');
    expect(answer.main.xml).toBe(supplierXml);
  });

  it('treats "Nu exista mesaje" as an empty list and other eroare answers as errors', async () => {
    const empty = await client.listMessages({ days: 3, cif: '39012345' });
    expect(empty.messages).toEqual([]);
    const err = await expectAnafError(client.listMessages({ days: 3, cif: '99' }));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages).toEqual(['Nu aveti drept in SPV pentru CIF=99']);
    await expect(client.listMessages({ days: 61, cif: '12345674' })).rejects.toThrow(RangeError);
  });

  it('only lists messages within the requested days', async () => {
    sim.state.addReceivedInvoice({ buyerCif: '76543210', sellerCif: '12345674', xml: invoiceXml({ id: 'OLD-1' }), createdMs: sim.state.now() - 10 * 86_400_000 });
    const recent = await client.listMessages({ days: 5, cif: '76543210' });
    expect(recent.messages.some((m) => m.detalii.includes('cif_emitent=12345674') && m.created_at && Date.parse(m.created_at) < Date.now() - 9 * 86_400_000)).toBe(false);
    const wider = await client.listMessages({ days: 11, cif: '76543210' });
    expect(wider.messages.length).toBeGreaterThan(recent.messages.length);
  });

  it('walks listaMesajePaginatieFactura pages', async () => {
    const paged = await startAnafSimulator({ pageSize: 3 });
    try {
      const { client: c } = await connectedClient(paged);
      const now = paged.state.now();
      for (let i = 0; i < 7; i++) {
        paged.state.addReceivedInvoice({ buyerCif: '12345674', sellerCif: '76543210', xml: invoiceXml({ id: `P-${i}` }), createdMs: now - (i + 1) * 60_000 });
      }
      const start = now - 86_400_000;
      const first = await c.listMessagesPage({ cif: '12345674', startTime: start, endTime: now, page: 1 });
      expect(first).toMatchObject({ page: 1, totalPages: 3, totalRecords: 7, pageSize: 3 });
      expect(first.messages).toHaveLength(3);
      expect(first.title).toMatch(/^Lista Mesaje disponibile din intervalul \d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2} - /);
      const beyond = await c.listMessagesPage({ cif: '12345674', startTime: start, endTime: now, page: 9 });
      expect(beyond).toMatchObject({ messages: [], totalPages: 3 });
      const all = await c.listMessagesInRange({ cif: '12345674', startTime: start, endTime: now });
      expect(all).toHaveLength(7);
      expect(new Set(all.map((m) => m.id)).size).toBe(7);
      const query = paged.state.requestsTo('listaMesajePaginatieFactura').at(-1)!.query;
      expect(Object.keys(query).sort()).toEqual(['cif', 'endTime', 'pagina', 'startTime']);
      const err = await expectAnafError(c.listMessagesPage({ cif: '12345674', startTime: now - 61 * 86_400_000, endTime: now, page: 1 }));
      expect(err.anafMessages[0]).toMatch(/nu poate fi mai vechi de 60 de zile fata de momentul requestului$/);
    } finally {
      await paged.close();
    }
  });

  it("moves a start at the 60-day edge to ANAF's own edge when ANAF's clock is ahead, and lists what ANAF still holds", async () => {
    const ahead = await startAnafSimulator({ pageSize: 3 });
    try {
      const { client: c } = await connectedClient(ahead);
      ahead.state.advanceTime(300); // ANAF's clock 5 minutes ahead of ours.
      const anafNow = ahead.state.now();
      const day = 86_400_000;
      // Two minutes inside ANAF's 60 days (it still lists it), and one a day old.
      ahead.state.addReceivedInvoice({ buyerCif: '12345674', sellerCif: '76543210', xml: invoiceXml({ id: 'EDGE-1' }), createdMs: anafNow - 60 * day + 120_000 });
      ahead.state.addReceivedInvoice({ buyerCif: '12345674', sellerCif: '76543210', xml: invoiceXml({ id: 'EDGE-2' }), createdMs: anafNow - day });
      // A start a minute inside OUR 60 days is four minutes past ANAF's: its real refusal, HTTP 200.
      const ourNow = Date.now();
      const start = ourNow - 60 * day + 60_000;
      const refused = await expectAnafError(c.listMessagesPage({ cif: '12345674', startTime: start, endTime: ourNow, page: 1 }));
      expect(refused.anafMessages[0]).toMatch(/^startTime = \d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2} nu poate fi mai vechi de 60 de zile fata de momentul requestului$/);
      expect(refused.status).toBe(200);
      expect(Math.abs(refused.anafNow! - ahead.state.now())).toBeLessThan(2_000);
      // The range walk moves the start to ANAF's edge and finds both.
      const all = await c.listMessagesInRange({ cif: '12345674', startTime: start, endTime: ourNow });
      expect(all).toHaveLength(2);
      const starts = ahead.state.requestsTo('listaMesajePaginatieFactura').map((r) => Number(r.query.startTime));
      expect(starts.at(-2)).toBe(start);
      expect(starts.at(-1)! - (anafNow - 60 * day)).toBeGreaterThan(0);
      expect(starts.at(-1)! - (anafNow - 60 * day)).toBeLessThan(120_000);
      // A start further back than our own 60 days is the caller's mistake: refused, not moved.
      await expectAnafError(c.listMessagesInRange({ cif: '12345674', startTime: ourNow - 61 * day, endTime: ourNow }));
    } finally {
      await ahead.close();
    }
  });

  it('keeps the test and prod environments apart', async () => {
    const { uploadIndex } = await client.upload(invoiceXml({ id: 'TJG-2026-0300' }), { cif: '12345674', standard: 'UBL' });
    const { EfacturaClient } = await import('../../server/anaf/efactura-client');
    const { tokens } = await connectedClient(sim);
    const prod = new EfacturaClient({
      environment: 'prod',
      companyId: 'company-1',
      tokens,
      baseUrls: { test: sim.baseUrls.efacturaTest, prod: sim.baseUrls.efacturaProd },
      publicBaseUrl: sim.baseUrls.pdf,
    });
    const err = await expectAnafError(prod.messageStatus(uploadIndex));
    expect(err.anafMessages).toEqual([`Nu exista factura cu id_incarcare= ${uploadIndex}`]);
    expect(sim.state.requests.at(-1)!.path).toBe('/api/prod/FCTEL/rest/stareMesaj');
  });
});

describe('e-Factura XML to PDF (transformare)', () => {
  it('returns PDF bytes for a valid invoice, without sending a token', async () => {
    const pdf = await client.xmlToPdf(invoiceXml({ id: 'TJG-2026-0400' }), { standard: 'FACT1', validate: true });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(new TextDecoder('latin1').decode(pdf)).toContain('FACTURA TJG-2026-0400');
    expect(new TextDecoder('latin1').decode(pdf).trimEnd().endsWith('%%EOF')).toBe(true);
    const call = sim.state.requests.at(-1)!;
    expect(call.path).toBe('/webservicesp/prod/FCTEL/rest/transformare/FACT1');
    expect(call.authorization).toBeUndefined();
    expect(call.contentType).toMatch(/^text\/plain/);
  });

  it('validate=false asks ANAF to skip validation (/DA) and renders what validation would refuse', async () => {
    const broken = invoiceXml({ id: 'FARA-NUMAR' });
    const err = await expectAnafError(client.xmlToPdf(broken, { standard: 'FACT1', validate: true }));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages[0]).toMatch(/^\[BR-RO-010\]/);
    const pdf = await client.xmlToPdf(broken, { standard: 'FACT1', validate: false });
    expect(sim.state.requests.at(-1)!.path).toBe('/webservicesp/prod/FCTEL/rest/transformare/FACT1/DA');
    expect(new TextDecoder().decode(pdf.subarray(0, 4))).toBe('%PDF');
  });

  it('renders credit notes with FCN, and refuses an invoice sent as FCN', async () => {
    const pdf = await client.xmlToPdf(invoiceXml({ id: 'CN-1', root: 'CreditNote' }), { standard: 'FCN', validate: true });
    expect(new TextDecoder().decode(pdf.subarray(0, 4))).toBe('%PDF');
    const err = await expectAnafError(client.xmlToPdf(invoiceXml(), { standard: 'FCN', validate: true }));
    expect(err.kind).toBe('rejected');
    expect(err.anafMessages[0]).toContain("Cannot find the declaration of element 'Invoice'");
  });
});

describe('readAnswerZip', () => {
  it('refuses a ZIP without an XML document as a protocol error', async () => {
    const { zipSync } = await import('fflate');
    const zip = zipSync({ 'readme.txt': new TextEncoder().encode('hello') });
    expect(() => readAnswerZip(zip)).toThrow(/no XML document/);
    expect(Object.keys(unzipSync(zip))).toEqual(['readme.txt']);
  });
});
