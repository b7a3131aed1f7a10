import type { Domain, EventPayload, IpcError, SyncStatus } from '../../shared/ipc/contract';
import type { EventName } from '../../shared/ipc/channels';
import type { ApiClient } from '../api/client';
import type { PulledResource } from '../api/endpoints';
import { ApiClientError, ApiHttpError, ApiNetworkError, ApiNotConfiguredError } from '../api/errors';
import {
  checkExpenseDuplicate, downloadSupplierBillPdf, getCompanyProfile, getCurrencies, getMe, getOne, listGaps, listVatRates, listWorkPoints,
  lookupCompany, sendToSpv, updateCompanyProfile, zClient, zInvoice, zProduct, zReceipt,
} from '../api/endpoints';
import type { DuplicateCheckInput } from '../../shared/schemas/duplicate-candidate';
import type { CompanyProfileUpdate } from '../../shared/schemas/efactura';
import { getSetting, setSetting } from '../db/queries/settings';
import {
  cachedWorkPoints, rememberWorkPoints, selectedWorkPointId, selectWorkPoint, unsyncedWorkPointItems, type WorkPointEntry,
} from '../local/work-point';
import { z } from 'zod';
import { sql } from '../db/sql';
import type { Store } from '../db/store';
import { AppError, invalidState, notFound } from '../errors';
import type { LocalContext } from '../local/context';
import { rememberCompanyProfile, rememberIdentity } from '../local/settings';
import { percentToBp } from '../../shared/invoice-math';
import { applyClient, applyInvoice, applyProduct, applyReceipt, serverIdOf } from './apply';
import { refillAll, refillPool, refreshSeries, setNumberingMode, type NumberingDeps } from './numbering';
import { ensureNumberSource } from './number-source';
import { counts, nextDueAt, nextReady, pruneDone, recoverInFlight } from './outbox';
import { DELETION_RESOURCES, pullDeletions } from './deletions';
import { PULL_ORDER, pullResource } from './pull';
import { pullStock } from '../local/stock/levels';
import { pushItem, toStoredError } from './push';

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface EngineOptions {
  ctx: LocalContext;
  api: ApiClient;
  emit?: EventSink;
  /** Full passes (with pull) this often; pushes start at once after every local change regardless. */
  syncIntervalSeconds?: () => number;
  /** Start timers (background sync on reconnect and on a timer). Off in tests that drive passes. */
  timers?: boolean;
  /** Pages per resource per pass: a huge first pull spreads over several passes. */
  pullPagesPerPass?: number;
  reservationTtlSeconds?: number;
  random?: () => number;
  /** Real-time delays of the timers (ms); tests shorten them. */
  probeDelayMs?: { min: number; max: number };
}

/**
 * `push`: send the outbox (after a local change). `timer`: the periodic pass, push and pull (series and
 * the seller profile only when older than half an hour). `full`: everything, now (the user's "sync
 * now", a reconnection, the start).
 */
export type PassKind = 'push' | 'timer' | 'full';
const RANK: Record<PassKind, number> = { push: 0, timer: 1, full: 2 };
const SLOW_REFRESH_SECONDS = 1800;

export interface PassResult {
  pushed: number;
  failed: number;
  pulled: number;
  reachedServer: boolean;
}

const ENTITY_DOMAIN: Record<string, Domain> = {
  invoice: 'invoices', client: 'clients', product: 'products', receipt: 'receipts', reservation: 'series', expense: 'purchases', supplier: 'purchases',
};
const RESOURCE_DOMAIN: Record<string, Domain> = {
  clients: 'clients', products: 'products', invoices: 'invoices', receipts: 'receipts', payments: 'invoices', expenses: 'purchases',
  supplier_bills: 'purchases', suppliers: 'purchases', stock_levels: 'products',
};
const NO_PASS: PassResult = { pushed: 0, failed: 0, pulled: 0, reachedServer: false };

/**
 * The sync engine: device-side half of the protocol. A pass probes the server (GET /me), sends the
 * outbox in dependency order, tops up number pools, then pulls what changed. Passes never overlap;
 * a request for a pass during one runs one more pass after it.
 */
