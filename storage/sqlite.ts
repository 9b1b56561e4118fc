import sqlite3 from 'sqlite3';
import { migrate } from './migrate.js';
import type { Database, Params, Queryable, Transaction, WaitLimits } from './db.js';
import { readersBusy, statementTooLong, transactionStuck, writerBusy } from './errors.js';
import { ReadCache, tableReach, tablesOf } from './readCache.js';
import { withinTime } from './timeLimit.js';

/**
 * How often another process's commits are looked for (SQLite's `PRAGMA data_version`): half the
 * 100 ms docs/architecture.md promises, so a poll's own time and a busy event loop's delay fit within it
 * (at 100 ms, the worst of 40 measured was 110 ms).
 */
const changePollMs = 50;

/** The most of the file the read connection maps (SQLite's default is none). */
const readerMapBytes = 256 * 1024 * 1024;

/**
 * One SQLite file opened three times: a read connection that never waits on writers (WAL), a
 * write connection whose transactions are serialized here, because node-sqlite3 would otherwise
 * interleave statements of concurrent transactions on one connection, and a read connection for
 * snapshots, taken one at a time.
 */
export async function openSqlite(file: string, limits: WaitLimits): Promise<Database> {
  const writer = await openConnection(file, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE);
  await exec(writer, 'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  await migrate(connectionQueryable(writer), (sql) => exec(writer, sql));
  const reader = await openConnection(file, sqlite3.OPEN_READONLY);
  // Reads through a memory map: a search reads thousands of index pages, each a read() call
  // otherwise (a 10,000-page organization's search query took 5.4 ms, 4.0 ms mapped).
  await exec(reader, `PRAGMA busy_timeout = 5000; PRAGMA query_only = ON; PRAGMA mmap_size = ${readerMapBytes};`);
  // One statement at a time, each finalized before the next starts. In node-sqlite3's parallel
  // mode a `get`'s statement stays open (its read snapshot with it) until its finalize is queued
  // and run, and reads interleaved meanwhile see that old snapshot: a row written a moment ago
  // went unseen in 1 read of 10 under concurrent readers (a comment post answered 500).
  reader.serialize();
  // Snapshots on a connection of their own: a transaction open on the shared reader would hold
  // every other read to its snapshot.
  const snapshotReader = await openConnection(file, sqlite3.OPEN_READONLY);
  await exec(snapshotReader, `PRAGMA busy_timeout = 5000; PRAGMA query_only = ON; PRAGMA mmap_size = ${readerMapBytes};`);
  snapshotReader.serialize();

  const writes = new SerialQueue(limits.lockWaitMs);
  const snapshots = new SerialQueue(limits.lockWaitMs, readersBusy);
  const watches = [new RunawayWatch(reader, limits.statementMs), new RunawayWatch(writer, limits.statementMs), new RunawayWatch(snapshotReader, limits.statementMs)] as const;
  const read = connectionQueryable(reader, watches[0]);
  const write = connectionQueryable(writer, watches[1]);
  const snapshotRead = connectionQueryable(snapshotReader, watches[2]);
  const tx: Transaction = { ...write, inTransaction: true };
  let closing: Promise<void> | undefined;

  const cache = new ReadCache(await tableReachOf(read));
  // Polled on the write connection: its data_version moves with other connections' commits only,
  // so this process's own writes (already handled table by table) don't drop the whole cache.
  let dataVersion = (await write.get<{ data_version: number }>('PRAGMA data_version'))?.data_version;
  const poll = setInterval(() => {
    writes
      .push(() => write.get<{ data_version: number }>('PRAGMA data_version'))
      .then(
        (row) => {
          if (row?.data_version !== dataVersion) {
            dataVersion = row?.data_version;
            cache.clear();
          }
        },
        () => cache.clear(),
      );
  }, changePollMs);
  poll.unref();

  return {
    dialect: 'sqlite',
    get: read.get,
    all: read.all,
    cached: (key, reads, load) => cache.get(key, reads, load),
    run: (sql, params) => writes.push(() => write.run(sql, params)).finally(() => cache.written(tablesOf([sql]))),
    transaction: (work) => {
      // The transaction's statements, so the cache drops what they wrote once it ends (committed or not).
      const statements: string[] = [];
      const guard = new StuckGuard(limits.stuckMs);
      const recording: Transaction = {
        dialect: 'sqlite',
        get: <T>(sql: string, params?: Params) => guard.run(() => (statements.push(sql), tx.get<T>(sql, params))),
        all: <T>(sql: string, params?: Params) => guard.run(() => (statements.push(sql), tx.all<T>(sql, params))),
        run: (sql, params) => guard.run(() => (statements.push(sql), tx.run(sql, params))),
        inTransaction: true,
      };
      return writes
        .push(async () => {
          await exec(writer, 'BEGIN IMMEDIATE');
          try {
            const result = await guard.within(work(recording));
            await guard.end();
            // A statement that failed fails its transaction, even when the work caught its error and went on.
            if (guard.failed) throw guard.failed;
            await exec(writer, 'COMMIT');
            return result;
          } catch (error) {
            await guard.end();
            // A statement stopped for running too long (RunawayWatch) may have rolled it back already;
            // the guard sent nothing after it.
            await exec(writer, 'ROLLBACK').catch((rollbackError: Error) => {
              if (!/no transaction is active/.test(rollbackError.message)) throw rollbackError;
            });
            throw error;
          }
        })
        .finally(() => cache.written(tablesOf(statements)));
    },
    snapshot: (work) =>
      snapshots.push(async () => {
        const guard = new StuckGuard(limits.stuckMs);
        const guarded: Queryable = {
          dialect: 'sqlite',
          get: (sql, params) => guard.run(() => snapshotRead.get(sql, params)),
          all: (sql, params) => guard.run(() => snapshotRead.all(sql, params)),
          run: (sql, params) => guard.run(() => snapshotRead.run(sql, params)),
        };
        // BEGIN alone takes no snapshot: the first read does, and the rest read what it saw.
        await exec(snapshotReader, 'BEGIN');
        try {
          return await guard.within(work(guarded));
        } finally {
          await guard.end();
          // A statement stopped for running too long (RunawayWatch) has ended the transaction already.
          await exec(snapshotReader, 'COMMIT').catch((commitError: Error) => {
            if (!/no transaction is active/.test(commitError.message)) throw commitError;
          });
        }
      }),
    close: () => {
      clearInterval(poll);
      // Behind whatever the writer still has to do, however long: close never gives up. The watches
      // stay on until the connections are closed: a statement running away still gets stopped.
      closing ??= writes
        .push(async () => undefined, Infinity)
        .then(() => snapshots.push(async () => undefined, Infinity))
        .then(async () => {
          try {
            await Promise.all([closeConnection(reader), closeConnection(writer), closeConnection(snapshotReader)]);
          } finally {
            for (const watch of watches) watch.stop();
          }
        });
      return closing;
    },
  };
}

/**
 * A connection's jobs (the writer's, the snapshots'), one at a time. A job still waiting for its
 * turn after `waitMs` (the connection held by a transaction that hangs, or by a long queue) fails
 * as busy and is skipped when its turn comes.
 */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** Jobs pushed and not done yet, the one running included. */
  private unfinished = 0;
  constructor(
    private readonly waitMs: number,
    private readonly busy: (waitedMs: number) => Error = writerBusy,
  ) {}

  push<T>(job: () => Promise<T>, waitMs = this.waitMs): Promise<T> {
    let gaveUp = false;
    let timer: NodeJS.Timeout | undefined;
    const turn = () => {
      if (gaveUp) return undefined as T; // its caller has had its error
      clearTimeout(timer);
      return job();
    };
    const waitsBehindOthers = this.unfinished > 0;
    this.unfinished += 1;
    const result = this.tail.then(turn, turn);
    this.tail = result.catch(() => undefined).finally(() => (this.unfinished -= 1));
    if (!waitsBehindOthers || waitMs === Infinity) return result; // its turn comes at once, or it waits for it: no timer to keep
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(this.busy(waitMs));
      }, waitMs);
    });
    return Promise.race([result, waited]);
  }
}

