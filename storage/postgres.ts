import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Database, Params, Queryable, SessionLock, Transaction, TransactionOptions, WaitLimits } from './db.js';
import { postgresParams, toPostgres } from './dialect.js';
import { databaseUnavailable, statementTooLong, StorageError, tooContended } from './errors.js';
import { migratePostgres } from './migrate.js';
import { ReadCache, tableReach, tablesOf, writtenTable } from './readCache.js';
import { withinTime } from './timeLimit.js';

/** Numbers as SQLite gives them: BIGINT and NUMERIC (COUNT, SUM) as numbers, booleans as 0/1. */
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    if (oid === 16) return (value: string) => (value === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid, format as never);
  }) as typeof pg.types.getTypeParser,
};

/** Serialization failures and deadlocks: the transaction lost a race and runs again. */
const retryable = new Set(['40001', '40P01']);
const uniqueViolation = '23505';
const maxAttempts = 12;
/**
 * A transaction that lost this many races runs its next try alone: every transaction holds a shared
 * advisory lock while it runs, and this one waits for the exclusive lock before it begins (so after
 * those under way end, and before new ones start). Without it, 8 writers on one row needed up to 11
 * tries; with it, a transaction needs at most this many plus one.
 */
const aloneAfterAttempts = 3;
const turnLock = 0x51756973;
const channel = 'quire_changes';
/** SQLSTATE of a lock not had within `lock_timeout`. */
const lockNotAvailable = '55P03';
/** A statement cancelled, here by statement_timeout. */
const queryCanceled = '57014';

/** Transactions that lost a race, and the most tries any needed, since start: for the benchmark report. */
export const transactionStats = { retried: 0, mostAttempts: 1 };

/**
 * PostgreSQL behind the same interface as SQLite: reads on one pool, transactions on another (so a
 * transaction waiting for a read can't starve the reads it waits for), each transaction
 * SERIALIZABLE and run again when it loses a race. Other processes' commits reach the read cache
 * by LISTEN/NOTIFY: every writing transaction notifies in itself, so only on commit.
 */
