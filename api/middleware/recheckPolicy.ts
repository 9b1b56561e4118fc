import type Koa from 'koa';
import type { Database, Transaction } from '../../storage/db.js';
import type { AppContext } from '../context.js';
import type { Policy } from '../policies/index.js';

/**
 * Makes a route's writes conditional on its policy: every transaction the handler opens, and every
 * single write, first runs the policy again inside that transaction, where no other write can
 * change a role until it commits. A role taken away by a concurrent request after the policy's
 * first check then refuses the write (two admins demoting each other: one wins, the other gets 403).
 */
export function recheckPolicyInWrites(policy: Policy) {
  return async (ctx: AppContext, next: Koa.Next) => {
    const db = ctx.db;
    const recheck = async (tx: Transaction) => {
      const shadow = Object.create(ctx) as AppContext;
      shadow.db = readingThrough(db, tx);
      shadow.state = { ...ctx.state };
      await policy.check(shadow, async () => undefined);
    };
    ctx.db = {
      ...db,
      transaction: (work, options) =>
        db.transaction(async (tx) => {
          await recheck(tx);
          return work(tx);
        }, options),
      run: (sql, params) =>
        db.transaction(async (tx) => {
          await recheck(tx);
          return tx.run(sql, params);
        }),
    };
    return next();
  };
}

/** The database as seen from inside `tx`: fresh reads on the write connection, no cache. */
function readingThrough(db: Database, tx: Transaction): Database {
  return { dialect: tx.dialect, get: tx.get, all: tx.all, run: tx.run, cached: (_key, _reads, load) => load(), transaction: (work) => work(tx), snapshot: (work) => work(tx), close: db.close };
}
