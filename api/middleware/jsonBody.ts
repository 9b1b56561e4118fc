import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { HttpError, badRequest } from '../errors.js';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

/**
 * How deep objects and arrays may nest in a request body. Everything after parsing (storage's
 * JSON.stringify, presenters, markdown serialisation, search indexing) recurses over bodies, and
 * the shallowest of them overflows the stack a few thousand levels down; a document nested this
 * deep is still about 60 blocks (each block is an object and its `nodes` array).
 */
export const maxBodyDepth = 128;

const decoders: Record<string, (input: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/**
 * Reads a JSON request body up to `limitBytes` (413 beyond it, checked while streaming so a
 * huge body is never buffered, and again after decompression so a small bomb is refused too),
 * decodes it as strict UTF-8 and parses it; no body leaves `ctx.request.body` undefined.
 * Refused with 400: invalid UTF-8, nesting deeper than `maxBodyDepth`, strings holding NUL or a
 * lone surrogate (what JSON escapes can express but no text should hold).
 */
export function jsonBody(options: { limitBytes: number }) {
  return async (ctx: AppContext, next: Koa.Next) => {
    const encodings = contentEncodings(ctx.get('content-encoding'));
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > options.limitBytes) throw tooLarge(options.limitBytes);
    let raw = await readBody(ctx.req, options.limitBytes);
    if (raw.length > 0) {
      const contentType = parseContentType(ctx.get('content-type'));
      if (contentType.type && contentType.type !== 'application/json' && !contentType.type.endsWith('+json')) {
        throw new HttpError(415, `Request bodies must be JSON (Content-Type: application/json), got ${contentType.type}`);
      }
      if (contentType.charset !== undefined && contentType.charset !== 'utf-8' && contentType.charset !== 'utf8') {
        throw new HttpError(415, `Request bodies must be UTF-8 (charset=utf-8), got charset=${contentType.charset}`);
      }
      for (const encoding of encodings.reverse()) raw = await decode(raw, encoding, options.limitBytes);
      ctx.request.body = parseJson(raw);
    }
    return next();
  };
}

function tooLarge(limitBytes: number, what = 'Request body') {
  return new HttpError(413, `${what} is larger than the limit of ${limitBytes} bytes`);
}

/** The codings of `Content-Encoding`, in the order they were applied; 415 for one Quire can't undo. */
function contentEncodings(header: string): string[] {
  const encodings = header
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity');
  const unknown = encodings.find((encoding) => !(encoding in decoders));
  if (unknown) throw new HttpError(415, `Content-Encoding "${unknown}" is not supported: send the body as gzip, deflate, br or identity`);
  return encodings;
}

async function decode(raw: Buffer, encoding: string, limitBytes: number): Promise<Buffer> {
  try {
    return await decoders[encoding]!(raw, { maxOutputLength: limitBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limitBytes, `Request body, decompressed (${encoding}),`);
    throw badRequest(`Request body is not valid ${encoding} data: ${(error as Error).message}`);
  }
}

/** Media types and their parameter names are case-insensitive (RFC 9110 §8.3.1), and so is a charset's value. */
function parseContentType(header: string): { type: string; charset?: string } {
  const [type = '', ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const separator = parameter.indexOf('=');
    if (separator < 0) continue;
    if (parameter.slice(0, separator).trim().toLowerCase() !== 'charset') continue;
    charset = parameter
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
  assertDepth(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw badRequest(`Malformed JSON in request body: ${(error as Error).message}`);
  }
  assertCleanStrings(body);
  return body;
}

/** Counts brackets outside strings, before parsing: nothing recursive ever sees a deeper body. */
function assertDepth(text: string) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxBodyDepth) throw badRequest(`Request body nests objects and arrays deeper than the limit of ${maxBodyDepth} levels`);
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Walks the parsed body (keys and values) without recursion; the depth is already bounded. */
function assertCleanStrings(body: unknown) {
  const pending: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  const check = (text: string, path: string, what: string) => {
    const subject = path ? `"${path}"` : 'the body';
    if (text.includes('\u0000')) throw badRequest(`Invalid request body: ${subject} ${what} a NUL character (\\u0000)`);
    if (loneSurrogate.test(text)) throw badRequest(`Invalid request body: ${subject} ${what} a lone surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text`);
  };
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') check(value, path, 'contains');
    else if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      // Stored and answered as a double, it would come back altered (2.1e+25): refused, not changed.
      throw badRequest(`Invalid request body: ${path ? `"${path}"` : 'the body'} is a whole number beyond ±2^53, which can't be kept exactly`);
    } else if (Array.isArray(value)) value.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]` }));
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        check(key, path, 'has a field name with');
        const itemPath = path ? `${path}.${key}` : key;
        pending.push({ value: item, path: itemPath });
      }
    }
  }
}

/** A request's bytes, refused past `limitBytes` (413) while they stream in. */
export function readBody(stream: NodeJS.ReadableStream, limitBytes: number): Promise<Buffer> {
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
