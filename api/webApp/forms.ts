import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { checkFormOrigin } from './sessionCookie.js';

const formLimitBytes = 64 * 1024;

/** A form the app's pages post (`application/x-www-form-urlencoded`), read whole up to 64 KB (or `limitBytes`). */
export async function readForm(ctx: AppContext, limitBytes = formLimitBytes): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(ctx.get('content-type'))) throw new HttpError(415, 'The app accepts forms (application/x-www-form-urlencoded) only');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new HttpError(413, `A form has at most ${limitBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Where to go after signing in: a path of this app only (never another site: an open redirect). */
export function appReturnPath(value: string | null | undefined): string {
  return value && /^\/app(\/[^\\]*)?$/.test(value) && !value.startsWith('//') ? value : '/app/';
}

/** A form of a signed-in page, read and checked (its Origin, its token) before anything it asks is done. */
export async function checkedForm(ctx: AppContext, limitBytes?: number): Promise<URLSearchParams> {
  const form = await readForm(ctx, limitBytes);
  checkFormOrigin(ctx, form);
  return form;
}
