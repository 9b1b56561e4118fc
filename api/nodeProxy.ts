import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import { routedHeader } from '../domain/storages/index.js';
import type { AppContext } from './context.js';

/** Headers that belong to one connection, not to the request or answer: never passed on. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
/** How long a routed request may go without a byte of its answer. */
const answerTimeoutMs = 30_000;

/** The request's body, whole when it is small enough to send again (a retry after a stale placement), else its stream. */
export async function requestBody(ctx: AppContext, limitBytes: number): Promise<Buffer | IncomingMessage | undefined> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD' || (!ctx.get('content-length') && !ctx.get('transfer-encoding'))) return undefined;
  const length = Number(ctx.get('content-length') || NaN);
  if (!(length <= limitBytes)) return ctx.req;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Sends the request to the node at `nodeUrl` (one hop, marked as routed) and resolves with its
 * answer, not yet read: the caller passes it on, or drops it to try elsewhere.
 */
export function forward(ctx: AppContext, nodeUrl: string, body: Buffer | IncomingMessage | undefined, secret: string): Promise<IncomingMessage> {
  const target = new URL(ctx.url, nodeUrl);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(ctx.req.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
  headers[routedHeader] = secret;
  headers['x-forwarded-for'] = ctx.ip;
  // The host the client addressed: a form the web app checks by its Origin came from a page of that host.
  headers['x-forwarded-host'] = ctx.host;
  if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
  else if (body) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    const request = http.request(target, { method: ctx.method, headers, agent }, resolve);
    // A kept-alive connection the other node had closed fails before the request reached it (`reusedSocket`).
    request.on('error', (error) => reject(Object.assign(error, { reusedSocket: request.reusedSocket })));
    // A node that accepts the connection and never answers (stopped, hung) fails the request, as a down one would.
    request.setTimeout(answerTimeoutMs, () => request.destroy(Object.assign(new Error(`no answer from ${nodeUrl} in ${answerTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
    if (Buffer.isBuffer(body)) request.end(body);
    else if (body) body.pipe(request);
    else request.end();
  });
}

/** Answers up to this size are read whole before they are passed on; larger ones (git packs) are streamed. */
const wholeAnswerBytes = 8 * 1024 * 1024;

/**
 * Passes another node's answer on as this request's. An answer of known, modest size is read
 * whole first, so a node that dies mid-answer makes a clean 503 (`unreachable`) rather than a
 * connection cut under the client.
 */
export async function relay(ctx: AppContext, answer: IncomingMessage, unreachable: (reason: string) => Error): Promise<void> {
  const length = Number(answer.headers['content-length'] ?? NaN);
  let body: Buffer | IncomingMessage = answer;
  const bodiless = ctx.method === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304;
  if (!bodiless && length <= wholeAnswerBytes) {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of answer) chunks.push(chunk as Buffer);
    } catch (error) {
      throw unreachable((error as Error).message);
    }
    body = Buffer.concat(chunks);
    if (body.length !== length) throw unreachable(`its answer was cut off after ${body.length} of ${length} bytes`);
  }
  ctx.status = answer.statusCode ?? 502;
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hopByHop.has(name)) ctx.set(name, value);
  if (Number.isFinite(length)) ctx.length = length;
  ctx.body = body;
}
