import { unzipSync } from 'fflate';
import { decodeXmlBytes } from '../efactura/xml-bytes';
import { ANAF_QUOTA_WORDS, quotaError, sharedQuotaLedger, type DailyQuotaLedger, type QuotaScope } from './daily-quota';
import { z } from 'zod';
import { AnafError } from './errors';
import { defaultHttpPolicy, errorForStatus, joinUrl, sendToAnaf, type AnafRequest, type AnafResponse, type HttpDeps, type HttpPolicy } from './http';
import type { AccessTokenSource } from './oauth';
import { anafStampToIso } from './romania-time';
import { parseXmlRoot, type XmlRoot } from './xml';

/**
 * Client of the RO e-Factura REST services (FCTEL/rest), OAuth2 mode on api.anaf.ro.
 * Formats follow ANAF's swagger presentations (upload, stareMesaj, listaMesaje, descarcare,
 * transformare). ANAF reports business failures with HTTP 200 in each endpoint's own format
 * (XML `Errors`, JSON `eroare`, JSON `stare: nok`), so every answer is parsed before it is trusted.
 */
export type EfacturaEnvironment = 'test' | 'prod';

export const EFACTURA_BASE_URLS: Record<EfacturaEnvironment, string> = {
  test: 'https://api.anaf.ro/test/FCTEL/rest',
  prod: 'https://api.anaf.ro/prod/FCTEL/rest',
};

/** validare/transformare exist only under prod, and need no token on the public host. */
export const EFACTURA_PUBLIC_BASE_URL = 'https://webservicesp.anaf.ro/prod/FCTEL/rest';

export const NS_UPLOAD_RESPONSE = 'mfp:anaf:dgti:spv:respUploadFisier:v1';
export const NS_MESSAGE_STATE = 'mfp:anaf:dgti:efactura:stareMesajFactura:v1';
/** Sic: ANAF's namespace really says "Factuta". */
export const NS_INVOICE_ERRORS = 'mfp:anaf:dgti:efactura:mesajEroriFactuta:v1';
export const NS_BUYER_MESSAGE = 'mfp:anaf:dgti:spv:reqMesaj:v1';
export const NS_UBL_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const NS_UBL_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

export type UploadStandard = 'UBL' | 'CN' | 'CII' | 'RASP';
export type PdfStandard = 'FACT1' | 'FCN';
/** E = errors, T = sent invoices, P = received invoices, R = buyer messages. */
export type MessageFilter = 'E' | 'T' | 'P' | 'R';

export interface EfacturaClientOptions {
  environment: EfacturaEnvironment;
  /** Whose tokens to use (the token store key). */
  companyId: string;
  tokens: AccessTokenSource;
  baseUrls?: Partial<Record<EfacturaEnvironment, string>>;
  publicBaseUrl?: string;
  http?: Partial<HttpPolicy>;
  httpDeps?: HttpDeps;
  /** Daily per-message limits; default: the ledger the whole process shares. */
  quota?: DailyQuotaLedger;
}

export interface UploadOptions {
  /** The CIF that receives the error message if ANAF cannot identify the seller in the XML. */
  cif: string;
  standard: UploadStandard;
  /** Buyer outside Romania. */
  extern?: boolean;
  /** Self-billing: the buyer issues the invoice on the supplier's behalf. */
  autofactura?: boolean;
  /** Filed by an enforcement body on the debtor's behalf. */
  executare?: boolean;
  /** B2C invoices go to `uploadb2c`. */
  b2c?: boolean;
  signal?: AbortSignal;
}

export interface UploadResult {
  uploadIndex: string;
  /** ANAF's `dateResponse`, `yyyyMMddHHmm` Romanian time. */
  responseDate: string | undefined;
}

export type MessageStatus =
  | { state: 'ok'; downloadId: string }
  | { state: 'nok'; downloadId: string }
  | { state: 'in prelucrare' }
  | { state: 'XML cu erori nepreluat de sistem' };

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export type DownloadResult = {
  zip: Uint8Array;
  files: ZipEntry[];
  /** The invoice, error report or buyer message. */
  main: { name: string; xml: string };
  signature: { name: string; xml: string } | undefined;
} & (
  | { kind: 'invoice'; errors: [] }
  | { kind: 'errors'; errors: string[]; uploadIndex: string | undefined; sellerCif: string | undefined }
  | { kind: 'message'; errors: []; message: string | undefined; uploadIndex: string | undefined }
);

