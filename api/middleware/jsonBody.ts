import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { HttpError, badRequest } from '../errors.js';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/**
 * Reads a JSON request body up to `limitBytes` (413 beyond it, checked while streaming so a
 * huge body is never buffered) and leaves it on `ctx.request.body`; no body leaves it undefined.
 */
export function jsonBody(options: { limitBytes: number }) {
  return async (ctx: AppContext, next: Koa.Next) => {
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > options.limitBytes) throw tooLarge(options.limitBytes);
    const raw = await readBody(ctx.req, options.limitBytes);
    if (raw.length > 0) {
      const type = ctx.request.type;
      if (type && type !== 'application/json' && !type.endsWith('+json')) {
        throw new HttpError(415, `Request bodies must be JSON (Content-Type: application/json), got ${type}`);
      }
      try {
        ctx.request.body = JSON.parse(raw.toString('utf8'));
      } catch (error) {
        throw badRequest(`Malformed JSON in request body: ${(error as Error).message}`);
      }
    }
    return next();
  };
}

function tooLarge(limitBytes: number) {
  return new HttpError(413, `Request body is larger than the limit of ${limitBytes} bytes`);
}

function readBody(stream: NodeJS.ReadableStream, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        stream.removeAllListeners('data');
        stream.resume();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
