import type { Settings } from '../../config/index.js';
import { configureCacheBudget, configureWorkerPool } from '../../engine/index.js';
import { configureIntegrations, integrationsFromSettings } from './integrations.js';

/**
 * Gives the engine and the domain the settings they work with, once, at the start of a process
 * (the API, a worker, an admin command): they never read the environment themselves.
 */
export function applySettings(settings: Settings): void {
  configureCacheBudget(settings.QUIRE_CACHE_MB * 1024 * 1024);
  configureWorkerPool({ taskLimitMs: settings.QUIRE_TASK_LIMIT_MS });
  configureIntegrations(integrationsFromSettings(settings));
}