export class SyncEngine {
  private readonly store: Store;
  private readonly ctx: LocalContext;
  readonly api: ApiClient;
  private readonly emitEvent: EventSink;
  private mode: SyncStatus['mode'] = 'offline';
  private paused = false;
  private running: Promise<PassResult> | null = null;
  private again: PassKind | null = null;
  private lastSeriesAt = 0;
  private lastAttemptAt: number | null = null;
  private lastSuccessAt: number | null = null;
  private lastFullAt = 0;
  private lastCatalogAt = 0;
  private lastError: IpcError | null = null;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private probeDelay: number;
  private stopped = false;

  constructor(private readonly options: EngineOptions) {
    this.ctx = options.ctx;
    this.store = options.ctx.store;
    this.api = options.api;
    this.emitEvent = options.emit ?? (() => undefined);
    this.probeDelay = options.probeDelayMs?.min ?? 2000;
  }

  private get numbering(): NumberingDeps {
    return {
      store: this.store, api: this.api, clock: this.ctx.clock, device: this.ctx.device, ctx: this.ctx,
      ...(this.options.reservationTtlSeconds ? { reservationTtlSeconds: this.options.reservationTtlSeconds } : {}),
    };
  }

  /** After a crash or a kill: whatever was in flight is pending again (idempotency makes the resend safe). */
  start(): number {
    this.stopped = false;
    const recovered = this.store.write((db) => recoverInFlight(db, this.ctx.clock.now()));
    if (recovered) this.emitOutbox();
    if (this.options.timers) this.schedule(0, 'full');
    return recovered;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.running?.catch(() => undefined);
  }

  status(): SyncStatus {
    return {
      mode: this.paused ? 'paused' : this.mode,
      syncing: this.running !== null,
      last_attempt_at: this.lastAttemptAt,
      last_success_at: this.lastSuccessAt,
      last_error: this.lastError,
      outbox: counts(this.store.reader),
    };
  }

  pause(): SyncStatus {
    this.paused = true;
    this.emitStatus();
    return this.status();
  }

  resume(): SyncStatus {
    this.paused = false;
    this.emitStatus();
    this.nudge('full');
    return this.status();
  }

  /** A local change was written: push it soon (coalesced with other changes of the same moment). */
  nudge(kind: PassKind = 'push'): void {
    this.emitOutbox();
    if (!this.options.timers || this.paused || this.stopped) return;
    this.schedule(50, kind);
  }

  /** A full pass now; resolves when it (and any pass it waited for) ends. */
  async syncNow(): Promise<SyncStatus> {
    await this.runPass('full');
    return this.status();
  }

  /** Runs a pass, or waits for the running one and runs one more after it. */
  runPass(kind: PassKind = 'full'): Promise<PassResult> {
    if (this.running) {
      this.again = this.again !== null && RANK[this.again] >= RANK[kind] ? this.again : kind;
      // The pass that runs `again` has started when the current one settled: wait for that one.
      return this.running.then(() => this.running ?? this.runPass(kind));
    }
    const pass = this.pass(kind).finally(() => {
      this.running = null;
      this.emitStatus();
      const next = this.again;
      this.again = null;
      if (next && !this.stopped) void this.runPass(next);
      else this.scheduleFollowUp();
    });
    this.running = pass;
    this.emitStatus();
    return pass;
  }

