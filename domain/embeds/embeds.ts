import { Lru, type PageMetadata, readPageMetadata } from '../../engine/index.js';
import { invalidInput } from '../common/errors.js';
import { OutboundFetchError, outboundFetch, type OutboundFetchOptions } from '../common/outboundFetch.js';

/** Upstream's Embed of type `link`: a card with the page's title, its site's name and icon. */
export interface LinkEmbed {
  type: 'link';
  title: string;
  site: string;
  icon?: string;
}

const cacheLimit = 2000;
const foundMs = 60 * 60_000;
/** A page that couldn't be read is tried again sooner. */
const failedMs = 5 * 60_000;
const cache = new Lru<string, { embed: LinkEmbed; until: number }>(cacheLimit);
const inFlight = new Map<string, Promise<LinkEmbed>>();

/**
 * The embed of a URL, from the Open Graph tags (else the title) of the page it serves, fetched
 * through the outbound guard (public addresses only, bounded in time and size) and kept an hour.
 * A URL the guard refuses is invalid input; a page that can't be read (down, not HTML, an error
 * status) is a plain link card named after the URL, kept five minutes.
 */
export async function embedOfUrl(url: string, fetchOptions: OutboundFetchOptions = {}): Promise<LinkEmbed> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput(`"url" is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidInput(`"url" must be http(s): ${url}`);
  const key = parsed.toString();
  const cached = cache.get(key);
  if (cached && cached.until > Date.now()) return cached.embed;
  const running = inFlight.get(key);
  if (running) return running;
  const work = fetchEmbed(parsed, fetchOptions).finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

async function fetchEmbed(url: URL, fetchOptions: OutboundFetchOptions): Promise<LinkEmbed> {
  const key = url.toString();
  let metadata: PageMetadata | undefined;
  try {
    const response = await outboundFetch(key, { maxBytes: 2 * 1024 * 1024, totalTimeoutMs: 10_000, headers: { accept: 'text/html,application/xhtml+xml' }, ...fetchOptions });
    if (/html/i.test(response.contentType ?? 'text/html')) metadata = await readPageMetadata(response.body.toString('utf8'), response.url);
  } catch (error) {
    if (error instanceof OutboundFetchError && (error.code === 'scheme' || error.code === 'address')) throw invalidInput(`"url" can't be embedded: ${error.message}`);
    if (!(error instanceof OutboundFetchError)) throw error;
  }
  const embed: LinkEmbed = {
    type: 'link',
    title: metadata?.title ?? key,
    site: metadata?.siteName ?? url.hostname,
    ...(metadata?.icon ? { icon: metadata.icon } : {}),
  };
  cache.set(key, { embed, until: Date.now() + (metadata ? foundMs : failedMs) });
  return embed;
}