export async function openPostgres(url: string, limits: WaitLimits): Promise<Database> {
  // A connection waited for longer than 5 s (a server that hangs, a pool held by slow work) fails the request.
  // A statement running past statementMs is cancelled by the server (statement_timeout: it stops,
  // and its locks go); one whose answer doesn't come a second later (a server gone silent) is given
  // up by the client (query_timeout), and its connection dropped.
  const statementLimits = { statement_timeout: limits.statementMs, query_timeout: limits.statementMs + 1_000 };
  const reads = new pg.Pool({ connectionString: url, max: 8, types, connectionTimeoutMillis: 5_000, ...statementLimits });
  const writes = new pg.Pool({
    connectionString: url,
    max: 8,
    types,
    connectionTimeoutMillis: 5_000,
    ...statementLimits,
    // Each lock waited for (a turn behind a transaction that never ends, a row another holds), and a
    // transaction idle between statements (its process stuck between them: the server ends it and
    // releases its locks).
    lock_timeout: limits.lockWaitMs,
    idle_in_transaction_session_timeout: limits.stuckMs,
  });
  for (const pool of [reads, writes]) {
    // A connection lost while idle in the pool is dropped by the pool; one lost while checked out
    // (a transaction between statements) fails its next statement. Neither may crash the process.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
  }
  // Migrations on a connection of their own, without the requests' limits: a node starting waits
  // for another's migration, and a migration's statement takes what it takes.
  const migrating = new pg.Pool({ connectionString: url, max: 1, types, connectionTimeoutMillis: 5_000 });
  migrating.on('error', () => undefined);
  try {
    await migratePostgres(migrating);
  } finally {
    await migrating.end();
  }
  const read = queryable(reads, limits.statementMs);
  const node = randomUUID();
  const cache = new ReadCache(await tableReachOf(read));
  const listener = await listen(url, node, () => cache.clear());

  async function transaction<T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await writes.connect().catch((error: Error) => {
        throw isConnectionFailure(error) ? databaseUnavailable() : error;
      });
      const statements: string[] = [];
      // Closed before COMMIT or ROLLBACK is sent: a statement sent after (a branch of the work still
      // running) would run outside the transaction, or in another's once the connection is reused.
      let open = true;
      // A statement that failed fails the transaction, even when the work caught its error and went on:
      // PostgreSQL has aborted it (COMMIT would answer ROLLBACK, and say nothing), so the statements
      // after it are refused with its error rather than sent (each would fail as "aborted").
      let failed: Error | undefined;
      const refusal = () => (!open ? transactionEnded() : failed);
      // Statements sent and not yet answered: one the work didn't wait for may still fail before COMMIT.
      const underWay = new Set<Promise<unknown>>();
      const tx: Transaction = {
        ...refusing(
          queryable(client, limits.statementMs, statements, (error) => (failed ??= error)),
          refusal,
          underWay,
        ),
        inTransaction: true,
      };
      let broken: Error | undefined;
      const alone = attempt > aloneAfterAttempts;
      try {
        if (options.exclusive !== undefined) await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [options.exclusive]);
        if (alone) await client.query(`SELECT pg_advisory_lock(${turnLock})`);
        await client.query(`BEGIN ISOLATION LEVEL SERIALIZABLE;${alone ? '' : ` SELECT pg_advisory_xact_lock_shared(${turnLock})`}`);
        const result = await work(tx);
        open = false;
        await Promise.allSettled([...underWay]);
        if (failed) throw failed;
        if (statements.some((sql) => writtenTable(sql) !== null)) await client.query('SELECT pg_notify($1, $2)', [channel, node]);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        open = false;
        // A lost or silent connection can't roll back: dropped, its server session ends the transaction.
        const unreachable = (cause: unknown) => isConnectionFailure(cause) || (cause instanceof StorageError && cause.code === 'unavailable');
        if (unreachable(error) || (failed && unreachable(failed))) broken = error as Error;
        else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        const code = (error as { code?: string }).code ?? '';
        // A key inserted by a concurrent transaction (the next change-request number) can fail as a
        // unique violation rather than a serialization failure; re-run, it sees that row. Once the
        // transaction has run alone, a violation is a real duplicate and goes up as it is.
        const lostRace = retryable.has(code) || (code === uniqueViolation && !alone);
        if (lostRace && attempt < maxAttempts) {
          transactionStats.retried += attempt === 1 ? 1 : 0;
          transactionStats.mostAttempts = Math.max(transactionStats.mostAttempts, attempt + 1);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
          continue;
        }
        if (isConnectionFailure(error)) {
          broken = error as Error;
          throw databaseUnavailable();
        }
        if (lostRace || code === lockNotAvailable) throw tooContended();
        // A statement sent outside `naming` (BEGIN, a lock, COMMIT) cancelled by the server.
        if (code === queryCanceled) throw statementTooLong(limits.statementMs);
        throw error;
      } finally {
        if (alone && !broken) await client.query(`SELECT pg_advisory_unlock(${turnLock})`).catch((error: Error) => (broken = error));
        if (options.exclusive !== undefined && !broken) await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [options.exclusive]).catch((error: Error) => (broken = error));
        client.release(broken);
        cache.written(tablesOf(statements));
      }
    }
  }

  async function snapshot<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    const client = await reads.connect().catch((error: Error) => {
      throw isConnectionFailure(error) ? databaseUnavailable() : error;
    });
    let open = true;
    const underWay = new Set<Promise<unknown>>();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const result = await work(refusing(queryable(client, limits.statementMs), () => (open ? undefined : transactionEnded()), underWay));
      open = false;
      await Promise.allSettled([...underWay]);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      open = false;
      await Promise.allSettled([...underWay]);
      if (isConnectionFailure(error) || (error instanceof StorageError && error.code === 'unavailable')) broken = error as Error;
      else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      if (isConnectionFailure(error)) throw databaseUnavailable();
      throw error;
    } finally {
      client.release(broken);
    }
  }

  let closing: Promise<void> | undefined;
  return {
    dialect: 'postgres',
    get: read.get,
    all: read.all,
    run: (sql, params) => transaction((tx) => tx.run(sql, params)),
    transaction,
    snapshot,
    // Unheard commits can't drop what is kept, so while not listening nothing is kept.
    cached: async (key, tables, load) => {
      if (!listener.listening()) return load();
      await listener.sync();
      if (!listener.listening()) return load();
      return cache.get(key, tables, load);
    },
    holdSessionLock: (name) => holdSessionLock(url, name),
    close: () => (closing ??= Promise.all([listener.close(), reads.end(), writes.end()]).then(() => undefined)),
  };
}

