import sqlite3 from 'sqlite3';
import { migrate } from './migrate.js';

export type Row = Record<string, unknown>;
export type Params = unknown[] | Record<string, unknown>;

/** The statements a module may run: the same on the database and inside a transaction. */
export interface Queryable {
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

/**
 * One SQLite file opened twice: a read connection that never waits on writers (WAL),
 * and a write connection whose transactions are serialized here, because node-sqlite3
 * would otherwise interleave statements of concurrent transactions on one connection.
 */
export interface Database extends Queryable {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Reads through a cache that every committed write clears: at once for writes made through this
   * handle, within `changePollMs` for writes by other processes (the admin CLI, workers, other
   * API processes). For the reads on every request's path: token, organization, membership.
   * Only found values are kept, so unknown keys (a guessed token) can't fill the memory.
   */
  cached<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined>;
  close(): Promise<void>;
}

/**
 * How often another process's commits are looked for (SQLite's `PRAGMA data_version`): half the
 * 100 ms the README promises, so a poll's own time and a busy event loop's delay fit within it
 * (at 100 ms, the worst of 40 measured was 110 ms).
 */
const changePollMs = 50;
const cacheLimit = 20_000;

export async function openDatabase(file: string): Promise<Database> {
  const writer = await openConnection(file, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE);
  await exec(writer, 'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  await migrate(connectionQueryable(writer), (sql) => exec(writer, sql));
  const reader = await openConnection(file, sqlite3.OPEN_READONLY);
  await exec(reader, 'PRAGMA busy_timeout = 5000; PRAGMA query_only = ON;');

  const writes = new SerialQueue();
  const read = connectionQueryable(reader);
  const write = connectionQueryable(writer);
  const tx: Transaction = { ...write, inTransaction: true };
  let closing: Promise<void> | undefined;

  const cache = new Map<string, Promise<unknown>>();
  const invalidate = () => cache.clear();
  let dataVersion = (await read.get<{ data_version: number }>('PRAGMA data_version'))?.data_version;
  const poll = setInterval(() => {
    read.get<{ data_version: number }>('PRAGMA data_version').then(
      (row) => {
        if (row?.data_version !== dataVersion) {
          dataVersion = row?.data_version;
          invalidate();
        }
      },
      () => invalidate(),
    );
  }, changePollMs);
  poll.unref();
  const afterWrite = <T>(result: Promise<T>) => result.finally(invalidate);

  return {
    get: read.get,
    all: read.all,
    cached: <T>(key: string, load: () => Promise<T | undefined>) => {
      const hit = cache.get(key) as Promise<T | undefined> | undefined;
      if (hit) return hit;
      // The promise itself is cached, so concurrent misses share one query. A write that ends
      // while it loads clears the cache, this entry with it, so a stale value is never kept.
      const loading = load();
      if (cache.size >= cacheLimit) cache.clear();
      cache.set(key, loading);
      const forget = () => {
        if (cache.get(key) === loading) cache.delete(key);
      };
      loading.then((value) => value === undefined && forget(), forget);
      return loading;
    },
    run: (sql, params) => afterWrite(writes.push(() => write.run(sql, params))),
    transaction: (work) =>
      afterWrite(writes.push(async () => {
        await exec(writer, 'BEGIN IMMEDIATE');
        try {
          const result = await work(tx);
          await exec(writer, 'COMMIT');
          return result;
        } catch (error) {
          await exec(writer, 'ROLLBACK');
          throw error;
        }
      })),
    close: () => {
      clearInterval(poll);
      closing ??= writes.push(async () => undefined).then(async () => {
        await Promise.all([closeConnection(reader), closeConnection(writer)]);
      });
      return closing;
    },
  };
}

class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  push<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job, job);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

function openConnection(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

function closeConnection(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
}

function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
}

function connectionQueryable(db: sqlite3.Database): Queryable {
  return {
    get: (sql, params = []) =>
      new Promise((resolve, reject) => db.get(sql, params, (error, row) => (error ? reject(error) : resolve(row as never)))),
    all: (sql, params = []) =>
      new Promise((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as never)))),
    run: (sql, params = []) =>
      new Promise((resolve, reject) =>
        db.run(sql, params, function (this: sqlite3.RunResult, error: Error | null) {
          if (error) reject(error);
          else resolve({ changes: this.changes });
        }),
      ),
  };
}
