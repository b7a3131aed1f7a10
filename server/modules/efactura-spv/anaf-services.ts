import { z } from 'zod';
import { EfacturaClient, PublicDataClient, type EfacturaEnvironment, type HttpPolicy } from '../../anaf/index';
import type { Clock } from '../../platform/clock';
import { DailyQuotaLedger } from '../../anaf/daily-quota';
import type { AnafServices } from '../../platform/services';

export interface AnafServicesOptions {
  oauth?: { clientId: string; clientSecret: string; redirectUri: string; baseUrl?: string } | null;
  efacturaBaseUrls?: Partial<Record<EfacturaEnvironment, string>>;
  /** Base of the public `transformare` (XML to PDF) service. */
  pdfBaseUrl?: string;
  /** Base of webservicesp.anaf.ro (PlatitorTvaRest, bilant). */
  publicBaseUrl?: string;
  http?: Partial<HttpPolicy>;
  /** ANAF asks public-service clients for one request a second; tests pass 0. */
  publicMinIntervalMs?: number;
  tokenKey?: Buffer | null;
  clock: Clock;
}

/** The ANAF clients the e-Factura module uses, from explicit options (tests, serve.ts). */
export function createAnafServices(options: AnafServicesOptions): AnafServices {
  const oauth = options.oauth
    ? {
        clientId: options.oauth.clientId,
        clientSecret: options.oauth.clientSecret,
        redirectUri: options.oauth.redirectUri,
        ...(options.oauth.baseUrl ? { baseUrl: options.oauth.baseUrl } : {}),
        ...(options.http ? { http: options.http } : {}),
        clock: options.clock,
      }
    : null;
  // ANAF counts per message whichever request asks: one ledger for every client these services make.
  const quota = new DailyQuotaLedger(() => new Date(options.clock.now() * 1000));
  return {
    oauth,
    efactura: (environment, companyId, tokens) =>
      new EfacturaClient({
        environment,
        companyId,
        tokens,
        ...(options.efacturaBaseUrls ? { baseUrls: options.efacturaBaseUrls } : {}),
        ...(options.pdfBaseUrl ? { publicBaseUrl: options.pdfBaseUrl } : {}),
        ...(options.http ? { http: options.http } : {}),
        quota,
      }),
    publicData: new PublicDataClient({
      ...(options.publicBaseUrl ? { baseUrl: options.publicBaseUrl } : {}),
      ...(options.http ? { http: options.http } : {}),
      ...(options.publicMinIntervalMs !== undefined ? { minIntervalMs: options.publicMinIntervalMs } : {}),
      clock: options.clock,
    }),
    tokenKey: options.tokenKey ?? null,
  };
}

const optionalUrl = z.url().optional();

const envSchema = z.object({
  ANAF_CLIENT_ID: z.string().min(1).optional(),
  ANAF_CLIENT_SECRET: z.string().min(1).optional(),
  /** Must equal, byte for byte, a callback URL registered on the ANAF OAuth profile. */
  ANAF_REDIRECT_URI: optionalUrl,
  ANAF_OAUTH_BASE_URL: optionalUrl,
  ANAF_EFACTURA_TEST_URL: optionalUrl,
  ANAF_EFACTURA_PROD_URL: optionalUrl,
  ANAF_PDF_URL: optionalUrl,
  ANAF_PUBLIC_URL: optionalUrl,
  /** 32 bytes as 64 hex digits or base64: encrypts the stored tokens. */
  ANAF_TOKEN_KEY: z.string().optional(),
  ANAF_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).optional(),
  /** Seconds between two runs of the e-Factura submission poller; 0 turns it off. */
  ANAF_POLL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
});

/** A 32-byte key from hex or base64 text; throws on anything else, so a typo never means "no encryption". */
export function parseTokenKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('ANAF_TOKEN_KEY must be 32 bytes, written as 64 hex digits or base64');
  return key;
}

export interface AnafEnvConfig {
  services: AnafServices;
  pollSeconds: number;
  /** Things an operator should know at start (tokens in clear, OAuth not configured). */
  warnings: string[];
}

/** serve.ts: the ANAF clients from ANAF_* variables. OAuth needs all three of id, secret and redirect URI. */
export function anafServicesFromEnv(env: NodeJS.ProcessEnv, clock: Clock): AnafEnvConfig {
  const c = envSchema.parse(env);
  const warnings: string[] = [];
  const oauthParts = [c.ANAF_CLIENT_ID, c.ANAF_CLIENT_SECRET, c.ANAF_REDIRECT_URI];
  const oauthComplete = oauthParts.every((p) => p !== undefined);
  if (!oauthComplete && oauthParts.some((p) => p !== undefined)) {
    throw new Error('ANAF OAuth needs all of ANAF_CLIENT_ID, ANAF_CLIENT_SECRET and ANAF_REDIRECT_URI');
  }
  if (!oauthComplete) warnings.push('ANAF OAuth is not configured: e-Factura submission and the SPV inbox are off.');
  const tokenKey = c.ANAF_TOKEN_KEY ? parseTokenKey(c.ANAF_TOKEN_KEY) : null;
  if (oauthComplete && !tokenKey) warnings.push('ANAF_TOKEN_KEY is not set: ANAF tokens are stored in clear in the database.');
  const efacturaBaseUrls: Partial<Record<EfacturaEnvironment, string>> = {
    ...(c.ANAF_EFACTURA_TEST_URL ? { test: c.ANAF_EFACTURA_TEST_URL } : {}),
    ...(c.ANAF_EFACTURA_PROD_URL ? { prod: c.ANAF_EFACTURA_PROD_URL } : {}),
  };
  const services = createAnafServices({
    oauth: oauthComplete
      ? {
          clientId: c.ANAF_CLIENT_ID!,
          clientSecret: c.ANAF_CLIENT_SECRET!,
          redirectUri: c.ANAF_REDIRECT_URI!,
          ...(c.ANAF_OAUTH_BASE_URL ? { baseUrl: c.ANAF_OAUTH_BASE_URL } : {}),
        }
      : null,
    efacturaBaseUrls,
    ...(c.ANAF_PDF_URL ? { pdfBaseUrl: c.ANAF_PDF_URL } : {}),
    ...(c.ANAF_PUBLIC_URL ? { publicBaseUrl: c.ANAF_PUBLIC_URL } : {}),
    ...(c.ANAF_TIMEOUT_MS ? { http: { timeoutMs: c.ANAF_TIMEOUT_MS } } : {}),
    tokenKey,
    clock,
  });
  return { services, pollSeconds: c.ANAF_POLL_SECONDS, warnings };
}
