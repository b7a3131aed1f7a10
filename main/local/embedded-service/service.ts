import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStorage } from '../../../server/db/connect';
import type { Db } from '../../../server/db/types';
import { anafServicesFromEnv } from '../../../server/modules/efactura-spv/anaf-services';
import { systemClock } from '../../../server/platform/clock';
import type { AnafServices } from '../../../server/platform/services';
import type { PdfRenderer } from '../../../server/modules/documents-pdf/pdf-renderer';
import { startServer, type RunningServer } from '../../../server/serve';

export const SERVICE_FOLDER = 'service';
export const SERVICE_DATABASE_FILE = 'tejghea-service.sqlite';
export const LOOPBACK = '127.0.0.1';
/** Every interface: what "open to the shop's network" binds to. */
export const ALL_INTERFACES = '0.0.0.0';

/**
 * A local shop's counters talk to their own service far less than the contract's budget for a hosted
 * one fears, but a day's first full sync of a big catalogue must not stall on it.
 */
const EMBEDDED_REQUESTS_PER_HOUR = 20_000;

export interface EmbeddedServiceOptions {
  /** `<dataDir>/service`: the service's own SQLite file lives here, apart from the desktop cache. */
  dir: string;
  /**
   * Where ANAF_* (the same variables `npm run server` reads) and the service's own knobs come from.
   * PORT, HOST, DB_PATH, DATABASE_URL and REDIS_URL are ignored: the embedded service decides those.
   */
  env: NodeJS.ProcessEnv;
  /** better-sqlite3 built for Electron's ABI. */
  nativeBinding?: string;
  /** Electron's printToPDF for the service's PDFs; without it, the service's own (Chromium at CHROMIUM_PATH). */
  pdfRenderer?: PdfRenderer;
}

export interface Listening {
  host: string;
  port: number;
}

/**
 * The Invoicing Service run inside the desktop's main process: the very `server/` code
 * (`startServer`), on a SQLite file in the app's data folder. The desktop syncs to it over HTTP
 * exactly as to a hosted one; only the listening address is decided here.
 */
export class EmbeddedService {
  private server: RunningServer | null = null;
  private listening: Listening | null = null;
  private anaf: AnafServices | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: EmbeddedServiceOptions) {}

  get databasePath(): string {
    return join(this.options.dir, SERVICE_DATABASE_FILE);
  }

  get address(): Listening | null {
    return this.listening;
  }

  /** The base the desktop itself uses (always loopback, whatever the binding). */
  get loopbackBase(): string | null {
    return this.listening ? `http://${LOOPBACK}:${this.listening.port}/v1` : null;
  }

  get running(): boolean {
    return this.server !== null;
  }

  /** The service's database, for the owner's key management (the service hashes what it stores). */
  db(): Db {
    if (!this.server) throw new Error('the embedded service is not running');
    return this.server.storage.db;
  }

  /** ANAF's public registry client, the one the service itself uses (same env, same policy). */
  anafServices(): AnafServices {
    this.anaf ??= anafServicesFromEnv(this.serviceEnv(0, LOOPBACK), systemClock).services;
    return this.anaf;
  }

  /**
   * Listens on `host:port` (port 0: any free one). When the remembered port is taken by another
   * program, a free one is chosen instead: the caller remembers what it got.
   */
  start(wanted: Listening): Promise<Listening> {
    return this.serial(async () => {
      if (this.server) await this.stopNow();
      try {
        return await this.listen(wanted);
      } catch (error) {
        if (wanted.port !== 0 && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') return this.listen({ ...wanted, port: 0 });
        throw error;
      }
    });
  }

  /** Finishes the requests in flight, then closes the database. */
  close(): Promise<void> {
    return this.serial(() => this.stopNow());
  }

  private async listen(wanted: Listening): Promise<Listening> {
    mkdirSync(this.options.dir, { recursive: true });
    const storage = openStorage({
      dialect: 'sqlite',
      path: this.databasePath,
      ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}),
    });
    // startServer migrates; when it cannot listen (port taken) the storage it was lent is ours to close.
    let server: RunningServer;
    try {
      server = await startServer(this.serviceEnv(wanted.port, wanted.host), {
        storage,
        extraServices: { anaf: this.anafServices(), ...(this.options.pdfRenderer ? { pdf: this.options.pdfRenderer } : {}) },
      });
    } catch (error) {
      await storage.close().catch(() => undefined);
      throw error;
    }
    const port = Number(new URL(server.url).port);
    this.server = server;
    this.listening = { host: wanted.host, port };
    return this.listening;
  }

  private async stopNow(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.listening = null;
    await server?.close();
  }

  private serviceEnv(port: number, host: string): NodeJS.ProcessEnv {
    const { DATABASE_URL: _url, DATABASE_SCHEMA: _schema, DB_PATH: _path, REDIS_URL: _redis, ...rest } = this.options.env;
    return {
      ...rest,
      PORT: String(port),
      HOST: host,
      RATE_LIMIT_PER_HOUR: rest.RATE_LIMIT_PER_HOUR ?? String(EMBEDDED_REQUESTS_PER_HOUR),
    };
  }

  /** One start/stop at a time: re-binding to the network must not race the app's close. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
