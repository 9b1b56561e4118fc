import path from 'node:path';
import { duration, readSettings, type Settings } from '../config/index.js';
import type { RateLimit } from './rateLimits.js';
import type { OidcSettings } from '../domain/accounts/index.js';
import { temporalFromSettings, type TemporalSettings } from '../workflows/settings.js';

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
   * node of an instance, every space on 'local', nothing routed (see docs/decisions/storage.md).
   */
  storage?: string;
  /** Where the other nodes reach this one (QUIRE_NODE_URL); defaults to http://127.0.0.1:<port>. */
  nodeUrl?: string;
  /** The bearer token a scraper of `/metrics` sends from elsewhere than this machine (QUIRE_METRICS_TOKEN); unset, loopback only. */
  metricsToken?: string;
  /** The OpenID Connect provider people may sign in to the web app with (QUIRE_OIDC_*); unset, none. */
  oidc?: OidcSettings;
  /** Set when no TEMPORAL_ADDRESS was given: the ports of the dev server `npm start` runs. */
  localTemporal?: { port: number; uiPort: number };
}

/** `7d`, `30s`, `500ms`, `1.5h`: a duration in milliseconds (an admin command's `--expires`, a test's settings). */
export function parseDuration(text: string, name: string): number {
  const value = duration.parse(text);
  if (value === undefined) throw new Error(`${name} must be ${duration.accepts}, got "${text}"`);
  return value;
}

/** 100 requests a second on average, in one-minute windows: far above what a person or a renderer sends. */
export const defaultRateLimit = '6000/1m';

/** The server's configuration, from the environment's settings (docs/configuration.md). */
export const configFromEnv = (env: NodeJS.ProcessEnv = process.env): Config => configFromSettings(readSettings(env));

/** The server's configuration, from the settings config/ read. */
export function configFromSettings(settings: Settings): Config {
  const rateLimit = settings.QUIRE_RATE_LIMIT;
  return {
    port: settings.PORT,
    host: settings.HOST,
    dataDir: path.resolve(settings.DATA_DIR),
    databaseUrl: settings.QUIRE_DATABASE_URL,
    publicUrl: settings.QUIRE_PUBLIC_URL,
    bootstrap: settings.QUIRE_BOOTSTRAP_TOKEN ? { token: settings.QUIRE_BOOTSTRAP_TOKEN, email: settings.QUIRE_BOOTSTRAP_EMAIL, organizationTitle: settings.QUIRE_BOOTSTRAP_ORGANIZATION } : undefined,
    bodyLimitBytes: settings.QUIRE_BODY_LIMIT,
    accessLog: settings.QUIRE_ACCESS_LOG,
    lightReads: settings.QUIRE_LIGHT_READS,
    spaceRetentionMs: settings.QUIRE_SPACE_RETENTION,
    downloadUrlWindowMs: settings.QUIRE_DOWNLOAD_URL_WINDOW,
    organizationCreation: settings.QUIRE_ORG_CREATION,
    runWorker: settings.QUIRE_WORKER,
    rateLimit: rateLimit === 'off' ? undefined : rateLimit,
    storage: settings.QUIRE_STORAGE,
    nodeUrl: settings.QUIRE_NODE_URL,
    metricsToken: settings.QUIRE_METRICS_TOKEN,
    oidc: settings.QUIRE_OIDC_ISSUER
      ? { issuer: settings.QUIRE_OIDC_ISSUER, clientId: settings.QUIRE_OIDC_CLIENT_ID!, clientSecret: settings.QUIRE_OIDC_CLIENT_SECRET!, label: settings.QUIRE_OIDC_LABEL }
      : undefined,
    ...temporalFromSettings(settings),
  };
}