const rawMessageSchema = z.object({
  data_creare: z.coerce.string(),
  cif: z.coerce.string(),
  id_solicitare: z.union([z.string(), z.number()]).nullish().transform((v) => (v == null ? null : String(v))),
  detalii: z.string(),
  tip: z.string(),
  id: z.coerce.string(),
  cif_emitent: z.coerce.string().optional(),
  cif_beneficiar: z.coerce.string().optional(),
});

export interface EfacturaMessage {
  id: string;
  /** FACTURA TRIMISA | FACTURA PRIMITA | ERORI FACTURA | MESAJ CUMPARATOR ... */
  tip: string;
  cif: string;
  /** The upload index (`id_solicitare`). */
  id_solicitare: string | null;
  detalii: string;
  /** `yyyyMMddHHmm`, Romanian time, as ANAF sends it. */
  data_creare: string;
  /** The same instant as ISO 8601 with its offset. */
  created_at: string | undefined;
  seller_cif: string | undefined;
  buyer_cif: string | undefined;
}

export interface MessageList {
  messages: EfacturaMessage[];
  serial: string | undefined;
  cui: string | undefined;
  title: string | undefined;
}

export interface MessagePage extends MessageList {
  page: number;
  totalPages: number;
  totalRecords: number;
  pageSize: number | undefined;
}

const listResponseSchema = z.object({
  mesaje: z.array(rawMessageSchema).optional(),
  eroare: z.string().optional(),
  serial: z.coerce.string().optional(),
  cui: z.coerce.string().optional(),
  titlu: z.string().optional(),
  numar_inregistrari_in_pagina: z.coerce.number().optional(),
  numar_total_inregistrari_per_pagina: z.coerce.number().optional(),
  numar_total_inregistrari: z.coerce.number().optional(),
  numar_total_pagini: z.coerce.number().optional(),
  index_pagina_curenta: z.coerce.number().optional(),
});

const downloadErrorSchema = z.object({ eroare: z.string(), titlu: z.string().optional() });

const pdfErrorSchema = z.object({
  stare: z.string(),
  Messages: z.array(z.object({ message: z.string() })).optional(),
  trace_id: z.string().optional(),
});

/** ANAF's words for "you hit a quota" / "we broke": not a verdict on the request, so not `rejected`. */
const LIMIT_OR_TECHNICAL = [/S-au (facut|incarcat) deja/i, /limita/i, /eroare tehnica/i];

function anafVerdict(messages: string[], what: string, extra: { status?: number; url?: string } = {}): AnafError {
  const joined = messages.join('; ');
  const kind = messages.some((m) => LIMIT_OR_TECHNICAL.some((re) => re.test(m))) ? 'unavailable' : 'rejected';
  return new AnafError(kind, `${what}: ${joined}`, { ...extra, anafMessages: messages });
}

function attr(el: Record<string, unknown>, name: string): string | undefined {
  const v = el[`@_${name}`];
  return typeof v === 'string' ? v : undefined;
}

function errorMessages(el: Record<string, unknown>, child: 'Errors' | 'Error'): string[] {
  const list = el[child];
  if (!Array.isArray(list)) return [];
  return list.flatMap((e: unknown) => {
    if (e && typeof e === 'object') {
      const m = (e as Record<string, unknown>)['@_errorMessage'];
      if (typeof m === 'string') return [m.trim()];
    }
    return [];
  });
}

function expectHeader(res: AnafResponse, namespace: string, what: string): XmlRoot {
  const root = parseXmlRoot(res.text());
  if (!root || root.name !== 'header') {
    throw new AnafError('protocol', `${what}: ANAF answered something that is not its <header> XML`, { status: res.status, url: res.url });
  }
  if (root.namespace !== undefined && root.namespace !== namespace) {
    throw new AnafError('protocol', `${what}: unexpected namespace ${root.namespace}`, { status: res.status, url: res.url });
  }
  return root;
}

