import Database from 'better-sqlite3';
import { foldForSearch } from '../../shared/text/search-fold';
import type { Sql, SqlValue } from './sql';

/**
 * Read and write handles are distinct types. A `WriteDb` exists only inside `store.write(fn)`, which
 * runs `fn` in one IMMEDIATE transaction: a user action and its outbox row commit together or not at
 * all. better-sqlite3 transactions are synchronous, so a transaction can never span an `await` (and
 * therefore never a network call): returning a promise from `fn` throws.
 */
const READ: unique symbol = Symbol('read-db');
const WRITE: unique symbol = Symbol('write-db');

export interface ReadDb {
  readonly [READ]: true;
  get<T>(query: Sql): T | undefined;
  all<T>(query: Sql): T[];
  /** Streams rows one at a time (large exports). */
  iterate<T>(query: Sql): IterableIterator<T>;
}

export interface WriteDb extends ReadDb {
  readonly [WRITE]: true;
  run(query: Sql): { changes: number; lastInsertRowid: number | bigint };
}

export interface StoreOptions {
  /** File path, or ':memory:' for unit tests. */
  path: string;
  /**
   * FULL: a commit reaches the disk before `write()` returns, so an invoice whose number was shown
   * to the customer survives a power cut. NORMAL is durable across a process crash only.
   */
  synchronous?: 'FULL' | 'NORMAL';
  readonly?: boolean;
  /** better-sqlite3 built for another ABI (Electron), loaded side by side with the Node build. */
  nativeBinding?: string;
}

export class Store {
  readonly raw: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly readHandle: ReadDb;
  private readonly writeHandle: WriteDb;
  private inWrite = false;

  constructor(options: StoreOptions) {
    this.raw = new Database(options.path, {
      readonly: options.readonly ?? false,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
    if (!options.readonly) {
      this.raw.pragma('journal_mode = WAL');
      this.raw.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    }
    this.raw.pragma('foreign_keys = ON');
    this.raw.pragma('busy_timeout = 5000');
    // The search columns' fold (migration 0006 and its triggers): the same function as the terms'.
    this.raw.function('tejghea_fold', { deterministic: true }, (text: unknown) => foldForSearch(typeof text === 'string' ? text : null));
    const statement = (query: Sql) => this.prepare(query.text);
    const read = {
      get: <T>(query: Sql) => statement(query).get(...query.values) as T | undefined,
      all: <T>(query: Sql) => statement(query).all(...query.values) as T[],
      iterate: <T>(query: Sql) => statement(query).iterate(...query.values) as IterableIterator<T>,
    };
    this.readHandle = read as unknown as ReadDb;
    this.writeHandle = {
      ...read,
      run: (query: Sql) => {
        if (!this.inWrite) throw new Error('write handle used outside its transaction');
        const result = statement(query).run(...query.values);
        return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
      },
    } as unknown as WriteDb;
  }

  private prepare(text: string): Database.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      stmt = this.raw.prepare(text);
      // Every query text comes from our code (the `sql` tag), so the cache is bounded by the code.
      this.statements.set(text, stmt);
    }
    return stmt;
  }

  /** A read handle: plain reads outside any transaction (WAL readers never block the writer). */
  get reader(): ReadDb {
    return this.readHandle;
  }

  /** Reads that must see one consistent snapshot. */
  snapshot<T>(fn: (db: ReadDb) => T): T {
    return this.raw.transaction(() => fn(this.readHandle)).deferred();
  }

  /**
   * One write transaction. Important: nothing in `fn` may touch memory outside the database that a
   * rollback could not undo; do that after `write` returns.
   */
  write<T>(fn: (db: WriteDb) => T): T {
    if (this.inWrite) return fn(this.writeHandle);
    this.inWrite = true;
    try {
      const result = this.raw.transaction(() => {
        const value = fn(this.writeHandle);
        if (value instanceof Promise) throw new Error('a write transaction cannot wait for a promise');
        return value;
      }).immediate();
      return result;
    } finally {
      this.inWrite = false;
    }
  }

  /** Runs a multi-statement script (migrations only). */
  exec(db: WriteDb, script: string): void {
    void db;
    this.raw.exec(script);
  }

  /**
   * Keeps the query planner's statistics in line with the data (SQLite's advice for long-lived
   * connections): tables whose size changed tenfold since they were measured are measured again,
   * each on a bounded sample so this stays a few milliseconds.
   */
  optimize(): void {
    if (!this.raw.open || this.raw.readonly || this.inWrite) return;
    this.raw.pragma('analysis_limit = 1000');
    this.raw.pragma('optimize');
  }

  close(): void {
    this.optimize();
    this.statements.clear();
    if (this.raw.open) this.raw.close();
  }
}

export type { SqlValue };