/**
 * Statements on a pool (each on any connection) or on a transaction's connection, whose statements
 * are recorded so the cache drops what they wrote once it ends.
 */
function queryable(target: pg.Pool | pg.PoolClient, statementMs: number, statements?: string[], onFailed?: (error: Error) => void): Queryable {
  const query = (sql: string, params: Params = []) => {
    statements?.push(sql);
    return target
      .query(toPostgres(sql), postgresParams(params))
      .catch(naming(sql, statementMs))
      .catch((error: Error) => {
        onFailed?.(error);
        throw error;
      });
  };
  return {
    dialect: 'postgres',
    get: async <T>(sql: string, params?: Params) => (await query(sql, params)).rows[0] as T | undefined,
    all: async <T>(sql: string, params?: Params) => (await query(sql, params)).rows as T[],
    run: async (sql, params) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
  };
}

/** `target`'s statements, each refused with `refusal()`'s error while it gives one; those sent are in `underWay` until answered. */
function refusing(target: Queryable, refusal: () => Error | undefined, underWay: Set<Promise<unknown>>): Queryable {
  const refused = <T>(statement: () => Promise<T>): Promise<T> => {
    const error = refusal();
    if (error) return Promise.reject(error);
    const sent = statement();
    underWay.add(sent);
    const answered = () => underWay.delete(sent);
    sent.then(answered, answered);
    return sent;
  };
  return {
    dialect: target.dialect,
    get: (sql, params) => refused(() => target.get(sql, params)),
    all: (sql, params) => refused(() => target.all(sql, params)),
    run: (sql, params) => refused(() => target.run(sql, params)),
  };
}

const transactionEnded = () => new Error('a statement of a transaction that has ended');

/** A failed statement's error carries the statement (its text, never its values) into the logs. */
function naming(sql: string, statementMs: number) {
  return (error: Error & { statement?: string; code?: string }) => {
    if (isConnectionFailure(error)) throw databaseUnavailable();
    if (error.code === queryCanceled) throw statementTooLong(statementMs);
    error.statement ??= toPostgres(sql).replace(/\s+/g, ' ').slice(0, 500);
    throw error;
  };
}

/**
 * The server can't be reached or went away (refused, reset, shut down, starting up, or a
 * connection ended mid-query): the request answers 503, not 500. A transaction cut off at COMMIT
 * may or may not have committed; PostgreSQL applies it whole or not at all either way.
 */
function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) ||
    code.startsWith('08') ||
    /^Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|^Query read timeout/i.test((error as Error).message ?? '')
  );
}

/**
 * How long a cached read waits for the listening connection's round trip. Every request's token is
 * a cached read: a connection whose peer went silent (a partition, a frozen host: no reset comes)
 * would otherwise hold every request for as long as TCP takes to give up, a quarter of an hour.
 */
const roundTripLimitMs = 2_000;

/**
 * Clears the cache on every other node's commit. While the connection is down nothing is heard,
 * so the cache is off (`listening` false; cleared on every notice of trouble, and again once
 * listening resumes). A round trip not answered within `roundTripLimitMs` counts as the
 * connection lost.
 */
