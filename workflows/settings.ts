export interface TemporalSettings {
  /** host:port of the Temporal frontend (TEMPORAL_ADDRESS). */
  address: string;
  namespace: string;
  /** The task queue this deployment's workers poll; one per deployment sharing a Temporal server. */
  taskQueue: string;
  /** How often the conversations consolidation schedule runs (QUIRE_CONSOLIDATION_MINUTES, default 60). */
  consolidationEveryMs?: number;
  /**
   * How long an organization's posts must go quiet before its clusters are consolidated
   * (QUIRE_CONSOLIDATION_QUIET_SECONDS, default 10; 0 leaves it to the schedule).
   */
  consolidateWhenQuietMs?: number;
  /** How often the repository maintenance schedule runs (QUIRE_REPACK_MINUTES, default 60). */
  repackEveryMs?: number;
  /** The loose objects past which a repository is repacked (QUIRE_REPACK_LOOSE_OBJECTS, default 1000). */
  repackLooseObjects?: number;
  /** How often OpenAPI specifications with a source URL are fetched and processed again (QUIRE_OPENAPI_REFRESH_MINUTES, default 360). */
  openapiRefreshEveryMs?: number;
  /** The site renderer told when published content changes (QUIRE_RENDERER_URL, QUIRE_RENDERER_SECRET). */
  renderer?: RendererSettings;
  /**
   * On storage nodes (QUIRE_STORAGE): the storage this node keeps. Jobs that touch a space's
   * repository run on its storage's queue (`<taskQueue>@<storage>`), which only that node's
   * workers poll; every worker polls `taskQueue` for the others.
   */
  storage?: string;
}

/** The task queue of a storage's jobs: polled by the workers of the node that keeps it. */
export const storageTaskQueue = (taskQueue: string, storage: string) => `${taskQueue}@${storage}`;

export interface RendererSettings {
  url: string;
  secret: string;
}

/** QUIRE_RENDERER_URL and QUIRE_RENDERER_SECRET, both or neither. */
function rendererFrom(env: NodeJS.ProcessEnv): RendererSettings | undefined {
  const url = env.QUIRE_RENDERER_URL;
  const secret = env.QUIRE_RENDERER_SECRET;
  if (!url && !secret) return undefined;
  if (!url || !secret) throw new Error('QUIRE_RENDERER_URL and QUIRE_RENDERER_SECRET go together: set both, or neither');
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new Error(`QUIRE_RENDERER_URL must be an http(s) URL, got ${url}`);
  }
  return { url: url.replace(/\/+$/, ''), secret };
}

/** A port number, or 0 for any free one. */
function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const port = Number(env[name] ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0: any free one), got ${env[name]}`);
  return port;
}

function minutesFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const minutes = Number(env[name] ?? fallback);
  if (!Number.isFinite(minutes) || minutes < 1) throw new Error(`${name} must be a number of minutes (at least 1), got ${env[name]}`);
  return minutes;
}

function secondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const seconds = Number(env[name] ?? fallback);
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`${name} must be a number of seconds (0 or more), got ${env[name]}`);
  return seconds;
}

function countFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const count = Number(env[name] ?? fallback);
  if (!Number.isInteger(count) || count < 1) throw new Error(`${name} must be a whole number (at least 1), got ${env[name]}`);
  return count;
}

/**
 * TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and QUIRE_TASK_QUEUE. Without an address, `local` holds the
 * ports of the dev server `npm start` runs itself (QUIRE_TEMPORAL_PORT, QUIRE_TEMPORAL_UI_PORT).
 */
export function temporalFromEnv(env: NodeJS.ProcessEnv): { temporal: TemporalSettings; localTemporal?: { port: number; uiPort: number } } {
  const local = env.TEMPORAL_ADDRESS ? undefined : { port: portFrom(env, 'QUIRE_TEMPORAL_PORT', 7233), uiPort: portFrom(env, 'QUIRE_TEMPORAL_UI_PORT', 8233) };
  return {
    temporal: {
      address: env.TEMPORAL_ADDRESS ?? `127.0.0.1:${local!.port}`,
      namespace: env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: env.QUIRE_TASK_QUEUE ?? 'quire',
      consolidationEveryMs: minutesFrom(env, 'QUIRE_CONSOLIDATION_MINUTES', 60) * 60_000,
      consolidateWhenQuietMs: secondsFrom(env, 'QUIRE_CONSOLIDATION_QUIET_SECONDS', 10) * 1000,
      repackEveryMs: minutesFrom(env, 'QUIRE_REPACK_MINUTES', 60) * 60_000,
      repackLooseObjects: countFrom(env, 'QUIRE_REPACK_LOOSE_OBJECTS', 1000),
      openapiRefreshEveryMs: minutesFrom(env, 'QUIRE_OPENAPI_REFRESH_MINUTES', 360) * 60_000,
      renderer: rendererFrom(env),
      storage: env.QUIRE_STORAGE && env.QUIRE_STORAGE !== 'none' ? env.QUIRE_STORAGE : undefined,
    },
    localTemporal: local,
  };
}