function parseJson(res: AnafResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return undefined;
  }
}

const CIF_RE = /^(RO)?\s*(\d{1,13})$/i;

/** ANAF wants the CIF without the RO prefix. */
export function normalizeCif(cif: string): string {
  const m = CIF_RE.exec(cif.trim());
  if (!m) throw new RangeError(`not a CIF: ${cif}`);
  return m[2]!;
}

const SELLER_RE = /cif_emitent\s*=\s*(\d+)/;
const BUYER_RE = /cif_beneficiar\s*=\s*(\d+)/;

function toMessage(raw: z.infer<typeof rawMessageSchema>): EfacturaMessage {
  return {
    id: raw.id,
    tip: raw.tip,
    cif: raw.cif,
    id_solicitare: raw.id_solicitare,
    detalii: raw.detalii,
    data_creare: raw.data_creare,
    created_at: anafStampToIso(raw.data_creare),
    seller_cif: raw.cif_emitent ?? SELLER_RE.exec(raw.detalii)?.[1],
    buyer_cif: raw.cif_beneficiar ?? BUYER_RE.exec(raw.detalii)?.[1],
  };
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46]; // %PDF

function startsWith(body: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => body[i] === b);
}

const MAX_ZIP_ENTRY_BYTES = 50 * 1024 * 1024;

const SIXTY_DAYS_MS = 60 * 86_400_000;
/** Past ANAF's 60-day edge (its Date header, whole seconds) when a refused start is moved there. */
export const SIXTY_DAY_EDGE_MARGIN_MS = 5_000;
/** ANAF's refusal of a paginated list whose start is past its 60 days. */
const TOO_OLD_WORDS = /^startTime = .* nu poate fi mai vechi de 60 de zile/i;

export class EfacturaClient {
  private readonly baseUrl: string;
  private readonly publicBaseUrl: string;
  private readonly policy: HttpPolicy;

  constructor(private readonly options: EfacturaClientOptions) {
    this.baseUrl = options.baseUrls?.[options.environment] ?? EFACTURA_BASE_URLS[options.environment];
    this.publicBaseUrl = options.publicBaseUrl ?? EFACTURA_PUBLIC_BASE_URL;
    this.policy = { ...defaultHttpPolicy, ...options.http };
  }

  private get quota(): DailyQuotaLedger {
    return this.options.quota ?? sharedQuotaLedger;
  }

  /** ANAF's "already N times today" answer becomes a quota error, and the ledger closes the message for the day. */
  private quotaVerdict(scope: QuotaScope, id: string, messages: string[], what: string): never {
    if (messages.some((m) => ANAF_QUOTA_WORDS.test(m))) throw quotaError(what, this.quota.exhaust(scope, id), messages);
    throw anafVerdict(messages, what, { status: 200 });
  }

  get environment(): EfacturaEnvironment {
    return this.options.environment;
  }