/**
 * A transaction's watch on its own work: past `stuckMs` the work is given up (its transaction is
 * then rolled back). Once the transaction ends, stuck, failed or done, its statements fail instead
 * of running outside it or inside the next one (a branch of the work still running: the work
 * failed elsewhere, or forgot to wait for it). Its end waits for the statements already under way:
 * run after a ROLLBACK, they would be committed on their own.
 */
class StuckGuard {
  private stuck: Error | undefined;
  /**
   * The first statement of the transaction that failed: the transaction fails with it, and the
   * statements after it are refused with its error, as PostgreSQL refuses them once one has failed
   * (on SQLite the rest would commit without it: a half-written change).
   */
  failed: Error | undefined;
  private readonly underWay = new Set<Promise<unknown>>();
  private previous: Promise<unknown> = Promise.resolve();
  constructor(private readonly stuckMs: number) {}

  run<T>(statement: () => Promise<T>): Promise<T> {
    if (this.stuck) return Promise.reject(this.stuck);
    // One at a time, each sent once the one before has settled: a write stopped for running too long
    // rolls the whole transaction back (SQLite does), and a statement already sent after it would
    // then run on its own and be committed.
    const running = this.previous.then(() => {
      if (this.stuck) throw this.stuck;
      return statement().catch((error: Error) => {
        this.failed ??= error;
        this.stuck ??= error;
        throw error;
      });
    });
    this.previous = running.catch(() => undefined);
    this.underWay.add(running);
    const forget = () => this.underWay.delete(running);
    running.then(forget, forget);
    return running;
  }

