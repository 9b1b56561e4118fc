import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { RepositoryElsewhereError } from '../../engine/index.js';
import { placementOf, routedHeader, storageOfSpace, storageWithRoom, type StorageNode } from '../../domain/storages/index.js';
import type { AppContext } from '../context.js';
import { HttpError, unavailable } from '../errors.js';
import { forward, relay, requestBody } from '../nodeProxy.js';

/** Marks a request another node of the instance routed here (its secret checked): it is not limited or routed again. */
export function routedRequests(secret: string) {
  const expected = Buffer.from(secret);
  return (ctx: Koa.Context, next: Koa.Next) => {
    const given = Buffer.from(ctx.get(routedHeader));
    ctx.state.routed = given.length === expected.length && timingSafeEqual(given, expected);
    return next();
  };
}

const spacePath = /^\/v1\/spaces\/([^/]+)/;
const gitPath = /^\/git\/([^/]+?)(?:\.git)?\//;
/** The web app's pages and forms of a space (its content, history, change requests). */
const appSpacePath = /^\/app\/s\/([^/]+)/;
const spacesOfOrganization = /^\/v1\/orgs\/[^/]+\/spaces\/?$/;

/**
 * Sends each request about a space to the node that owns the space's storage (one hop), and a
 * new space to a storage with room when this node keeps none. A request that reaches a
 * repository elsewhere some other way (a published page of a space on another storage) is sent
 * on too, if it only reads. A node that gets a routed request for a storage it no longer owns
 * answers 421, and the router reads the placement again and retries once.
 */
export function storageRouting(node: StorageNode, secret: string, bodyLimitBytes: number) {
  return async (ctx: AppContext, next: Koa.Next) => {
    const routed = ctx.state.routed === true;
    const { spaceId, storage } = await storageOfRequest(ctx, node);
    if (storage !== undefined && storage !== node.storage) {
      if (routed) throw new HttpError(421, `Storage ${storage} is not served by this node: the placement changed, read it again`);
      return send(ctx, next, storage, spaceId);
    }
    if (storage !== undefined && !node.owns()) {
      throw routed
        ? new HttpError(421, `Storage ${storage} is not served by this node right now`)
        : unavailable(`Storage ${storage} is not served right now (its node is taking it over): try again shortly`);
    }
    try {
      await next();
    } catch (error) {
      if (!(error instanceof RepositoryElsewhereError) || !isRead(ctx)) throw error;
      // A space moved off this storage a moment ago (its placement not yet seen here): the router reads it again.
      if (routed) throw new HttpError(421, `Space ${error.spaceId} is no longer kept by this node: read its placement again`);
      const elsewhere = await storageOfSpace(ctx.db, error.spaceId, { fresh: true });
      if (elsewhere === undefined || elsewhere === node.storage) throw error;
      ctx.body = undefined;
      await send(ctx, undefined, elsewhere, error.spaceId);
    }
  };

  /** Sends the request on; `next` serves it here instead if the space turns out to have moved to this node's storage. */
  async function send(ctx: AppContext, next: Koa.Next | undefined, firstStorage: string, spaceId: string | undefined) {
    const body = await requestBody(ctx, bodyLimitBytes);
    let storage = firstStorage;
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 1 && spaceId !== undefined) {
        // The space may have moved to another storage (a 421 from the node that kept it).
        storage = (await storageOfSpace(ctx.db, spaceId, { fresh: true })) ?? storage;
        if (storage === node.storage) {
          if (next && body === undefined) return next();
          throw unavailable(`Space ${spaceId} has just moved to this node's storage: try again`);
        }
      }
      const placement = await placementOf(ctx.db, storage, { fresh: attempt > 1 });
      if (!placement?.nodeUrl || placement.nodeUrl === node.url) throw unavailable(`Storage ${storage} has no node serving it right now: try again shortly`);
      const sent = await forward(ctx, placement.nodeUrl, body, secret).then(
        (answer) => ({ answer }),
        (error: NodeJS.ErrnoException & { reusedSocket?: boolean }) => ({ failure: error }),
      );
      // Retried once, with the placement read again: a node that refused the connection (the request
      // never reached it), a read on a kept-alive connection the node had closed, or a node that no
      // longer owns the storage or the space (421). A write cut off midway may have been carried out: not sent twice.
      const unreached = 'failure' in sent && (sent.failure.code === 'ECONNREFUSED' || (isRead(ctx) && sent.failure.reusedSocket === true && sent.failure.code === 'ECONNRESET'));
      if ((unreached || ('answer' in sent && sent.answer.statusCode === 421)) && attempt === 1 && !isStream(body)) {
        if ('answer' in sent) sent.answer.resume();
        continue;
      }
      if ('failure' in sent) throw unavailable(`Storage ${storage}: its node ${placement.nodeUrl} is not answering (${sent.failure.code ?? sent.failure.message}): try again shortly`);
      if (sent.answer.statusCode === 421) {
        // The node named still doesn't own the storage (it lost its session and hasn't taken it back yet).
        sent.answer.resume();
        throw unavailable(`Storage ${storage} is not served right now (its node is taking it over): try again shortly`);
      }
      return relay(ctx, sent.answer, (reason) => unavailable(`Storage ${storage}: its node ${placement.nodeUrl} stopped answering (${reason}): try again shortly`));
    }
  }
}

const isRead = (ctx: AppContext) => ctx.method === 'GET' || ctx.method === 'HEAD';
const isStream = (body: unknown) => body !== undefined && !Buffer.isBuffer(body);

/** The storage that must serve the request (and the space it is about), or undefined when any node can. */
async function storageOfRequest(ctx: AppContext, node: StorageNode): Promise<{ spaceId?: string; storage?: string }> {
  const named = spacePath.exec(ctx.path)?.[1] ?? gitPath.exec(ctx.path)?.[1] ?? appSpacePath.exec(ctx.path)?.[1];
  if (named !== undefined) {
    const spaceId = decodeURIComponent(named);
    return { spaceId, storage: await storageOfSpace(ctx.db, spaceId) };
  }
  if (ctx.method === 'POST' && spacesOfOrganization.test(ctx.path)) {
    if (node.storage !== null) return { storage: node.storage };
    const room = await storageWithRoom(ctx.db);
    if (!room) throw unavailable('No storage node is serving: a space can’t be made right now');
    return { storage: room.id };
  }
  return {};
}
