import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { zipSync } from 'fflate';
import { isWellFormedXml, xmlAttr } from '../../server/anaf/xml';
import { toAnafStamp, romaniaParts } from '../../server/anaf/romania-time';
import { bilantFixtures, companyFixtures, tvaRecord, type BilantFixture, type CompanyFixture } from './anaf-sim/public-fixtures';
import { businessRules, structuralCheck, type UblSummary } from './anaf-sim/ubl-checks';
import { minimalPdf } from './anaf-sim/pdf';
import { detachedSignature } from './anaf-sim/signature';

/**
 * A local stand-in for ANAF, on 127.0.0.1 with a random port, speaking the formats of the real
 * services (see server/anaf/* for the sources). One server emulates three hosts through path
 * prefixes: /logincert (OAuth), /api (e-Factura with a token), /webservicesp (public services).
 */
export const SIM_OAUTH_CLIENT = {
  clientId: 'sim-client-id-0123456789abcdef',
  clientSecret: 'sim-client-secret-fedcba9876543210',
  redirectUri: 'https://localhost:8443/anaf/callback',
} as const;

export interface AnafSimulatorOptions {
  /** stareMesaj polls answered "in prelucrare" before the final state. */
  pollsBeforeDone?: number;
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
  /** Records per page of listaMesajePaginatieFactura (ANAF: 500). */
  pageSize?: number;
  /** CIFs the consenting certificate holder has SPV rights for. */
  spvCifs?: string[];
  /** Send PlatitorTvaRest's documented `cod`/`message` envelope (the live service omits it). */
  tvaEnvelope?: boolean;
  /** ANAF's daily limits per message: downloads (10) and state checks (100); past them the quota answer, with HTTP 200. */
  downloadsPerDay?: number;
  statusChecksPerDay?: number;
}

type Env = 'test' | 'prod';

interface Upload {
  env: Env;
  index: string;
  cif: string;
  standard: string;
  xml: Uint8Array;
  summary: UblSummary | undefined;
  errors: string[];
  polls: number;
  forced: 'XML cu erori nepreluat de sistem' | undefined;
  final: { stare: 'ok' | 'nok' | 'XML cu erori nepreluat de sistem'; downloadId?: string } | undefined;
  receivedAt: number;
}

interface Download {
  env: Env;
  uploadIndex: string;
  /** The invoice as uploaded, or ANAF's error report. */
  document: Uint8Array;
}

export interface SimMessage {
  env: Env;
  id: string;
  data_creare: string;
  createdMs: number;
  cif: string;
  id_solicitare: string;
  detalii: string;
  tip: string;
}

type Fault =
  | { kind: 'status'; status: number; remaining: number; match?: string | RegExp }
  | { kind: 'stall'; ms: number; remaining: number; match?: string | RegExp }
  | { kind: 'drop'; remaining: number; match?: string | RegExp };

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  contentType: string | undefined;
  at: number;
}

const NS_UPLOAD = 'mfp:anaf:dgti:spv:respUploadFisier:v1';
const NS_STATE = 'mfp:anaf:dgti:efactura:stareMesajFactura:v1';
const NS_ERRORS = 'mfp:anaf:dgti:efactura:mesajEroriFactuta:v1';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAX_BODY = 12 * 1024 * 1024;
const DAY_MS = 86_400_000;

const FILTER_TYPES: Record<string, (tip: string) => boolean> = {
  E: (t) => t === 'ERORI FACTURA',
  T: (t) => t === 'FACTURA TRIMISA',
  P: (t) => t === 'FACTURA PRIMITA',
  R: (t) => t.startsWith('MESAJ CUMPARATOR'),
};

