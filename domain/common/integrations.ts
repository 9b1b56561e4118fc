import type { Settings } from '../../config/index.js';

/**
 * What the domain reaches outside Quire with, given once at start by the process's entry point
 * (configureIntegrations, from the settings config/ read): the domain never reads the environment
 * itself. Until then, the defaults: no private addresses, the pseudo-locale translator, no chat
 * model, the embedding model found beside the code, Debian's Chromium.
 */
export interface Integrations {
  /** QUIRE_ALLOW_PRIVATE_FETCH: user-given URLs may be on loopback and private networks. */
  allowPrivateFetch: boolean;
  /** QUIRE_FETCH_TIMEOUT_MS. */
  fetchTimeoutMs: number;
  translator: { kind: 'pseudo' } | { kind: 'libretranslate'; url: string; key?: string } | { kind: 'openai'; url: string; key?: string; model: string };
  /** An OpenAI-compatible chat model, for issues from support conversations and readers' answers (QUIRE_OPENAI_*). */
  chatModel?: { url: string; key?: string; model: string };
  /** QUIRE_EMBEDDING_MODEL; undefined: `models/all-mpnet-base-v2-u8` beside the code. */
  embeddingModel?: string;
  /** QUIRE_DNS_SERVERS: the name servers asked where custom hostnames point; undefined: the system's. */
  dnsServers?: string[];
  /** PUPPETEER_EXECUTABLE_PATH. */
  chromium: string;
}

const defaults: Integrations = { allowPrivateFetch: false, fetchTimeoutMs: 30_000, translator: { kind: 'pseudo' }, chromium: '/usr/bin/chromium' };
let current: Integrations = defaults;

/** Sets what is given (tests set one part and put it back); `undefined` for an optional part removes it. */
export function configureIntegrations(next: Partial<Integrations>): void {
  current = { ...current, ...next };
}

export const integrations = (): Readonly<Integrations> => current;

/** The integrations the settings name. */
export function integrationsFromSettings(settings: Settings): Integrations {
  const chatModel = settings.QUIRE_OPENAI_URL
    ? { url: settings.QUIRE_OPENAI_URL, model: settings.QUIRE_OPENAI_MODEL, ...(settings.QUIRE_OPENAI_KEY ? { key: settings.QUIRE_OPENAI_KEY } : {}) }
    : undefined;
  const translator: Integrations['translator'] =
    settings.QUIRE_TRANSLATOR === 'libretranslate'
      ? { kind: 'libretranslate', url: settings.QUIRE_LIBRETRANSLATE_URL!, ...(settings.QUIRE_LIBRETRANSLATE_KEY ? { key: settings.QUIRE_LIBRETRANSLATE_KEY } : {}) }
      : settings.QUIRE_TRANSLATOR === 'openai'
        ? { kind: 'openai', ...chatModel! }
        : { kind: 'pseudo' };
  return {
    allowPrivateFetch: settings.QUIRE_ALLOW_PRIVATE_FETCH === '1',
    fetchTimeoutMs: settings.QUIRE_FETCH_TIMEOUT_MS,
    translator,
    ...(chatModel ? { chatModel } : {}),
    ...(settings.QUIRE_EMBEDDING_MODEL ? { embeddingModel: settings.QUIRE_EMBEDDING_MODEL } : {}),
    ...(settings.QUIRE_DNS_SERVERS ? { dnsServers: settings.QUIRE_DNS_SERVERS } : {}),
    chromium: settings.PUPPETEER_EXECUTABLE_PATH,
  };
}
