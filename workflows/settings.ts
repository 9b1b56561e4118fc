import { readSettings, type Settings } from '../config/index.js';

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
  /** How long the audit log keeps an event (QUIRE_AUDIT_RETENTION, default 365 days). */
  auditRetentionMs?: number;
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

/**
 * TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, QUIRE_TASK_QUEUE and the jobs' schedules, from the settings
 * config/ read. Without an address, `local` holds the ports of the dev server `npm start` runs
 * itself (QUIRE_TEMPORAL_PORT, QUIRE_TEMPORAL_UI_PORT).
 */
export function temporalFromSettings(settings: Settings): { temporal: TemporalSettings; localTemporal?: { port: number; uiPort: number } } {
  const local = settings.TEMPORAL_ADDRESS ? undefined : { port: settings.QUIRE_TEMPORAL_PORT, uiPort: settings.QUIRE_TEMPORAL_UI_PORT };
  return {
    temporal: {
      address: settings.TEMPORAL_ADDRESS ?? `127.0.0.1:${local!.port}`,
      namespace: settings.TEMPORAL_NAMESPACE,
      taskQueue: settings.QUIRE_TASK_QUEUE,
      consolidationEveryMs: settings.QUIRE_CONSOLIDATION_MINUTES * 60_000,
      consolidateWhenQuietMs: settings.QUIRE_CONSOLIDATION_QUIET_SECONDS * 1000,
      repackEveryMs: settings.QUIRE_REPACK_MINUTES * 60_000,
      repackLooseObjects: settings.QUIRE_REPACK_LOOSE_OBJECTS,
      openapiRefreshEveryMs: settings.QUIRE_OPENAPI_REFRESH_MINUTES * 60_000,
      auditRetentionMs: settings.QUIRE_AUDIT_RETENTION,
      renderer: settings.QUIRE_RENDERER_URL && settings.QUIRE_RENDERER_SECRET ? { url: settings.QUIRE_RENDERER_URL, secret: settings.QUIRE_RENDERER_SECRET } : undefined,
      storage: settings.QUIRE_STORAGE && settings.QUIRE_STORAGE !== 'none' ? settings.QUIRE_STORAGE : undefined,
    },
    localTemporal: local,
  };
}

/** temporalFromSettings of the environment's settings. */
export const temporalFromEnv = (env: NodeJS.ProcessEnv) => temporalFromSettings(readSettings(env));
