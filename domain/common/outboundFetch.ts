import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { integrations } from './integrations.js';

/**
 * The one way the server fetches a URL a user gave it (an OpenAPI `source.url`, later files to
 * insert). Only http(s); the address actually connected to must be public — checked after DNS
 * resolution and again on every redirect — unless `QUIRE_ALLOW_PRIVATE_FETCH=1`; bounded in time
 * and in size.
 */
export interface OutboundFetchOptions {
  /** Time to open the TCP (and TLS) connection of each hop. */
  connectTimeoutMs?: number;
  /** Time for the whole fetch, redirects and body included. */
  totalTimeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Overrides `QUIRE_ALLOW_PRIVATE_FETCH` (tests and closed networks). */
  allowPrivate?: boolean;
  /** Single addresses let through despite the rule (a test's own loopback server, for one). */
  allowAddress?: (address: string) => boolean;
  headers?: Record<string, string>;
  /** POST sends `body` and follows no redirect (a 3xx is an answer like any other non-2xx). */
  method?: 'GET' | 'POST';
  body?: string | Buffer;
}

export interface OutboundResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

export type OutboundFetchErrorCode = 'scheme' | 'address' | 'timeout' | 'too_large' | 'redirects' | 'status' | 'network';

export class OutboundFetchError extends Error {
  constructor(
    readonly code: OutboundFetchErrorCode,
    message: string,
    /** For `status`: the HTTP status the server answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export const outboundDefaults = { connectTimeoutMs: 5000, totalTimeoutMs: 30_000, maxBytes: 20 * 1024 * 1024, maxRedirects: 5 };

export const privateFetchAllowed = (): boolean => integrations().allowPrivateFetch;

/**
 * Whether an address may be fetched: only ordinary public unicast. Loopback, private (RFC 1918,
 * IPv6 unique local), link-local (which holds the cloud metadata address 169.254.169.254),
 * carrier-grade NAT, multicast, reserved and the IPv6 translation ranges are refused; an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** GET (or POST) `url` under the guard; a 2xx answer's body, or an OutboundFetchError saying why not. */
export async function outboundFetch(url: string, options: OutboundFetchOptions = {}): Promise<OutboundResponse> {
  const settings = { ...outboundDefaults, totalTimeoutMs: integrations().fetchTimeoutMs, ...options, allowPrivate: options.allowPrivate ?? privateFetchAllowed() };
  const deadline = Date.now() + settings.totalTimeoutMs;
  let current = parseUrl(url);
  for (let hop = 0; ; hop++) {
    const answer = await fetchOnce(current, settings, deadline);
    if (answer.redirect === undefined) return answer.response;
    if (hop >= settings.maxRedirects) throw new OutboundFetchError('redirects', `${url} redirected more than ${settings.maxRedirects} times`);
    current = parseUrl(new URL(answer.redirect, current).toString());
  }
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundFetchError('scheme', `${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundFetchError('scheme', `Only http and https URLs can be fetched, not ${url.protocol.slice(0, -1)} (${text})`);
  return url;
}

type Settings = typeof outboundDefaults & { allowPrivate: boolean; allowAddress?: (address: string) => boolean; headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string | Buffer };

const permitted = (settings: Settings, address: string) => settings.allowPrivate || isPublicAddress(address) || settings.allowAddress?.(address) === true;

/** DNS resolution whose every answer must be public: the check happens on the address connected to. */
function guardedLookup(url: URL, settings: Settings): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as LookupAddress[];
      const refused = list.find((entry) => !permitted(settings, entry.address));
      if (refused) return callback(addressError(url, refused.address), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new OutboundFetchError('network', `${url.host} is unreachable`), '', 4);
      callback(null, first.address, first.family);
    });
  };
}

// What a host resolves to stays on the server: answers name the host, never its addresses.
const addressError = (url: URL, _address: string) =>
  new OutboundFetchError('address', `${url.host} is not a public address (loopback, private, link-local or otherwise non-public): refused (QUIRE_ALLOW_PRIVATE_FETCH=1 lifts this)`);

/** A network failure said without its system details (DNS answers, resolver codes, addresses). */
function networkError(url: URL, error: Error): OutboundFetchError {
  const code = (error as NodeJS.ErrnoException).code;
  return new OutboundFetchError('network', code === 'ECONNREFUSED' ? `${url.host} refused the connection` : `${url.host} is unreachable`);
}

function fetchOnce(url: URL, settings: Settings, deadline: number): Promise<{ response: OutboundResponse; redirect?: undefined } | { redirect: string }> {
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(literal) && !permitted(settings, literal)) return Promise.reject(addressError(url, literal));
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(timeoutError(url, settings.totalTimeoutMs));
    const transport = url.protocol === 'https:' ? https : http;
    const method = settings.method ?? 'GET';
    const request = transport.request(url, { method, lookup: guardedLookup(url, settings), headers: { 'user-agent': 'Quire', ...settings.headers }, agent: false });
    request.end(method === 'POST' ? settings.body : undefined);
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      clearTimeout(connect);
      request.destroy();
      reject(error);
    };
    const total = setTimeout(() => fail(timeoutError(url, settings.totalTimeoutMs)), remaining);
    const connect = setTimeout(() => fail(new OutboundFetchError('timeout', `Connecting to ${url.host} took more than ${settings.connectTimeoutMs} ms`)), settings.connectTimeoutMs);
    request.on('socket', (socket) => {
      const connected = url.protocol === 'https:' ? 'secureConnect' : 'connect';
      socket.once(connected, () => clearTimeout(connect));
    });
    request.on('error', (error) => fail(error instanceof OutboundFetchError ? error : networkError(url, error)));
    request.on('response', (response) => {
      clearTimeout(connect);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location && method === 'GET') {
        response.resume();
        settled = true;
        clearTimeout(total);
        request.destroy();
        return resolve({ redirect: location });
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return fail(new OutboundFetchError('status', `${url.href} answered HTTP ${status}`, status));
      }
      const declared = Number(response.headers['content-length']);
      if (declared > settings.maxBytes) return fail(tooLarge(url, settings.maxBytes));
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > settings.maxBytes) return fail(tooLarge(url, settings.maxBytes));
        chunks.push(chunk);
      });
      response.on('error', () => fail(new OutboundFetchError('network', `Reading ${url.href} failed: the connection broke`)));
      response.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        resolve({ response: { url: url.href, status, contentType: response.headers['content-type'], body: Buffer.concat(chunks) } });
      });
    });
  });
}

const timeoutError = (url: URL, ms: number) => new OutboundFetchError('timeout', `Fetching ${url.href} took more than ${ms} ms`);
const tooLarge = (url: URL, max: number) => new OutboundFetchError('too_large', `${url.href} is larger than ${max} bytes`);

/**
 * The address a program other than this one (git, for Git Sync) must connect to for `url`: the
 * host resolved once and judged by the same rules, so the program can be pinned to it (no second
 * resolution to a private address). Throws OutboundFetchError as a fetch would.
 */
export async function pinnedAddress(url: string): Promise<{ host: string; port: number; address: string }> {
  const parsed = parseUrl(url);
  const settings: Settings = { ...outboundDefaults, allowPrivate: privateFetchAllowed() };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  if (ipaddr.isValid(host)) {
    if (!permitted(settings, host)) throw addressError(parsed, host);
    return { host, port, address: host };
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (error, found) => (error ? reject(networkError(parsed, error)) : resolve(found))));
  const refused = addresses.find((entry) => !permitted(settings, entry.address));
  if (refused) throw addressError(parsed, refused.address);
  if (!addresses[0]) throw new OutboundFetchError('network', `${parsed.host} is unreachable`);
  return { host, port, address: addresses[0].address };
}