  within<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined); // once given up, what it ends with concerns no one
    return withinTime(work, this.stuckMs, () => (this.stuck = transactionStuck(this.stuckMs)));
  }

  /** No statement from now on; resolves once those under way are done. */
  async end(): Promise<void> {
    this.stuck ??= new Error('a statement of a transaction that has ended');
    await Promise.allSettled([...this.underWay]);
  }
}

/**
 * A connection's watch for a statement that runs away (a query that never ends would hold the one
 * writer, or the read connection every request reads through, for good): while statements are
 * outstanding and none has finished for `statementMs`, the one running is interrupted
 * (sqlite3_interrupt) and fails as unavailable. A connection runs its statements one at a time
 * (the reader serialized; the writer one job at a time behind SerialQueue, a transaction's
 * statements one at a time behind its StuckGuard), so the one running is the one stuck.
 */
class RunawayWatch {
  private outstanding = 0;
  private lastProgress = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: sqlite3.Database,
    private readonly statementMs: number,
  ) {
    this.timer = setInterval(() => this.check(), Math.min(1_000, Math.max(20, statementMs / 4)));
    this.timer.unref();
  }

  track<T>(statement: () => Promise<T>): Promise<T> {
    if (this.outstanding === 0) this.lastProgress = Date.now();
    this.outstanding += 1;
    const settled = () => {
      this.outstanding -= 1;
      this.lastProgress = Date.now();
    };
    return statement().then(
      (value) => (settled(), value),
      (error: { code?: string }) => {
        settled();
        throw error.code === 'SQLITE_INTERRUPT' ? statementTooLong(this.statementMs) : error;
      },
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    if (this.outstanding === 0 || Date.now() - this.lastProgress < this.statementMs) return;
    this.lastProgress = Date.now();
    this.db.interrupt();
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

/** Statements on a connection; with a watch (not for migrations), each one's time is watched. */
function connectionQueryable(db: sqlite3.Database, watch?: RunawayWatch): Queryable {
  const watched = <T>(statement: () => Promise<T>) => (watch ? watch.track(statement) : statement());
  return {
    dialect: 'sqlite',
    get: (sql, params = []) => watched(() => new Promise((resolve, reject) => db.get(sql, params, (error, row) => (error ? reject(error) : resolve(row as never))))),
    all: (sql, params = []) => watched(() => new Promise((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as never))))),
    run: (sql, params = []) =>
      watched(
        () =>
          new Promise((resolve, reject) =>
            db.run(sql, params, function (this: sqlite3.RunResult, error: Error | null) {
              if (error) reject(error);
              else resolve({ changes: this.changes });
            }),
          ),
      ),
  };
}

/** The schema's foreign keys and triggers, as tableReach takes them. */
async function tableReachOf(db: Queryable) {
  const names = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  const triggers = new Set((await db.all<{ tbl_name: string }>("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")).map((row) => row.tbl_name.toLowerCase()));
  const acting = new Set(['CASCADE', 'SET NULL', 'SET DEFAULT']);
  const tables = [];
  for (const { name } of names) {
    const keys = await db.all<{ table: string; on_update: string; on_delete: string }>(`SELECT "table", on_update, on_delete FROM pragma_foreign_key_list(?)`, [name]);
    tables.push({ name, references: keys.map((key) => ({ parent: key.table, acts: acting.has(key.on_update) || acting.has(key.on_delete) })), hasTrigger: triggers.has(name.toLowerCase()) });
  }
  return tableReach(tables);
}
