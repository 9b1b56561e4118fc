import path from 'node:path';
import { parseRateLimit, type RateLimit } from './rateLimits.js';
import { temporalFromEnv, type TemporalSettings } from '../workflows/settings.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL for the metadata and search (`QUIRE_DATABASE_URL`); unset, SQLite in the data directory. */
  databaseUrl?: string;
  /** Base of the absolute URLs the API hands out; defaults to http://localhost:<port>. */
  publicUrl?: string;
  bootstrap?: { token: string; email: string; organizationTitle: string };
  bodyLimitBytes: number;
  accessLog: boolean;
  /** Whether the hottest reads are answered below Koa (api/lightReads.ts); QUIRE_LIGHT_READS=off sends every request through Koa. */
  lightReads: boolean;
  /** How long a deleted space stays restorable before it is purged (QUIRE_SPACE_RETENTION). */
  spaceRetentionMs: number;
  /** Signed download URLs are valid for one to two of these windows (QUIRE_DOWNLOAD_URL_WINDOW). */
  downloadUrlWindowMs: number;
  /**
   * The Temporal server jobs run on. With TEMPORAL_ADDRESS unset, `npm start` launches a local dev
   * server and fills this in (see `localTemporal`).
   */
  temporal: TemporalSettings;
  /** Who may create organizations through the API (QUIRE_ORG_CREATION); operators always can, with the admin CLI. Unset: anyone. */
  organizationCreation?: 'anyone' | 'operators';
  /** Whether `npm start` runs a worker beside the API (QUIRE_WORKER=off: API only, workers elsewhere). */
  runWorker: boolean;
  /** Requests one caller (token, or address without one) may make per window; undefined: no limit (QUIRE_RATE_LIMIT=off). */
  rateLimit?: RateLimit;
  /**
   * Storage nodes (QUIRE_STORAGE): the storage whose repositories this node keeps in its data
   * directory and serves once it owns it, or 'none' for a node that only routes. Unset: the one
   * node of an instance, every space on 'local', nothing routed (see docs/decisions.md).
   */
  storage?: string;
  /** Where the other nodes reach this one (QUIRE_NODE_URL); defaults to http://127.0.0.1:<port>. */
  nodeUrl?: string;
  /** The bearer token a scraper of `/metrics` sends from elsewhere than this machine (QUIRE_METRICS_TOKEN); unset, loopback only. */
  metricsToken?: string;
  /** Set when no TEMPORAL_ADDRESS was given: the ports of the dev server `npm start` runs. */
  localTemporal?: { port: number; uiPort: number };
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `7d`, `30s`, `500ms`, `1.5h`: a duration in milliseconds. */
export function parseDuration(text: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`${name} must be a duration such as 7d, 12h, 30s or 500ms, got "${text}"`);
  return Number(match[1]) * units[match[2]!]!;
}

const minBootstrapTokenLength = 24;

/** 100 requests a second on average, in one-minute windows: far above what a person or a renderer sends. */
export const defaultRateLimit = '6000/1m';

/** Reads the environment variables listed in the README's configuration table. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const bodyLimitBytes = Number(env.QUIRE_BODY_LIMIT ?? 1024 * 1024);
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1) throw new Error(`QUIRE_BODY_LIMIT must be a number of bytes, got ${env.QUIRE_BODY_LIMIT}`);
  const bootstrapToken = env.QUIRE_BOOTSTRAP_TOKEN || undefined; // set empty (a compose file's default): unset
  if (bootstrapToken !== undefined && bootstrapToken.length < minBootstrapTokenLength) {
    throw new Error(`QUIRE_BOOTSTRAP_TOKEN must be at least ${minBootstrapTokenLength} characters: it is an admin's password`);
  }
  const metricsToken = env.QUIRE_METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < minBootstrapTokenLength) throw new Error(`QUIRE_METRICS_TOKEN must be at least ${minBootstrapTokenLength} characters: it is a password`);
  const storage = env.QUIRE_STORAGE || undefined;
  if (storage !== undefined && !/^[a-z0-9][a-z0-9-]{0,62}$/.test(storage)) throw new Error(`QUIRE_STORAGE must be a storage id (lowercase letters, digits and dashes) or "none", got "${storage}"`);
  if (storage !== undefined && !env.QUIRE_DATABASE_URL) throw new Error('QUIRE_STORAGE needs QUIRE_DATABASE_URL: storage nodes share one PostgreSQL database');
  const organizationCreation = env.QUIRE_ORG_CREATION ?? 'anyone';
  if (organizationCreation !== 'anyone' && organizationCreation !== 'operators') {
    throw new Error(`QUIRE_ORG_CREATION must be "anyone" or "operators", got "${organizationCreation}"`);
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.QUIRE_DATABASE_URL || undefined,
    publicUrl: env.QUIRE_PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    bootstrap: bootstrapToken
      ? {
          token: bootstrapToken,
          email: env.QUIRE_BOOTSTRAP_EMAIL ?? 'admin@localhost',
          organizationTitle: env.QUIRE_BOOTSTRAP_ORGANIZATION ?? 'My organization',
        }
      : undefined,
    bodyLimitBytes,
    accessLog: env.QUIRE_ACCESS_LOG !== 'off',
    lightReads: env.QUIRE_LIGHT_READS !== 'off',
    spaceRetentionMs: parseDuration(env.QUIRE_SPACE_RETENTION ?? '7d', 'QUIRE_SPACE_RETENTION'),
    downloadUrlWindowMs: parseDuration(env.QUIRE_DOWNLOAD_URL_WINDOW ?? '12h', 'QUIRE_DOWNLOAD_URL_WINDOW'),
    organizationCreation,
    runWorker: env.QUIRE_WORKER !== 'off',
    rateLimit: parseRateLimit(env.QUIRE_RATE_LIMIT ?? defaultRateLimit, parseDuration),
    storage,
    nodeUrl: env.QUIRE_NODE_URL?.replace(/\/+$/, '') || undefined,
    metricsToken,
    ...temporalFromEnv(env),
  };
}
