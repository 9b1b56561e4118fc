import path from 'node:path';
import type { Dialect } from './dialect.js';
import { openSqlite } from './sqlite.js';

export type Row = Record<string, unknown>;
export type Params = unknown[];

/** The statements a module may run: the same on the database and inside a transaction. */
export interface Queryable {
  /** Statements are written in SQLite's SQL; see dialect.ts for what PostgreSQL runs instead. */
  readonly dialect: Dialect;
  get<T = Row>(sql: string, params?: Params): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: Params): Promise<T[]>;
  run(sql: string, params?: Params): Promise<{ changes: number }>;
}

/**
 * Statements inside `Database.transaction`: functions that change several rows and must not be
 * half-applied take this type, so they can't be called outside a transaction.
 */
export interface Transaction extends Queryable {
  readonly inTransaction: true;
}

export interface TransactionOptions {
  exclusive?: string;
}

export interface Database extends Queryable {
  /**
   * Runs `work` as one transaction. On PostgreSQL it is SERIALIZABLE and run again (a bounded
   * number of times) when it loses a race, so `work` must do nothing but database statements.
   * Transactions given the same `exclusive` key run one at a time, for hot rows that would make
   * them lose race after race (PostgreSQL: a session advisory lock taken before BEGIN; on
   * SQLite every write transaction already runs alone).
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work`'s reads in one snapshot of the database: every statement sees it as the first one
   * did, so an answer built from several reads (a page and its count, clusters and their activity)
   * never mixes the states before and after a transaction committed meanwhile. Keep it short: on
   * SQLite, snapshots take turns on a read connection of their own.
   */
  snapshot<T>(work: (db: Queryable) => Promise<T>): Promise<T>;
  /**
   * Reads through a cache, `reads` naming the tables the value comes from. A write through this
   * handle drops at once the values read from a table it wrote (or one its foreign keys cascade
   * to); a write by another process (the admin CLI, workers, other API nodes) drops them all
   * within 100 ms. For the reads on every request's path: token, organization, membership.
   * Only found values are kept, so unknown keys (a guessed token) can't fill the memory.
   */
  cached<T>(key: string, reads: readonly string[], load: () => Promise<T | undefined>): Promise<T | undefined>;
  /**
   * Takes the lock of that name for as long as this process's session lasts, or answers null at
   * once when another session holds it. PostgreSQL only (a session advisory lock on a connection
   * of its own): a process that dies, or whose connection is cut, loses it, and `lost` settles.
   */
  holdSessionLock?(name: string): Promise<SessionLock | null>;
  close(): Promise<void>;
}

export interface SessionLock {
  /** Settles when the session, and with it the lock, is gone. */
  lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * Bounds on what a transaction that hangs can hold up, the same on both databases, as a repository
 * lock's 20 s (engine/lock.ts): a writer waits `lockWaitMs` at most for its turn (PostgreSQL: for
 * each lock) and then fails as contended, a 503; a transaction stuck `stuckMs` (PostgreSQL: idle
 * between two statements; SQLite: holding the one writer) is rolled back and its later statements
 * fail. Without them one hung transaction stopped every later write for good (stop 42's deadlock).
 * A statement (a read, or a write's) running past `statementMs` is stopped and fails as unavailable
 * (SQLite: interrupted; PostgreSQL: cancelled by the server). On PostgreSQL one whose answer hasn't
 * come a second later also fails and drops its connection: a server gone silent (a partition, a
 * frozen host: no reset comes) would otherwise hold the request until TCP gives up.
 */
export interface WaitLimits {
  lockWaitMs: number;
  stuckMs: number;
  statementMs: number;
}
export const defaultWaitLimits: WaitLimits = { lockWaitMs: 20_000, stuckMs: 60_000, statementMs: 60_000 };

/** A `postgres://` or `postgresql://` URL opens PostgreSQL (its client loaded then); anything else is an SQLite file's path. */
export async function openDatabase(location: string, limits: WaitLimits = defaultWaitLimits): Promise<Database> {
  return /^postgres(?:ql)?:\/\//.test(location) ? (await import('./postgres.js')).openPostgres(location, limits) : openSqlite(location, limits);
}

/** Where a process's metadata lives: PostgreSQL when a URL is set (`QUIRE_DATABASE_URL`), else the SQLite file in the data directory. */
export function databaseLocation(dataDir: string, databaseUrl: string | undefined): string {
  return databaseUrl || path.join(dataDir, 'quire.sqlite');
}
