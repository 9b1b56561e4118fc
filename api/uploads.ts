import type Koa from 'koa';
import { maxUploadBytes, receiveUpload } from '../domain/imports/index.js';
import type { AppContext } from './context.js';
import { forbidden } from './errors.js';
import { readBody } from './middleware/jsonBody.js';

/**
 * `PUT /uploads/<organization>/<id>?expires=…&signature=…`: the bytes of a file asked for with
 * generateStorageUploadURL, sent once to the signed URL it gave (no token: the signature is the
 * permission, as a storage service's presigned URL), up to the size asked for.
 */
export async function storageUploads(ctx: AppContext, next: Koa.Next) {
  const found = /^\/uploads\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_-]{1,64})$/.exec(ctx.path);
  if (!found) return next();
  if (ctx.method !== 'PUT') {
    ctx.status = 405;
    ctx.set('Allow', 'PUT');
    return;
  }
  const { expires, signature } = ctx.query;
  if (typeof expires !== 'string' || typeof signature !== 'string' || !ctx.urls.downloads) throw forbidden('The upload URL is not valid: it needs one "expires" and one "signature"');
  const verdict = ctx.urls.downloads.verify(ctx.path, expires, signature);
  if (verdict === 'invalid') throw forbidden('The upload URL is not valid: its signature doesn’t match');
  if (verdict === 'expired') throw forbidden('The upload URL has expired: ask for another');
  const body = await readBody(ctx.req, maxUploadBytes);
  await receiveUpload(ctx.db, found[1]!, `${found[1]}/${found[2]}`, body);
  ctx.status = 204;
}