  /** Sends with the company's Bearer token; after a 401, asks for a fresh token once and tries again. */
  private async authorized(req: Omit<AnafRequest, 'headers'> & { headers?: Record<string, string> }, what: string): Promise<AnafResponse> {
    const { tokens, companyId } = this.options;
    let token = await tokens.accessToken(companyId);
    for (let round = 0; ; round++) {
      const res = await sendToAnaf(
        { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } },
        this.policy,
        this.options.httpDeps,
      );
      if (res.status !== 401 || round > 0) {
        if (res.status !== 200) throw errorForStatus(res, what);
        return res;
      }
      token = await tokens.accessTokenAfterRejection(companyId, token);
    }
  }

  private url(path: string, query: Record<string, string | undefined>): string {
    const url = new URL(joinUrl(this.baseUrl, path));
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    return url.toString();
  }

  async upload(xml: string | Uint8Array, options: UploadOptions): Promise<UploadResult> {
    const what = 'e-Factura upload';
    const url = this.url(options.b2c ? 'uploadb2c' : 'upload', {
      standard: options.standard,
      cif: normalizeCif(options.cif),
      extern: options.extern ? 'DA' : undefined,
      autofactura: options.autofactura ? 'DA' : undefined,
      executare: options.executare ? 'DA' : undefined,
    });
    const res = await this.authorized(
      {
        method: 'POST',
        url,
        // The swagger takes any type; the API PDF asks for text/plain on its XML-in-body services.
        headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'application/xml' },
        body: xml,
        idempotent: false,
        signal: options.signal,
      },
      what,
    );
    const { element } = expectHeader(res, NS_UPLOAD_RESPONSE, what);
    const status = attr(element, 'ExecutionStatus');
    const responseDate = attr(element, 'dateResponse');
    if (status === '0') {
      const index = attr(element, 'index_incarcare');
      if (!index || !/^\d+$/.test(index)) throw new AnafError('protocol', `${what}: accepted without an index_incarcare`, { url });
      return { uploadIndex: index, responseDate };
    }
    const messages = errorMessages(element, 'Errors');
    if (status === '1') throw anafVerdict(messages.length ? messages : ['upload refused without a reason'], what, { status: 200, url });
    throw new AnafError('protocol', `${what}: unknown ExecutionStatus ${status ?? '(none)'}`, { url });
  }

  async messageStatus(uploadIndex: string, signal?: AbortSignal): Promise<MessageStatus> {
    const what = `e-Factura stareMesaj ${uploadIndex}`;
    const url = this.url('stareMesaj', { id_incarcare: uploadIndex });
    this.quota.take('status', uploadIndex, what);
    const res = await this.authorized({ method: 'GET', url, idempotent: true, signal, headers: { accept: 'application/xml' } }, what);
    const { element } = expectHeader(res, NS_MESSAGE_STATE, what);
    const errors = errorMessages(element, 'Errors');
    const stare = attr(element, 'stare');
    if (errors.length && !stare) this.quotaVerdict('status', uploadIndex, errors, what);
    switch (stare) {
      case 'ok':
      case 'nok': {
        const downloadId = attr(element, 'id_descarcare');
        if (!downloadId) throw new AnafError('protocol', `${what}: stare=${stare} without id_descarcare`, { url });
        return { state: stare, downloadId };
      }
      case 'in prelucrare':
      case 'XML cu erori nepreluat de sistem':
        return { state: stare };
      default:
        throw new AnafError('protocol', `${what}: unknown stare ${stare ?? '(none)'}`, { url });
    }
  }

  async download(downloadId: string, signal?: AbortSignal): Promise<DownloadResult> {
    const what = `e-Factura descarcare ${downloadId}`;
    const url = this.url('descarcare', { id: downloadId });
    this.quota.take('download', downloadId, what);
    const res = await this.authorized({ method: 'GET', url, idempotent: true, signal }, what);
    if (!startsWith(res.body, ZIP_MAGIC)) {
      const err = downloadErrorSchema.safeParse(parseJson(res));
      if (err.success) this.quotaVerdict('download', downloadId, [err.data.eroare], what);
      throw new AnafError('protocol', `${what}: neither a ZIP nor ANAF's JSON error`, { url });
    }
    return readAnswerZip(res.body, what);
  }

  async listMessages(options: { days: number; cif: string; filter?: MessageFilter; signal?: AbortSignal }): Promise<MessageList> {
    const what = 'e-Factura listaMesajeFactura';
    if (!Number.isInteger(options.days) || options.days < 1 || options.days > 60) {
      throw new RangeError('days must be an integer between 1 and 60 (ANAF keeps messages 60 days)');
    }
    const url = this.url('listaMesajeFactura', {
      zile: String(options.days),
      cif: normalizeCif(options.cif),
      filtru: options.filter,
    });
    const res = await this.authorized({ method: 'GET', url, idempotent: true, signal: options.signal, headers: { accept: 'application/json' } }, what);
    const body = this.parseList(res, what);
    if (body.eroare !== undefined) {
      if (/^Nu exista mesaje/i.test(body.eroare)) return { messages: [], serial: undefined, cui: undefined, title: body.titlu };
      throw anafVerdict([body.eroare], what, { status: 200, url });
    }
    return { messages: (body.mesaje ?? []).map(toMessage), serial: body.serial, cui: body.cui, title: body.titlu };
  }

  /** One page of `listaMesajePaginatieFactura`; times are Unix milliseconds, at most 60 days back. */
  async listMessagesPage(options: {
    cif: string;
    startTime: number;
    endTime: number;
    page: number;
    filter?: MessageFilter;
    signal?: AbortSignal;
  }): Promise<MessagePage> {
    const what = 'e-Factura listaMesajePaginatieFactura';
    const url = this.url('listaMesajePaginatieFactura', {
      startTime: String(Math.floor(options.startTime)),
      endTime: String(Math.floor(options.endTime)),
      cif: normalizeCif(options.cif),
      pagina: String(options.page),
      filtru: options.filter,
    });
    const res = await this.authorized({ method: 'GET', url, idempotent: true, signal: options.signal, headers: { accept: 'application/json' } }, what);
    const body = this.parseList(res, what);
    const empty = (totalPages: number): MessagePage => ({
      messages: [],
      serial: undefined,
      cui: undefined,
      title: body.titlu,
      page: options.page,
      totalPages,
      totalRecords: 0,
      pageSize: undefined,
    });
    if (body.eroare !== undefined) {
      if (/^Nu exista mesaje/i.test(body.eroare)) return empty(0);
      const beyond = /Pagina solicitata \d+ este mai mare decat numarul to\w* de pagini (\d+)/i.exec(body.eroare);
      if (beyond) return empty(Number(beyond[1]));
      const verdict = anafVerdict([body.eroare], what, { status: 200, url });
      const anafNow = Date.parse(res.headers.get('date') ?? '');
      if (TOO_OLD_WORDS.test(body.eroare) && Number.isFinite(anafNow)) verdict.anafNow = anafNow;
      throw verdict;
    }
    const messages = (body.mesaje ?? []).map(toMessage);
    return {
      messages,
      serial: body.serial,
      cui: body.cui,
      title: body.titlu,
      page: body.index_pagina_curenta ?? options.page,
      totalPages: body.numar_total_pagini ?? 1,
      totalRecords: body.numar_total_inregistrari ?? messages.length,
      pageSize: body.numar_total_inregistrari_per_pagina,
    };
  }

  /**
   * Every message in a time range, walking the pages ANAF announces. ANAF refuses a start older than
   * 60 days by its own clock ("startTime = … nu poate fi mai vechi de 60 de zile fata de momentul
   * requestului", HTTP 200), so a start at the edge of our 60 days is refused when ANAF's clock is
   * ahead of ours. The start is then moved to ANAF's edge, read from the Date of its refusal, plus
   * {@link SIXTY_DAY_EDGE_MARGIN_MS} (the header has whole seconds, and the next request comes later),
   * and asked once more: what lies before it is past ANAF's own 60 days, which it no longer lists, so
   * nothing it still holds is skipped. A start further back than the edge allows is the caller's
   * mistake and stays refused.
   */
  async listMessagesInRange(options: { cif: string; startTime: number; endTime: number; filter?: MessageFilter; signal?: AbortSignal }): Promise<EfacturaMessage[]> {
    const all: EfacturaMessage[] = [];
    let startTime = options.startTime;
    let moved = false;
    for (let page = 1; ; page++) {
      let result: MessagePage;
      try {
        result = await this.listMessagesPage({ ...options, startTime, page });
      } catch (error) {
        const anafEdge = error instanceof AnafError && error.anafNow !== undefined ? error.anafNow - SIXTY_DAYS_MS + SIXTY_DAY_EDGE_MARGIN_MS : undefined;
        // Once, on the first page (every page has the same start), and only for a start our own clock put inside 60 days.
        if (anafEdge === undefined || moved || page !== 1 || startTime < Date.now() - SIXTY_DAYS_MS || anafEdge <= startTime || anafEdge >= options.endTime) throw error;
        startTime = anafEdge;
        moved = true;
        page = 0;
        continue;
      }
      all.push(...result.messages);
      if (page >= result.totalPages || result.messages.length === 0) return all;
    }
  }

  /**
   * ANAF's own PDF rendering of an invoice XML. `validate: false` appends `/DA` (ANAF's `novld`,
   * "no validation"); ANAF then does not vouch for the rendering. Public service: no token is sent.
   */
  async xmlToPdf(xml: string | Uint8Array, options: { standard: PdfStandard; validate: boolean; signal?: AbortSignal }): Promise<Uint8Array> {
    const what = `e-Factura transformare ${options.standard}`;
    const path = options.validate ? `transformare/${options.standard}` : `transformare/${options.standard}/DA`;
    const url = joinUrl(this.publicBaseUrl, path);
    const res = await sendToAnaf(
      { method: 'POST', url, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: xml, idempotent: true, signal: options.signal },
      this.policy,
      this.options.httpDeps,
    );
    if (res.status !== 200) throw errorForStatus(res, what);
    if (startsWith(res.body, PDF_MAGIC)) return res.body;
    const err = pdfErrorSchema.safeParse(parseJson(res));
    if (err.success) {
      const messages = (err.data.Messages ?? []).map((m) => m.message);
      throw anafVerdict(messages.length ? messages : [`stare=${err.data.stare}`], what, { status: 200, url });
    }
    throw new AnafError('protocol', `${what}: neither a PDF nor ANAF's JSON error`, { url });
  }

  private parseList(res: AnafResponse, what: string): z.infer<typeof listResponseSchema> {
    const parsed = listResponseSchema.safeParse(parseJson(res));
    if (!parsed.success) throw new AnafError('protocol', `${what}: unrecognised JSON`, { url: res.url });
    return parsed.data;
  }
}

