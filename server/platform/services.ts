import type { Storage } from '../db/connect';
import type { Clock } from './clock';
import type { KeyStore } from './auth';
import type { RateLimits, RateLimitStore } from './rate-limit';
import type { PdfRenderer } from '../modules/documents-pdf/pdf-renderer';
import type { WebhookSettings } from '../modules/webhooks/sender';
import type { AccessTokenSource, AnafOAuthConfig, EfacturaClient, EfacturaEnvironment, PublicDataClient } from '../anaf/index';

/**
 * The ANAF clients (server/anaf), configured once from the environment (serve.ts) or by a test.
 * Absent when the service runs without ANAF: the e-Factura routes then answer anaf_not_configured.
 */
export interface AnafServices {
  /** The registered OAuth client; null when ANAF_CLIENT_ID/SECRET/REDIRECT_URI are not all set. */
  oauth: AnafOAuthConfig | null;
  /** An e-Factura client of one company, on the test or production environment. */
  efactura(environment: EfacturaEnvironment, companyId: string, tokens: AccessTokenSource): EfacturaClient;
  /** Public registry and balance-sheet services (no token). */
  publicData: PublicDataClient;
  /** 32-byte key that encrypts stored ANAF tokens (AES-256-GCM); null stores them in clear. */
  tokenKey: Buffer | null;
}

/**
 * What the routes of every module can reach. A module that needs an outside service (ANAF, say)
 * adds an optional member here and reads it through `ctx.services`.
 */
export interface Services {
  storage: Storage;
  clock: Clock;
  rateLimitStore: RateLimitStore;
  rateLimits: RateLimits;
  /** API keys by hash, briefly cached (see KeyStore). */
  keys: KeyStore;
  /** Checks every response against its schema: the OpenAPI document must never lie. */
  validateResponses: boolean;
  /** Base of `doc_url` in errors. */
  docBase: string;
  anaf?: AnafServices;
  /**
   * Prints HTML to PDF (GET /invoices/{id}/pdf, e-mailed invoices): headless Chromium by default,
   * Electron's printToPDF when the desktop embeds the service; null when PDFs are turned off (501).
   */
  pdf?: PdfRenderer | null;
  /** How webhooks are posted (timeout, private addresses); defaults when absent. */
  webhooks?: WebhookSettings;
}