async function listen(url: string, node: string, clear: () => void): Promise<{ listening(): boolean; sync(): Promise<void>; close(): Promise<void> }> {
  let client: pg.Client | undefined;
  const sync = roundTrips(() => {
    const current = client;
    return current
      ? answeredWithin(current.query('SELECT 1'), roundTripLimitMs).catch((error: unknown) => {
          lost(current);
          void current.end().catch(() => undefined);
          throw error;
        })
      : undefined;
  });
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    // Connecting is bounded too: a connect that never ends would keep the listener from coming back.
    const next = new pg.Client({ connectionString: url, types, connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    next.on('notification', (message) => message.payload !== node && clear());
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await answeredWithin(next.query(`LISTEN ${channel}`), roundTripLimitMs);
    } catch (error) {
      void next.end().catch(() => undefined);
      throw error;
    }
    if (closed) return void next.end().catch(() => undefined);
    client = next;
    clear();
  };
  /** A connection failed or ended: an earlier one's late news changes nothing. */
  const lost = (from?: pg.Client) => {
    if (from && client && from !== client) return;
    clear();
    client = undefined;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(() => lost());
    }, 100);
    retry.unref();
  };
  await connect();
  return {
    listening: () => client !== undefined,
    sync,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

/** `answer`, or a rejection once `limitMs` have passed without it. */
const answeredWithin = <T>(answer: Promise<T>, limitMs: number) => withinTime(answer, limitMs, () => new Error(`no answer from PostgreSQL in ${limitMs} ms`));

/**
 * A round trip on the listening connection, for a cached read to wait for before it reads: a
 * commit that came before the read (its answer seen by the client that now reads) had signalled
 * the listening session, and PostgreSQL hands a session the notices it was signalled before the
 * end of its next statement, so their clearing of the cache comes before this resolves. Reads
 * share trips: one that arrives while a trip is under way waits for the next, which is sent after
 * it arrived; all that arrive meanwhile share that one.
 */
function roundTrips(trip: () => Promise<unknown> | undefined): () => Promise<void> {
  let sent: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const send = (): Promise<void> => {
    const answered: Promise<void> = Promise.resolve(trip())
      .then(
        () => undefined,
        () => undefined, // a lost connection is the listener's to report: reads then skip the cache
      )
      .finally(() => {
        if (sent === answered) sent = undefined;
      });
    sent = answered;
    return answered;
  };
  return () => {
    if (!sent) return send();
    next ??= sent.then(() => {
      next = undefined;
      return send();
    });
    return next;
  };
}

/**
 * A session advisory lock on a connection of its own, kept alive by TCP keepalives: the server
 * drops the lock when the process dies (its socket closes) or its connection is cut.
 */
async function holdSessionLock(url: string, name: string): Promise<SessionLock | null> {
  const client = new pg.Client({ connectionString: url, types, keepAlive: true, keepAliveInitialDelayMillis: 1_000, connectionTimeoutMillis: 5_000 });
  let gone!: () => void;
  const lost = new Promise<void>((resolve) => (gone = resolve));
  client.on('error', () => gone());
  client.on('end', () => gone());
  try {
    await client.connect();
    const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 1)) AS held', [name]);
    if (rows[0]?.held) return { lost, release: () => client.end().catch(() => undefined) };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw isConnectionFailure(error) ? databaseUnavailable() : error;
  }
  await client.end();
  return null;
}

/** The schema's foreign keys and triggers, as tableReach takes them. */
async function tableReachOf(db: Queryable) {
  const names = await db.all<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()');
  const keys = await db.all<{ child: string; parent: string; acts: number }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
       (c.confdeltype IN ('c', 'n', 'd') OR c.confupdtype IN ('c', 'n', 'd')) AS acts
     FROM pg_constraint c WHERE c.contype = 'f'`,
  );
  const triggers = new Set((await db.all<{ name: string }>('SELECT DISTINCT tgrelid::regclass::text AS name FROM pg_trigger WHERE NOT tgisinternal')).map((row) => row.name.toLowerCase()));
  return tableReach(
    names.map(({ name }) => ({
      name,
      references: keys.filter((key) => key.child === name).map((key) => ({ parent: key.parent, acts: key.acts === 1 })),
      hasTrigger: triggers.has(name.toLowerCase()),
    })),
  );
}