/** Unpacks a `descarcare` ZIP: `<index>.xml` (invoice, error report or buyer message) and `semnatura_<index>.xml`. */
export function readAnswerZip(zip: Uint8Array, what = 'e-Factura ZIP'): DownloadResult {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, { filter: (f) => f.originalSize <= MAX_ZIP_ENTRY_BYTES });
  } catch (cause) {
    throw new AnafError('protocol', `${what}: the ZIP cannot be read`, { cause });
  }
  const decode = (name: string, data: Uint8Array) => {
    try {
      return decodeXmlBytes(data);
    } catch (cause) {
      throw new AnafError('protocol', `${what}: ${name}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
  };
  // Nothing is written to disk, but a name that climbs out of its folder marks a forged archive.
  const escaping = Object.keys(entries).find((name) => name.startsWith('/') || /^[a-z]:/i.test(name) || name.split(/[\\/]/).includes('..'));
  if (escaping) throw new AnafError('protocol', `${what}: the entry "${escaping}" points outside the archive's folder`);
  const files = Object.entries(entries)
    .filter(([name]) => !name.endsWith('/'))
    .map(([name, data]) => ({ name, data }));
  const signatureEntry = files.find((f) => /(^|\/)semnatura_[^/]*\.xml$/i.test(f.name));
  const mainEntry = files.find((f) => f !== signatureEntry && /\.xml$/i.test(f.name));
  if (!mainEntry) throw new AnafError('protocol', `${what}: no XML document in the ZIP`);
  const main = { name: mainEntry.name, xml: decode(mainEntry.name, mainEntry.data) };
  const signature = signatureEntry ? { name: signatureEntry.name, xml: decode(signatureEntry.name, signatureEntry.data) } : undefined;
  const root = parseXmlRoot(main.xml);
  if (!root) throw new AnafError('protocol', `${what}: ${main.name} is not well-formed XML`);
  if (root.name === 'header' && root.namespace === NS_INVOICE_ERRORS) {
    return {
      zip,
      files,
      main,
      signature,
      kind: 'errors',
      errors: errorMessages(root.element, 'Error'),
      uploadIndex: attr(root.element, 'Index_incarcare'),
      sellerCif: attr(root.element, 'Cif_emitent'),
    };
  }
  if (root.name === 'header' && root.namespace === NS_BUYER_MESSAGE) {
    return {
      zip,
      files,
      main,
      signature,
      kind: 'message',
      errors: [],
      message: attr(root.element, 'message'),
      uploadIndex: attr(root.element, 'index_incarcare'),
    };
  }
  if (root.name === 'Invoice' || root.name === 'CreditNote' || root.name === 'CrossIndustryInvoice') {
    return { zip, files, main, signature, kind: 'invoice', errors: [] };
  }
  throw new AnafError('protocol', `${what}: unknown document <${root.name}> in the ZIP`);
}