  private schedule(delayMs: number, kind: PassKind): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.runPass(kind).catch(() => undefined);
    }, delayMs);
    timer.unref?.();
    this.timers.add(timer);
  }

  private scheduleFollowUp(): void {
    if (!this.options.timers || this.stopped || this.paused) return;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.mode === 'offline') {
      // Probe with backoff until the server answers; the first answer triggers a full pass.
      this.schedule(this.probeDelay, 'full');
      this.probeDelay = Math.min(this.probeDelay * 2, this.options.probeDelayMs?.max ?? 60_000);
      return;
    }
    this.probeDelay = this.options.probeDelayMs?.min ?? 2000;
    if (this.mode !== 'online') return;
    const now = this.ctx.clock.now();
    const interval = this.options.syncIntervalSeconds?.() ?? 300;
    let delay = Math.max(1, this.lastFullAt + interval - now) * 1000;
    const due = nextDueAt(this.store.reader);
    if (due !== null) delay = Math.min(delay, Math.max(0, due - now) * 1000 + 10);
    this.schedule(delay, due !== null && due - now < interval ? 'push' : 'timer');
  }

  private async pass(kind: PassKind): Promise<PassResult> {
    const result: PassResult = { pushed: 0, failed: 0, pulled: 0, reachedServer: false };
    if (this.paused) return result;
    this.lastAttemptAt = this.ctx.clock.now();
    try {
      const me = await getMe(this.api);
      result.reachedServer = true;
      this.setMode('online');
      if (rememberIdentity(this.ctx, me)) this.emitChanged(['settings']);
      const full = kind !== 'push' || this.lastFullAt === 0;
      const slow = kind === 'full' || this.ctx.clock.now() - this.lastSeriesAt > SLOW_REFRESH_SECONDS;
      if (slow || !this.store.reader.get(sql`SELECT 1 AS ok FROM series LIMIT 1`)) {
        await refreshSeries(this.numbering);
        this.lastSeriesAt = this.ctx.clock.now();
        this.emitChanged(['series']);
      }
      const pushed = await this.pushAll();
      result.pushed = pushed.done;
      result.failed = pushed.failed;
      if (pushed.stop) return result;
      const refill = await refillAll(this.numbering);
      if (refill.added) this.emitChanged(['series']);
      if (full) {
        if (slow) await this.pullCompanyProfile();
        result.pulled = await this.pullAll();
        await this.refreshQueued();
        if (this.ctx.clock.now() - this.lastCatalogAt > 86_400) {
          await this.pullCatalog();
          // Done items are history only: a month of it is kept for the user, the rest goes.
          this.store.write((db) => pruneDone(db, this.ctx.clock.now() - 30 * 86_400));
        }
        this.lastFullAt = this.ctx.clock.now();
        // A pull may have grown a table tenfold: the planner's statistics follow (bounded, a few ms).
        this.store.optimize();
      }
      this.lastSuccessAt = this.ctx.clock.now();
      this.lastError = refill.errors[0]?.toIpc() ?? null;
      return result;
    } catch (error) {
      this.onPassError(error);
      return result;
    }
  }

  private onPassError(error: unknown): void {
    if (error instanceof ApiNetworkError) this.setMode('offline');
    else if (error instanceof ApiNotConfiguredError) this.setMode('unconfigured');
    else if (error instanceof ApiHttpError && error.status === 401) this.setMode('auth_error');
    else if (!(error instanceof ApiClientError)) console.error('[sync] pass failed', error);
    const stored = toStoredError(error);
    const { status: _status, ...ipc } = stored;
    this.lastError = ipc;
  }

  private async pushAll(): Promise<{ done: number; failed: number; stop: boolean }> {
    let done = 0;
    let failed = 0;
    const deps = {
      store: this.store, api: this.api, clock: this.ctx.clock, device: this.ctx.device,
      ...(this.options.random ? { random: this.options.random } : {}),
    };
    const total = counts(this.store.reader).pending;
    for (;;) {
      if (this.paused || this.stopped) return { done, failed, stop: true };
      const item = nextReady(this.store.reader, this.ctx.clock.now());
      if (!item) return { done, failed, stop: false };
      const outcome = await pushItem(deps, item);
      if (outcome.kind === 'done') done += 1;
      if (outcome.kind === 'failed') failed += 1;
      this.emitChanged([ENTITY_DOMAIN[item.entity_type] ?? 'outbox', 'outbox']);
      this.emitOutbox();
      this.emitEvent('sync.progress', { phase: 'push', resource: null, done: done + failed, total: Math.max(total, done + failed) });
      if (outcome.kind === 'offline') {
        this.setMode('offline');
        return { done, failed, stop: true };
      }
      if (outcome.kind === 'auth') {
        this.setMode('auth_error');
        return { done, failed, stop: true };
      }
    }
  }

  private async pullAll(): Promise<number> {
    let applied = 0;
    const deps = {
      store: this.store, api: this.api, clock: this.ctx.clock,
      onPage: (resource: string, n: number) => {
        applied += n;
        this.emitEvent('sync.progress', { phase: 'pull', resource, done: applied, total: null });
        if (n) this.emitChanged([RESOURCE_DOMAIN[resource] ?? 'outbox']);
      },
    };
    for (const resource of PULL_ORDER) {
      const pages = this.options.pullPagesPerPass ?? 20;
      // Stock reconciles this device's sales as it walks (main/local/stock/levels.ts).
      const result = resource === 'stock_levels' ? await pullStock(deps, pages) : await pullResource(deps, resource, pages);
      if (result.more) this.again = this.again ?? 'timer';
      // After the resource's own walk: a copy read before its deletion is removed in the same pass.
      const tombstoned = DELETION_RESOURCES.find((r) => r === resource);
      if (tombstoned) {
        const gone = await pullDeletions(deps, tombstoned, this.options.pullPagesPerPass ?? 20);
        if (gone.more) this.again = this.again ?? 'timer';
      }
    }
    return applied;
  }

  /** Records whose local edit was discarded get the server's copy back. */
  private async refreshQueued(): Promise<void> {
    const queued = this.store.reader.all<{ entity_type: string; entity_id: string }>(sql`SELECT * FROM refresh_queue`);
    for (const q of queued) {
      const type = q.entity_type as 'client' | 'product' | 'invoice' | 'receipt';
      const serverId = serverIdOf(this.store.reader, type, q.entity_id);
      const now = this.ctx.clock.now();
      try {
        if (serverId) {
          const path = `/${type === 'client' ? 'clients' : type === 'product' ? 'products' : type === 'invoice' ? 'invoices' : 'receipts'}/${encodeURIComponent(serverId)}`;
          if (type === 'client') { const r = await getOne(this.api, path, zClient); this.store.write((db) => applyClient(db, r, now)); }
          if (type === 'product') { const r = await getOne(this.api, path, zProduct); this.store.write((db) => applyProduct(db, r, now)); }
          if (type === 'invoice') { const r = await getOne(this.api, `${path}?expand[]=lines`, zInvoice); this.store.write((db) => applyInvoice(db, r, now)); }
          if (type === 'receipt') { const r = await getOne(this.api, path, zReceipt); this.store.write((db) => applyReceipt(db, r, now)); }
        }
      } catch (error) {
        if (!(error instanceof ApiHttpError && error.status === 404)) throw error;
        // Gone from the server: the local copy goes too (kept as deleted, for the record).
        this.store.write((db) => {
          if (type === 'invoice') db.run(sql`UPDATE invoices SET is_deleted = 1 WHERE id = ${q.entity_id}`);
          if (type === 'client') db.run(sql`UPDATE clients SET is_deleted = 1 WHERE id = ${q.entity_id}`);
          if (type === 'product') db.run(sql`UPDATE products SET is_deleted = 1 WHERE id = ${q.entity_id}`);
          if (type === 'receipt') db.run(sql`UPDATE receipts SET is_deleted = 1 WHERE id = ${q.entity_id}`);
        });
      }
      this.store.write((db) => db.run(sql`DELETE FROM refresh_queue WHERE entity_type = ${q.entity_type} AND entity_id = ${q.entity_id}`));
      this.emitChanged([ENTITY_DOMAIN[type] ?? 'outbox']);
    }
  }

  /** The seller block printed on documents; a key without the scope simply keeps the last copy. */
  private async pullCompanyProfile(): Promise<void> {
    try {
      const profile = await getCompanyProfile(this.api);
      if (rememberCompanyProfile(this.ctx, profile)) this.emitChanged(['settings']);
    } catch (error) {
      if (!(error instanceof ApiHttpError && (error.status === 403 || error.status === 404))) throw error;
    }
  }

  private async pullCatalog(): Promise<void> {
    const [currencies, rates] = await Promise.all([getCurrencies(this.api), listVatRates(this.api)]);
    this.store.write((db) => {
      db.run(sql`DELETE FROM currencies`);
      for (const c of currencies.data) {
        db.run(sql`INSERT INTO currencies (code, server_id, description, is_default, is_used) VALUES (${c.code}, ${c.id}, ${c.description}, ${c.is_default}, ${c.is_used})`);
      }
      db.run(sql`DELETE FROM vat_rates`);
      for (const r of rates.data) {
        db.run(sql`INSERT INTO vat_rates (id, rate_bp, name, is_custom) VALUES (${r.id}, ${percentToBp(r.rate)}, ${r.name}, ${!r.is_standard})`);
      }
    });
    this.lastCatalogAt = this.ctx.clock.now();
    this.emitChanged(['catalog']);
  }

  // -------------------------------------------------------------------------------------------
  // Online actions asked by the user (series setup, gap register)

  private async online<T>(fn: () => Promise<T>): Promise<T> {
    try {
      const value = await fn();
      this.setMode('online');
      return value;
    } catch (error) {
      throw toAppError(error, (mode) => this.setMode(mode));
    }
  }

  async setSeriesMode(seriesId: string, mode: 'shared' | 'exclusive' | null, pool: { pool_target?: number | undefined; low_water?: number | undefined }): Promise<void> {
    await this.online(() => setNumberingMode(this.numbering, seriesId, mode, pool));
    this.emitChanged(['series']);
    this.nudge();
  }

  /** A user's online action (series administration, setup): failures become AppErrors, the sync mode follows. */
  async withService<T>(fn: (deps: NumberingDeps) => Promise<T>, changed: Domain[] = []): Promise<T> {
    const value = await this.online(() => fn(this.numbering));
    if (changed.length) this.emitChanged(changed);
    return value;
  }

  /** Before issuing online: a series this device never set up gets reserved numbers now (see number-source.ts). */
  async ensureNumberSource(seriesId: string): Promise<void> {
    if (await ensureNumberSource(this.numbering, seriesId, (fn) => this.online(fn), this.mode === 'online')) this.emitChanged(['series']);
  }

  async refill(seriesId: string): Promise<void> {
    await this.online(() => refillPool(this.numbering, seriesId, true));
    this.emitChanged(['series']);
  }

  async gaps(seriesId: string) {
    const kind = this.store.reader.get<{ kind: 'invoice' | 'receipt' }>(sql`SELECT kind FROM series WHERE id = ${seriesId}`)?.kind ?? 'invoice';
    return this.online(async () => {
      const out = [];
      for (let page = 1; ; page++) {
        const list = await listGaps(this.api, seriesId, page, kind);
        out.push(...list.data);
        if (!list.has_more) return out;
      }
    });
  }

  async lookupCui(cui: string) {
    return this.online(async () => {
      try {
        return await lookupCompany(this.api, cui);
      } catch (error) {
        if (error instanceof ApiHttpError && error.code === 'company_not_found') return null;
        throw error;
      }
    });
  }

  async sendToSpv(invoiceId: string, testMode: boolean | undefined) {
    const serverId = serverIdOf(this.store.reader, 'invoice', invoiceId);
    const waiting = this.store.reader.get(sql`SELECT 1 AS ok FROM outbox WHERE entity_type = 'invoice' AND entity_id = ${invoiceId} AND state <> 'done'`);
    if (!serverId || waiting) throw new AppError('conflict', 'invalid_state', 'The invoice has not reached the server yet: sync it first');
    const result = await this.online(() => sendToSpv(this.api, serverId, testMode));
    // The invoice's e-Factura state is the server's: fetch it now rather than at the next pull.
    await this.online(async () => {
      const copy = await getOne(this.api, `/invoices/${encodeURIComponent(serverId)}?expand[]=lines`, zInvoice);
      this.store.write((db) => applyInvoice(db, copy, this.ctx.clock.now()));
    }).catch(() => undefined);
    this.emitChanged(['invoices']);
    return result;
  }

  /** Checks a key with the server (used when the user enters one). */
  async verifyKey(): Promise<{ ok: true } | { ok: false; error: AppError }> {
    try {
      // About the key itself: a work point chosen under another key may not be this key's company's.
      const me = await getMe(this.api, true);
      const selected = selectedWorkPointId(this.store.reader);
      const chosen = selected ? me.work_points.find((w) => w.id === selected) : undefined;
      if (selected && !chosen) {
        this.store.write((db) => selectWorkPoint(db, null, null));
        this.emitChanged(['settings', 'invoices', 'receipts', 'series', 'purchases']);
      }
      rememberIdentity(this.ctx, { company: me.company, work_point: chosen ?? me.work_point });
      this.setMode('online');
      return { ok: true };
    } catch (error) {
      return { ok: false, error: toAppError(error, (mode) => this.setMode(mode)) };
    }
  }

  /**
   * ONLINE. Walks these resources to the end now, while no pass runs: after the service made or changed
   * many records at once (an import), the user sees them without waiting for the passes' page budget.
   * The same pull as every pass (cursors, one transaction per page). Answers the records applied.
   */
  async pullNow(resources: readonly PulledResource[]): Promise<number> {
    let applied = 0;
    const deps = {
      store: this.store, api: this.api, clock: this.ctx.clock,
      onPage: (resource: string, n: number) => {
        applied += n;
        this.emitEvent('sync.progress', { phase: 'pull', resource, done: applied, total: null });
        if (n) this.emitChanged([RESOURCE_DOMAIN[resource] ?? 'outbox']);
      },
    };
    await this.exclusive(async () => {
      for (const resource of resources) {
        // Bounded: 100 walks of 20 pages of 100 records is 200,000 records, twice the largest import.
        for (let walk = 0; walk < 100; walk++) {
          const result = await this.online(() => (resource === 'stock_levels' ? pullStock(deps, 20) : pullResource(deps, resource, 20)));
          if (!result.more) break;
        }
      }
    });
    return applied;
  }

  /** ONLINE. POST /expenses/check-duplicate. */
  checkExpenseDuplicate(body: DuplicateCheckInput) {
    return this.online(() => checkExpenseDuplicate(this.api, body));
  }

  /** ONLINE. ANAF's PDF of a supplier bill (the service caches it after the first time). */
  async supplierBillPdf(id: string): Promise<{ bytes: Uint8Array; fileName: string }> {
    const bill = this.store.reader.get<{ invoice_number: string }>(sql`SELECT invoice_number FROM supplier_bills WHERE id = ${id}`);
    if (!bill) throw notFound('Supplier bill');
    const file = await this.online(() => downloadSupplierBillPdf(this.api, id));
    const fileName = `Factura-furnizor-${bill.invoice_number.replace(/[^\w.-]+/g, '_')}.pdf`;
    return { bytes: file.bytes, fileName };
  }

  /** ONLINE. A file the service makes (an accounting export, the monthly archive), as bytes. */
  downloadFile(path: string, query: Record<string, string>) {
    return this.online(() => this.api.download({ method: 'GET', path, query }));
  }

  /** ONLINE. PUT /company/profile; the answer becomes the local copy the documents print. */
  async updateCompanyProfile(patch: CompanyProfileUpdate) {
    const profile = await this.online(() => updateCompanyProfile(this.api, patch));
    if (rememberCompanyProfile(this.ctx, profile)) this.emitChanged(['settings']);
    return profile;
  }

  /** The company's work points: from the service when it answers (and kept), else the last copy. */
  async workPoints(): Promise<{ items: WorkPointEntry[]; current_id: string | null; source: 'server' | 'cache' }> {
    const current = () => getSetting(this.store.reader, 'work_point', z.object({ id: z.string() }))?.id ?? selectedWorkPointId(this.store.reader);
    try {
      const items: WorkPointEntry[] = [];
      for (let page = 1; ; page++) {
        const list = await this.online(() => listWorkPoints(this.api, page));
        items.push(...list.data.map((w) => ({ id: w.id, name: w.name, address: w.address })));
        if (!list.has_more) break;
      }
      this.store.write((db) => rememberWorkPoints(db, items));
      return { items, current_id: current(), source: 'server' };
    } catch (error) {
      const cached = cachedWorkPoints(this.store.reader);
      if (cached && error instanceof AppError && error.type === 'unavailable') return { items: cached, current_id: current(), source: 'cache' };
      throw error;
    }
  }

  /**
   * Moves the device to another work point (null: the key's own). See main/local/work-point.ts for
   * what happens to the local cache. Runs while no sync pass does, and none starts before it ends.
   */
  async switchWorkPoint(target: string | null): Promise<void> {
    await this.exclusive(async () => {
      const db = this.store.reader;
      if (target === selectedWorkPointId(db)) return;
      const here = getSetting(db, 'work_point', z.object({ id: z.string(), name: z.string() }));
      if (target !== null && here?.id === target) {
        // Already working there (the key's own, named explicitly): nothing to move.
        this.store.write((w) => setSetting(w, 'work_point_id', target));
        return;
      }
      if (unsyncedWorkPointItems(db) > 0) {
        throw invalidState('Documents of this work point wait to be synced: sync them (or discard them) before changing the work point');
      }
      let entry: WorkPointEntry | null = null;
      if (target !== null) {
        entry = cachedWorkPoints(db)?.find((w) => w.id === target) ?? null;
        if (!entry) entry = (await this.workPoints()).items.find((w) => w.id === target) ?? null;
        if (!entry) throw new AppError('validation_error', 'invalid_payload', 'Unknown work point', { work_point_id: 'Not a work point of this company|Nu este un punct de lucru al firmei' });
      }
      // What this device holds at the current work point goes back first: a lock would keep others
      // from numbering there, and unused reserved numbers become documented gaps now, not at expiry.
      // Locks first: giving one back needs the server, so offline the move fails before the pools change.
      // A pool needs nothing from the server now: its releases wait in the outbox, made for this work point.
      const held = db.all<{ id: string }>(sql`SELECT id FROM series WHERE numbering_mode IS NOT NULL ORDER BY numbering_mode = 'exclusive' DESC, id`);
      for (const series of held) await this.online(() => setNumberingMode(this.numbering, series.id, null, {}));
      if (target === null) {
        const me = await this.online(() => getMe(this.api, true)).catch(() => null);
        entry = me ? { id: me.work_point.id, name: me.work_point.name, address: null } : null;
      }
      this.store.write((w) => selectWorkPoint(w, entry, target));
      this.lastSeriesAt = 0;
      this.lastFullAt = 0;
    });
    this.emitChanged(['settings', 'invoices', 'receipts', 'series', 'purchases', 'outbox']);
    this.nudge('full');
  }

  /** Runs `fn` while no pass runs; passes asked for meanwhile run after it. */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.running) await this.running.catch(() => undefined);
    const task = fn();
    this.running = task.then(() => NO_PASS, () => NO_PASS);
    try {
      return await task;
    } finally {
      this.running = null;
      this.emitStatus();
      const next = this.again;
      this.again = null;
      if (next && !this.stopped) void this.runPass(next);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Events

  private setMode(mode: SyncStatus['mode']): void {
    if (this.mode === mode) return;
    const wasOffline = this.mode === 'offline';
    this.mode = mode;
    this.emitStatus();
    // Back online: a full pass at once (reconnection sync).
    if (wasOffline && mode === 'online' && this.options.timers && !this.running) this.nudge('full');
  }

  private emitStatus(): void {
    this.emitEvent('sync.status', this.status());
  }

  private emitOutbox(): void {
    this.emitEvent('outbox.changed', counts(this.store.reader));
  }

  emitChanged(domains: Domain[]): void {
    this.emitEvent('data.changed', { domains: [...new Set(domains)] });
  }
}

/** An API failure as the user sees it through IPC. */
export function toAppError(error: unknown, setMode?: (mode: SyncStatus['mode']) => void): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ApiNetworkError) {
    setMode?.('offline');
    return new AppError('unavailable', 'offline', 'The server cannot be reached');
  }
  if (error instanceof ApiNotConfiguredError) {
    setMode?.('unconfigured');
    return new AppError('unavailable', 'not_configured', 'No API key is configured');
  }
  if (error instanceof ApiHttpError) {
    if (error.status === 401) setMode?.('auth_error');
    return new AppError(error.type, error.code, error.message, error.fields);
  }
  if (error instanceof ApiClientError) return new AppError('api_error', 'invalid_response', error.message);
  throw error;
}