function dmyHms(ms: number): string {
  const p = romaniaParts(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(p.day)}-${two(p.month)}-${p.year} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** Everything the tests can look at and steer. */
export class AnafSimulatorState {
  readonly options: Required<Omit<AnafSimulatorOptions, 'spvCifs'>>;
  readonly spvCifs: Set<string>;
  readonly requests: LoggedRequest[] = [];
  readonly uploads = new Map<string, Upload>();
  readonly downloads = new Map<string, Download>();
  /** Calls today per `status:<id>` / `download:<id>` (the simulator lives less than a day). */
  readonly quotaUsed = new Map<string, number>();
  /** Counts a call; true when it is over the day's limit. */
  overQuota(kind: 'status' | 'download', id: string): boolean {
    const key = `${kind}:${id}`;
    const n = (this.quotaUsed.get(key) ?? 0) + 1;
    this.quotaUsed.set(key, n);
    return n > (kind === 'status' ? this.options.statusChecksPerDay : this.options.downloadsPerDay);
  }
  readonly messages: SimMessage[] = [];
  readonly companies = new Map<number, CompanyFixture>();
  readonly balanceSheets = new Map<string, BilantFixture>();
  /** grant_type of every successful token request, in order. */
  readonly tokenGrants: string[] = [];
  readonly faults: Fault[] = [];

  private offsetMs = 0;
  private nextIndex = 5_001_120_000;
  private nextDownload = 3_001_470_000;
  private forcedNext: Upload['forced'];
  private readonly codes = new Map<string, { clientId: string; redirectUri: string; expiresAt: number; used: boolean }>();
  private readonly accessTokens = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, { clientId: string; expiresAt: number; used: boolean }>();
  readonly signingKey: { privateKey: KeyObject; publicKey: KeyObject; jwk: { n: string; e: string } };

  constructor(options: AnafSimulatorOptions) {
    this.options = {
      pollsBeforeDone: options.pollsBeforeDone ?? 1,
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 90 * 86_400,
      refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 365 * 86_400,
      pageSize: options.pageSize ?? 500,
      tvaEnvelope: options.tvaEnvelope ?? true,
      downloadsPerDay: options.downloadsPerDay ?? 10,
      statusChecksPerDay: options.statusChecksPerDay ?? 100,
    };
    for (const c of companyFixtures) this.companies.set(c.cui, c);
    for (const b of bilantFixtures) this.balanceSheets.set(`${b.cui}:${b.an}`, b);
    this.spvCifs = new Set(options.spvCifs ?? companyFixtures.map((c) => String(c.cui)));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
    this.signingKey = { privateKey, publicKey, jwk };
  }

  // ---- clock ------------------------------------------------------------------------------

  /** Simulator time, milliseconds. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the simulator's clock (token expiry, message ages) without sleeping. */
  advanceTime(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  // ---- fault injection ----------------------------------------------------------------------

  /** The next `count` matching requests answer `status` (500: Spring's JSON error; 502-504: a gateway page). */
  failNext(count: number, status = 500, match?: string | RegExp): void {
    this.faults.push({ kind: 'status', status, remaining: count, match });
  }

  /** The next `count` matching requests wait `ms` before being handled. */
  stallNext(ms: number, count = 1, match?: string | RegExp): void {
    this.faults.push({ kind: 'stall', ms, remaining: count, match });
  }

  /** The next `count` matching requests get their connection destroyed without an answer. */
  dropNext(count = 1, match?: string | RegExp): void {
    this.faults.push({ kind: 'drop', remaining: count, match });
  }

  takeFault(path: string): Fault | undefined {
    const f = this.faults.find(
      (x) => x.remaining > 0 && (x.match === undefined || (typeof x.match === 'string' ? path.includes(x.match) : x.match.test(path))),
    );
    if (f) f.remaining--;
    return f;
  }

  /** The next accepted upload ends as "XML cu erori nepreluat de sistem". */
  forceNextUploadState(state: 'XML cu erori nepreluat de sistem'): void {
    this.forcedNext = state;
  }

  requestsTo(pathPart: string): LoggedRequest[] {
    return this.requests.filter((r) => r.path.includes(pathPart));
  }

  // ---- OAuth --------------------------------------------------------------------------------

  issueCode(clientId: string, redirectUri: string): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { clientId, redirectUri, expiresAt: this.now() + 60_000, used: false });
    return code;
  }

  redeemCode(code: string, clientId: string, redirectUri: string | undefined): 'ok' | string {
    const c = this.codes.get(code);
    if (!c || c.used) return 'Invalid authorization code';
    if (c.expiresAt < this.now()) return 'Authorization code expired';
    if (c.clientId !== clientId) return 'Authorization code was issued to another client';
    if (redirectUri !== c.redirectUri) return 'redirect_uri does not match the authorization request';
    c.used = true;
    return 'ok';
  }

  redeemRefresh(token: string, clientId: string): 'ok' | string {
    const r = this.refreshTokens.get(token);
    if (!r || r.used) return 'Invalid refresh token';
    if (r.expiresAt < this.now()) return 'Refresh token expired';
    if (r.clientId !== clientId) return 'Refresh token was issued to another client';
    r.used = true;
    return 'ok';
  }

  private jwt(claims: Record<string, unknown>): string {
    const header = Buffer.from(JSON.stringify({ alg: 'RS512', typ: 'JWT', kid: 'anaf_sim' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const sig = sign('sha512', Buffer.from(`${header}.${payload}`), this.signingKey.privateKey).toString('base64url');
    return `${header}.${payload}.${sig}`;
  }

  issueTokens(clientId: string, grant: string) {
    const now = this.now();
    const iat = Math.floor(now / 1000);
    const common = { iss: 'https://logincert.anaf.ro', sub: clientId, clientappid: clientId, iat, nbf: iat, scope: 'clientappid info issuer role serial' };
    const access = this.jwt({ ...common, token_type: 'Bearer', exp: iat + this.options.accessTokenTtlSeconds, role: 'EFACTURA,ETRANSPORT', jti: randomUUID() });
    const refresh = this.jwt({ ...common, token_type: 'Refresh', exp: iat + this.options.refreshTokenTtlSeconds, jti: randomUUID() });
    this.accessTokens.set(access, { clientId, expiresAt: now + this.options.accessTokenTtlSeconds * 1000 });
    this.refreshTokens.set(refresh, { clientId, expiresAt: now + this.options.refreshTokenTtlSeconds * 1000, used: false });
    this.tokenGrants.push(grant);
    return { access_token: access, token_type: 'Bearer', refresh_token: refresh, expires_in: this.options.accessTokenTtlSeconds };
  }

  accessTokenValid(token: string): boolean {
    const t = this.accessTokens.get(token);
    return t !== undefined && t.expiresAt > this.now();
  }

  /** Makes every access token issued so far expire now, on the server side only (clients still think they are good). */
  expireAccessTokens(): void {
    for (const t of this.accessTokens.values()) t.expiresAt = Math.min(t.expiresAt, this.now() - 1);
  }

  /** Makes every refresh token issued so far expire (the yearly re-consent). */
  expireRefreshTokens(): void {
    for (const t of this.refreshTokens.values()) t.expiresAt = Math.min(t.expiresAt, this.now() - 1);
  }

  // ---- e-Factura ----------------------------------------------------------------------------

  newUploadIndex(): string {
    return String(this.nextIndex++);
  }

  newDownloadId(): string {
    return String(this.nextDownload++);
  }

  takeForcedState(): Upload['forced'] {
    const f = this.forcedNext;
    this.forcedNext = undefined;
    return f;
  }

  addMessage(m: Omit<SimMessage, 'data_creare' | 'createdMs'> & { createdMs?: number }): SimMessage {
    const createdMs = m.createdMs ?? this.now();
    const msg: SimMessage = { ...m, createdMs, data_creare: toAnafStamp(createdMs) };
    this.messages.push(msg);
    return msg;
  }

  /** A supplier's invoice that arrived in `buyerCif`'s SPV: listed as FACTURA PRIMITA, downloadable as a signed ZIP. */
  addReceivedInvoice(input: { buyerCif: string; sellerCif: string; xml: string; env?: Env; createdMs?: number }): { uploadIndex: string; downloadId: string; message: SimMessage } {
    const env = input.env ?? 'test';
    const uploadIndex = this.newUploadIndex();
    const downloadId = this.newDownloadId();
    this.downloads.set(downloadId, { env, uploadIndex, document: new TextEncoder().encode(input.xml) });
    const message = this.addMessage({
      env,
      id: downloadId,
      cif: input.buyerCif,
      id_solicitare: uploadIndex,
      tip: 'FACTURA PRIMITA',
      detalii: `Factura cu id_incarcare=${uploadIndex} emisa de cif_emitent=${input.sellerCif} pentru cif_beneficiar=${input.buyerCif}`,
      createdMs: input.createdMs,
    });
    return { uploadIndex, downloadId, message };
  }

  /** Runs when a poll finds the processing time over: decides ok/nok, files messages and the download. */
  finish(u: Upload): NonNullable<Upload['final']> {
    if (u.final) return u.final;
    if (u.forced) {
      u.final = { stare: u.forced };
      return u.final;
    }
    const downloadId = this.newDownloadId();
    if (u.errors.length === 0) {
      this.downloads.set(downloadId, { env: u.env, uploadIndex: u.index, document: u.xml });
      const seller = u.summary?.sellerCif ?? u.cif;
      const buyer = u.summary?.buyerCif ?? '';
      this.addMessage({
        env: u.env,
        id: downloadId,
        cif: seller,
        id_solicitare: u.index,
        tip: 'FACTURA TRIMISA',
        detalii: `Factura cu id_incarcare=${u.index} emisa de cif_emitent=${seller} pentru cif_beneficiar=${buyer}`,
      });
      if (buyer && buyer !== seller && this.spvCifs.has(buyer)) {
        const received = this.newDownloadId();
        this.downloads.set(received, { env: u.env, uploadIndex: u.index, document: u.xml });
        this.addMessage({
          env: u.env,
          id: received,
          cif: buyer,
          id_solicitare: u.index,
          tip: 'FACTURA PRIMITA',
          detalii: `Factura cu id_incarcare=${u.index} emisa de cif_emitent=${seller} pentru cif_beneficiar=${buyer}`,
        });
      }
      u.final = { stare: 'ok', downloadId };
    } else {
      const report =
        XML_DECL +
        `<header xmlns="${NS_ERRORS}" Index_incarcare="${u.index}" Cif_emitent="${xmlAttr(u.summary?.sellerCif ?? u.cif)}">` +
        u.errors.map((e) => `<Error errorMessage="${xmlAttr(e)}"/>`).join('') +
        '</header>';
      this.downloads.set(downloadId, { env: u.env, uploadIndex: u.index, document: new TextEncoder().encode(report) });
      this.addMessage({
        env: u.env,
        id: downloadId,
        cif: u.cif,
        id_solicitare: u.index,
        tip: 'ERORI FACTURA',
        detalii: `Erori de validare identificate la factura primita cu id_incarcare=${u.index}`,
      });
      u.final = { stare: 'nok', downloadId };
    }
    return u.final;
  }

  answerZip(d: Download): Uint8Array {
    const name = `${d.uploadIndex}.xml`;
    const signature = detachedSignature(name, d.document, this.signingKey.privateKey, this.signingKey.jwk);
    return zipSync({ [name]: d.document, [`semnatura_${d.uploadIndex}.xml`]: new TextEncoder().encode(signature) });
  }

  tvaAnswer(body: Array<{ cui: number; data: string }>) {
    const found = [];
    const notFound = [];
    for (const q of body) {
      const c = this.companies.get(q.cui);
      if (c) found.push(tvaRecord(c, q.data));
      else notFound.push(q.cui);
    }
    return this.options.tvaEnvelope ? { cod: 200, message: 'SUCCESS', found, notFound } : { found, notFound };
  }
}

// ---- HTTP plumbing ----------------------------------------------------------------------------

function readBody(req: IncomingMessage): Promise<Uint8Array | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? 'too-large' : new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  res.writeHead(status, { 'content-type': type, 'content-length': String(buf.length), ...headers });
  res.end(buf);
}

const sendXml = (res: ServerResponse, xml: string) => send(res, 200, 'application/xml', XML_DECL + xml);
const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(res, status, 'application/json', JSON.stringify(body), headers);

function springError(res: ServerResponse, status: number, error: string, message: string, path?: string): void {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  const timestamp = `${two(d.getDate())}-${two(d.getMonth() + 1)}-${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  sendJson(res, status, { timestamp, status, error, message, ...(path ? { path } : {}) });
}

const uploadError = (res: ServerResponse, state: AnafSimulatorState, message: string) =>
  sendXml(res, `<header xmlns="${NS_UPLOAD}" dateResponse="${toAnafStamp(state.now())}" ExecutionStatus="1">\n    <Errors errorMessage="${xmlAttr(message)}"/>\n</header>`);

const stateError = (res: ServerResponse, message: string) => sendXml(res, `<header xmlns="${NS_STATE}">\n    <Errors errorMessage="${xmlAttr(message)}"/>\n</header>`);

const listError = (res: ServerResponse, eroare: string) => sendJson(res, 200, { eroare, titlu: 'Lista Mesaje' });

function unauthorized(res: ServerResponse): void {
  sendJson(res, 401, { timestamp: new Date().toISOString(), status: 401, error: 'Unauthorized', message: 'Token invalid sau expirat' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
}

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
}

function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const h = req.headers.authorization;
  if (!h?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(h.slice(6), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? undefined : { id: decoded.slice(0, i), secret: decoded.slice(i + 1) };
}

// ---- route handlers -----------------------------------------------------------------------------

function handleAuthorize(state: AnafSimulatorState, url: URL, res: ServerResponse): void {
  const q = url.searchParams;
  const clientId = q.get('client_id');
  const redirectUri = q.get('redirect_uri');
  if (q.get('response_type') !== 'code' || clientId !== SIM_OAUTH_CLIENT.clientId || redirectUri !== SIM_OAUTH_CLIENT.redirectUri) {
    send(res, 400, 'text/html', '<html><body><h1>Bad Request</h1><p>client_id / redirect_uri / response_type invalid</p></body></html>');
    return;
  }
  // Stands for the user choosing their qualified certificate and consenting in the browser.
  const target = new URL(redirectUri);
  target.searchParams.set('code', state.issueCode(clientId, redirectUri));
  const st = q.get('state');
  if (st !== null) target.searchParams.set('state', st);
  res.writeHead(302, { location: target.toString(), 'content-length': '0' });
  res.end();
}

function handleToken(state: AnafSimulatorState, req: IncomingMessage, body: Uint8Array, res: ServerResponse): void {
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const creds = basicCredentials(req) ?? { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
  const oauthError = (error: string, description: string) => sendJson(res, 400, { error, error_description: description });
  if (creds.id !== SIM_OAUTH_CLIENT.clientId || creds.secret !== SIM_OAUTH_CLIENT.clientSecret) {
    oauthError('invalid_client', 'Client authentication failed');
    return;
  }
  const grant = form.get('grant_type');
  if (grant === 'authorization_code') {
    const verdict = state.redeemCode(form.get('code') ?? '', creds.id, form.get('redirect_uri') ?? undefined);
    if (verdict !== 'ok') return oauthError('invalid_grant', verdict);
  } else if (grant === 'refresh_token') {
    const verdict = state.redeemRefresh(form.get('refresh_token') ?? '', creds.id);
    if (verdict !== 'ok') return oauthError('invalid_grant', verdict);
  } else {
    return oauthError('unsupported_grant_type', `grant_type ${grant ?? '(none)'} is not supported`);
  }
  sendJson(res, 200, state.issueTokens(creds.id, grant), { 'cache-control': 'no-store', pragma: 'no-cache' });
}

function handleUpload(state: AnafSimulatorState, env: Env, url: URL, body: Uint8Array | 'too-large', res: ServerResponse): void {
  const q = url.searchParams;
  const standard = q.get('standard');
  const cif = q.get('cif');
  if (!standard || !cif) return springError(res, 400, 'Bad Request', 'Parametrii standard si cif sunt obligatorii');
  if (body !== 'too-large' && body.length === 0) return springError(res, 400, 'Bad Request', 'Trebuie sa aveti atasat in request un fisier de tip xml');
  if (!['UBL', 'CN', 'CII', 'RASP'].includes(standard)) return uploadError(res, state, 'Valorile acceptate pentru parametrul standard sunt UBL, CN, CII sau RASP');
  if (!/^\d+$/.test(cif)) return uploadError(res, state, `CIF introdus= ${cif} nu este un numar`);
  if (state.spvCifs.size === 0) return uploadError(res, state, 'Nu exista niciun CIF pentru care sa aveti drept in SPV');
  if (!state.spvCifs.has(cif)) return uploadError(res, state, `Nu aveti drept in SPV pentru CIF=${cif}`);
  for (const [param, word] of [['extern', 'extern'], ['autofactura', 'autofacturare'], ['executare', 'executare']] as const) {
    const v = q.get(param);
    if (v !== null && v !== 'DA') return uploadError(res, state, `Daca parametrul ${word} trebuie completat, valoarea acceptata este DA`);
  }
  if (body === 'too-large' || body.length > 10 * 1024 * 1024) return uploadError(res, state, 'Marime fisier transmis mai mare de 10 MB.');

  const xml = new TextDecoder().decode(body);
  let summary: UblSummary | undefined;
  let errors: string[] = [];
  if (standard === 'UBL' || standard === 'CN') {
    const check = structuralCheck(xml, standard === 'UBL' ? 'Invoice' : 'CreditNote');
    if (!check.ok) return uploadError(res, state, check.message);
    summary = check.summary;
    errors = businessRules(summary);
  } else {
    // CII and RASP: the simulator only checks they are XML.
    const wf = isWellFormedXml(xml);
    if (wf !== true) {
      return uploadError(res, state, `Fisierul transmis nu este valid. org.xml.sax.SAXParseException; lineNumber: ${wf.line}; columnNumber: ${wf.column}; ${wf.message} `);
    }
  }
  const index = state.newUploadIndex();
  state.uploads.set(index, {
    env,
    index,
    cif,
    standard,
    xml: body,
    summary,
    errors,
    polls: 0,
    forced: state.takeForcedState(),
    final: undefined,
    receivedAt: state.now(),
  });
  sendXml(res, `<header xmlns="${NS_UPLOAD}" dateResponse="${toAnafStamp(state.now())}" ExecutionStatus="0" index_incarcare="${index}"/>`);
}

function handleStatus(state: AnafSimulatorState, env: Env, url: URL, res: ServerResponse): void {
  const id = url.searchParams.get('id_incarcare');
  if (id === null || id === '') return springError(res, 400, 'Bad Request', 'Parametrul id_incarcare este obligatoriu');
  if (!/^\d+$/.test(id)) return stateError(res, `Id_incarcare introdus= ${id} nu este un numar intreg`);
  const u = state.uploads.get(id);
  if (!u || u.env !== env) return stateError(res, `Nu exista factura cu id_incarcare= ${id}`);
  if (!state.spvCifs.has(u.cif)) return stateError(res, `Nu aveti dreptul de inteorgare pentru id_incarcare= ${id}`);
  // Modelled on ANAF's download quota words (the state-check wording is not published; the pattern is the same).
  if (state.overQuota('status', id)) return stateError(res, `S-au facut deja ${state.options.statusChecksPerDay} interogari la mesajul cu id_incarcare=${id} in cursul zilei`);
  u.polls++;
  if (!u.final && u.polls <= state.options.pollsBeforeDone) {
    return sendXml(res, `<header xmlns="${NS_STATE}" stare="in prelucrare"/>`);
  }
  const final = state.finish(u);
  const dl = final.downloadId ? ` id_descarcare="${final.downloadId}"` : '';
  sendXml(res, `<header xmlns="${NS_STATE}" stare="${final.stare}"${dl}/>`);
}

function handleDownload(state: AnafSimulatorState, env: Env, url: URL, res: ServerResponse): void {
  const id = url.searchParams.get('id');
  if (id === null || id === '') return springError(res, 400, 'Bad Request', 'Parametrul id este obligatoriu');
  const fail = (eroare: string) => sendJson(res, 200, { eroare, titlu: 'Descarcare mesaj' });
  if (!/^\d+$/.test(id)) return fail(`Id descarcare introdus= ${id} nu este un numar intreg`);
  const d = state.downloads.get(id);
  if (!d || d.env !== env) return fail(`Pentru id=${id} nu exista inregistrata nici o factura`);
  // ANAF's own words, with HTTP 200, once a message was downloaded its daily number of times.
  if (state.overQuota('download', id)) return fail(`S-au facut deja ${state.options.downloadsPerDay} descarcari la mesajul cu id_descarcare=${id} in cursul zilei`);
  send(res, 200, 'application/zip', state.answerZip(d), { 'content-disposition': `attachment; filename="${id}.zip"` });
}

function checkCifAndFilter(state: AnafSimulatorState, res: ServerResponse, cif: string, filtru: string | null, cifWording: string): boolean {
  if (!/^\d+$/.test(cif)) {
    listError(res, cifWording);
    return false;
  }
  if (state.spvCifs.size === 0) {
    listError(res, 'Nu exista niciun CIF pentru care sa aveti drept in SPV');
    return false;
  }
  if (!state.spvCifs.has(cif)) {
    listError(res, `Nu aveti drept in SPV pentru CIF=${cif}`);
    return false;
  }
  if (filtru !== null && !(filtru in FILTER_TYPES)) {
    listError(res, 'Valorile acceptate pentru parametrul filtru sunt E, T, P sau R');
    return false;
  }
  return true;
}

const toWire = (m: SimMessage) => ({ data_creare: m.data_creare, cif: m.cif, id_solicitare: m.id_solicitare, detalii: m.detalii, tip: m.tip, id: m.id });

function serialAndCui(state: AnafSimulatorState) {
  return { serial: '1234AA456', cui: [...state.spvCifs].join(',') };
}

function handleList(state: AnafSimulatorState, env: Env, url: URL, res: ServerResponse): void {
  const q = url.searchParams;
  const zile = q.get('zile');
  const cif = q.get('cif');
  if (!zile || !cif) return springError(res, 400, 'Bad Request', 'Parametrii zile si cif sunt obligatorii');
  if (!/^\d+$/.test(zile)) return listError(res, `Numarul de zile introdus= ${zile} nu este un numar intreg`);
  const days = Number(zile);
  if (days < 1 || days > 60) return listError(res, 'Numarul de zile trebuie sa fie intre 1 si 60');
  const filtru = q.get('filtru');
  if (!checkCifAndFilter(state, res, cif, filtru, `CIF introdus= ${cif} nu este un numar`)) return;
  const since = state.now() - days * DAY_MS;
  const found = state.messages
    .filter((m) => m.env === env && m.cif === cif && m.createdMs >= since && (filtru === null || FILTER_TYPES[filtru]!(m.tip)))
    .sort((a, b) => b.createdMs - a.createdMs);
  if (found.length === 0) return listError(res, `Nu exista mesaje in ultimele ${days} zile`);
  if (found.length > 500) {
    return listError(res, 'Lista de mesaje este mai mare decat numarul de 500 elemente permise in pagina. Folositi endpoint-ul cu paginatie.');
  }
  sendJson(res, 200, { mesaje: found.map(toWire), ...serialAndCui(state), titlu: `Lista Mesaje disponibile din ultimele ${days} zile` });
}

function handleListPaged(state: AnafSimulatorState, env: Env, url: URL, res: ServerResponse): void {
  const q = url.searchParams;
  const [start, end, cif, pagina] = [q.get('startTime'), q.get('endTime'), q.get('cif'), q.get('pagina')];
  if (!start || !end || !cif || !pagina) return springError(res, 400, 'Bad Request', 'Parametrii startTime, endTime, cif si pagina sunt obligatorii');
  const bad = (name: string, v: string) => listError(res, `${name} = ${v} nu este un numar sau nu are o valoare acceptata de sistem`);
  if (!/^\d+$/.test(start)) return bad('startTime', start);
  if (!/^\d+$/.test(end)) return bad('endTime', end);
  if (!/^\d+$/.test(pagina) || Number(pagina) < 1) return bad('pagina', pagina);
  const filtru = q.get('filtru');
  if (!checkCifAndFilter(state, res, cif, filtru, `CIF introdus= ${cif} nu este un numar sau nu are o valoare acceptata de sistem`)) return;
  const [from, to, page] = [Number(start), Number(end), Number(pagina)];
  const now = state.now();
  if (from < now - 60 * DAY_MS) return listError(res, `startTime = ${dmyHms(from)} nu poate fi mai vechi de 60 de zile fata de momentul requestului`);
  if (to <= from) return listError(res, `endTime = ${dmyHms(to)} nu poate fi <= startTime = ${dmyHms(from)}`);
  // A few seconds of grace: client and server clocks never agree to the millisecond.
  if (to > now + 5_000) return listError(res, `endTime = ${dmyHms(to)} nu poate in viitor fata de momentul requestului`);
  const found = state.messages
    .filter((m) => m.env === env && m.cif === cif && m.createdMs >= from && m.createdMs <= to && (filtru === null || FILTER_TYPES[filtru]!(m.tip)))
    .sort((a, b) => b.createdMs - a.createdMs);
  if (found.length === 0) return listError(res, 'Nu exista mesaje in intervalul selectat');
  const size = state.options.pageSize;
  const totalPages = Math.ceil(found.length / size);
  if (page > totalPages) return listError(res, `Pagina solicitata ${page} este mai mare decat numarul toatal de pagini ${totalPages}`);
  const slice = found.slice((page - 1) * size, page * size);
  sendJson(res, 200, {
    mesaje: slice.map(toWire),
    numar_inregistrari_in_pagina: slice.length,
    numar_total_inregistrari_per_pagina: size,
    numar_total_inregistrari: found.length,
    numar_total_pagini: totalPages,
    index_pagina_curenta: page,
    ...serialAndCui(state),
    titlu: `Lista Mesaje disponibile din intervalul ${dmyHms(from)} - ${dmyHms(to)}`,
  });
}

function handleTransform(rest: string[], body: Uint8Array | 'too-large', res: ServerResponse): void {
  const [standard, novld] = rest;
  if (!standard) return sendJson(res, 404, { timestamp: new Date().toISOString(), status: 404, error: 'Not Found', path: '/FCTEL/rest/transformare/' });
  const nok = (message: string) => sendJson(res, 200, { stare: 'nok', Messages: [{ message }], trace_id: randomUUID() });
  if (standard !== 'FACT1' && standard !== 'FCN') return nok('Valorile acceptate pentru parametrul standard sunt FACT1 si FCN');
  if (body === 'too-large' || body.length > 5 * 1024 * 1024) return nok('Marime fisier transmis mai mare de 5 MB.');
  const check = structuralCheck(new TextDecoder().decode(body), standard === 'FACT1' ? 'Invoice' : 'CreditNote');
  if (!check.ok) return nok(check.message.trim());
  if (novld !== 'DA') {
    const errors = businessRules(check.summary);
    if (errors.length) return sendJson(res, 200, { stare: 'nok', Messages: errors.map((message) => ({ message })), trace_id: randomUUID() });
  }
  const s = check.summary;
  const pdf = minimalPdf([
    `${s.root === 'Invoice' ? 'FACTURA' : 'FACTURA STORNO'} ${s.id}`,
    `Data emiterii: ${s.issueDate}`,
    `Furnizor: ${s.sellerName} (${s.sellerCif ?? '-'})`,
    `Client: ${s.buyerName} (${s.buyerCif ?? '-'})`,
    `Total de plata: ${s.payable} ${s.currency}`,
    novld === 'DA' ? 'Document generat fara validare' : 'Document validat',
  ]);
  send(res, 200, 'application/pdf', pdf, { 'content-disposition': `attachment; filename="${s.id || 'factura'}.pdf"` });
}

function handleTva(state: AnafSimulatorState, body: Uint8Array | 'too-large', res: ServerResponse): void {
  let parsed: unknown;
  try {
    parsed = body === 'too-large' ? undefined : JSON.parse(new TextDecoder().decode(body));
  } catch {
    parsed = undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.every((e) => e && typeof e === 'object' && Number.isInteger((e as { cui?: unknown }).cui) && /^\d{4}-\d{2}-\d{2}$/.test(String((e as { data?: unknown }).data)));
  if (!valid) return sendJson(res, 400, { cod: 400, message: 'Request invalid: se asteapta o lista [{"cui": numar, "data": "AAAA-LL-ZZ"}]' });
  const list = parsed as Array<{ cui: number; data: string }>;
  if (list.length > 100) return sendJson(res, 400, { cod: 400, message: 'Numarul maxim de CUI-uri dintr-un request este 100' });
  sendJson(res, 200, state.tvaAnswer(list));
}

function handleBilant(state: AnafSimulatorState, url: URL, res: ServerResponse): void {
  const an = url.searchParams.get('an');
  const cui = url.searchParams.get('cui');
  if (!an || !cui || !/^\d+$/.test(an) || !/^\d+$/.test(cui)) return springError(res, 400, 'Bad Request', 'Parametrii an si cui sunt obligatorii si numerici');
  const sheet = state.balanceSheets.get(`${Number(cui)}:${Number(an)}`);
  // No statement for that year: same envelope, no indicators.
  sendJson(res, 200, sheet ?? { an: Number(an), cui: Number(cui), deni: '', caen: 0, den_caen: '', i: [] });
}

async function route(state: AnafSimulatorState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const notFound = () => springError(res, 404, 'Not Found', 'No message available', path);
  const needs = (m: string) => {
    if (method === m) return true;
    springError(res, 405, 'Method Not Allowed', `Request method '${method}' not supported`, path);
    return false;
  };

  if (path === '/logincert/anaf-oauth2/v1/authorize') return needs('GET') ? handleAuthorize(state, url, res) : undefined;
  if (path === '/logincert/anaf-oauth2/v1/token') {
    if (!needs('POST')) return;
    const body = await readBody(req);
    return handleToken(state, req, body === 'too-large' ? new Uint8Array() : body, res);
  }

  const api = /^\/api\/(test|prod)\/FCTEL\/rest\/([A-Za-z0-9]+)$/.exec(path);
  if (api) {
    const env = api[1] as Env;
    const op = api[2]!;
    const token = bearer(req);
    if (!token || !state.accessTokenValid(token)) return unauthorized(res);
    switch (op) {
      case 'upload':
      case 'uploadb2c':
        return needs('POST') ? handleUpload(state, env, url, await readBody(req), res) : undefined;
      case 'stareMesaj':
        return needs('GET') ? handleStatus(state, env, url, res) : undefined;
      case 'descarcare':
        return needs('GET') ? handleDownload(state, env, url, res) : undefined;
      case 'listaMesajeFactura':
        return needs('GET') ? handleList(state, env, url, res) : undefined;
      case 'listaMesajePaginatieFactura':
        return needs('GET') ? handleListPaged(state, env, url, res) : undefined;
      default:
        return notFound();
    }
  }

  const transform = /^\/webservicesp\/prod\/FCTEL\/rest\/transformare(?:\/([^/]*))?(?:\/([^/]*))?\/?$/.exec(path);
  if (transform) return needs('POST') ? handleTransform([transform[1] ?? '', transform[2] ?? ''], await readBody(req), res) : undefined;
  if (path === '/webservicesp/api/PlatitorTvaRest/v9/tva') return needs('POST') ? handleTva(state, await readBody(req), res) : undefined;
  if (path === '/webservicesp/bilant') return needs('GET') ? handleBilant(state, url, res) : undefined;
  return notFound();
}

export interface AnafSimulator {
  baseUrls: {
    /** e-Factura on the test environment (api.anaf.ro/test/FCTEL/rest). */
    efacturaTest: string;
    efacturaProd: string;
    /** logincert.anaf.ro/anaf-oauth2/v1 */
    oauth: string;
    /** webservicesp.anaf.ro (PlatitorTvaRest, bilant) */
    publicApi: string;
    /** webservicesp.anaf.ro/prod/FCTEL/rest (transformare) */
    pdf: string;
  };
  state: AnafSimulatorState;
  close(): Promise<void>;
}

export async function startAnafSimulator(options: AnafSimulatorOptions = {}): Promise<AnafSimulator> {
  const state = new AnafSimulatorState(options);
  const sockets = new Set<Socket>();
  const stalls = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let closing = false;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // ANAF's own clock in every answer, as a server's Date header is: advanceTime() moves it too, so a
    // test can put ANAF's clock ahead of ours (the 60-day edge of listaMesajePaginatieFactura).
    res.setHeader('Date', new Date(state.now()).toUTCString());
    state.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      at: state.now(),
    });
    void (async () => {
      const fault = state.takeFault(url.pathname);
      if (fault?.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'stall') {
        await new Promise<void>((resolve) => {
          const entry = { timer: setTimeout(() => {
            stalls.delete(entry);
            resolve();
          }, fault.ms), resolve };
          stalls.add(entry);
        });
        if (closing || res.destroyed || req.socket.destroyed) return;
      }
      if (fault?.kind === 'status') {
        if (fault.status === 500) return springError(res, 500, 'Internal Server Error', 'A aparut o eroare tehnica. Cod: SIM-500', url.pathname);
        return send(res, fault.status, 'text/html', `<html><head><title>${fault.status}</title></head><body>Service Unavailable</body></html>`);
      }
      await route(state, req, res, url);
    })().catch((err: unknown) => {
      if (!res.headersSent) springError(res, 500, 'Internal Server Error', String(err), url.pathname);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrls: {
      efacturaTest: `${origin}/api/test/FCTEL/rest`,
      efacturaProd: `${origin}/api/prod/FCTEL/rest`,
      oauth: `${origin}/logincert/anaf-oauth2/v1`,
      publicApi: `${origin}/webservicesp`,
      pdf: `${origin}/webservicesp/prod/FCTEL/rest`,
    },
    state,
    close: async () => {
      closing = true;
      for (const s of stalls) {
        clearTimeout(s.timer);
        s.resolve();
      }
      stalls.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
