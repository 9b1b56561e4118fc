import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { errorFields, log } from '../domain/common/log.js';
import { closeWorkerPool, localSpaceRepositories } from '../engine/index.js';
import { databaseLocation, openDatabase } from '../storage/db.js';
import { stopOnSignals } from './runtime/stopOnSignals.js';
import { closeEmbeddingThread } from '../domain/conversations/index.js';
import { closeSharedBrowser } from '../domain/pdf/index.js';
import { readSettings } from '../config/index.js';
import { applySettings } from '../domain/common/processSettings.js';
import { temporalFromSettings } from './settings.js';
import { startWorkers } from './worker.js';
import { storageOfSpace } from '../domain/storages/index.js';
import { JobClient } from './client.js';

/**
 * `npm run worker`: a worker alone, for running more of them (or running them apart from the
 * API). It needs the same DATA_DIR as the API (shared storage on a cluster) and a Temporal
 * server: TEMPORAL_ADDRESS, or the local dev server `npm start` runs.
 */
async function main() {
  const values = readSettings();
  applySettings(values);
  const dataDir = path.resolve(values.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const settings = temporalFromSettings(values).temporal;
  const db = await openDatabase(databaseLocation(dataDir, values.QUIRE_DATABASE_URL));
  // On a storage node (QUIRE_STORAGE) the worker also runs the jobs on that storage's repositories.
  const storage = values.QUIRE_STORAGE;
  const repositories = localSpaceRepositories(dataDir, storage === undefined ? {} : { storage, onlyPresent: true });
  // Jobs the worker's own work starts (a renderer's revalidation after an import) go through a client of its own.
  const jobs = new JobClient(settings, storage === undefined ? undefined : (spaceId) => storageOfSpace(db, spaceId));
  const worker = await startWorkers(settings, { db, repositories, dataDir, jobs });
  log.info('Quire worker is running', { pid: process.pid, temporal: settings.address, taskQueue: settings.taskQueue, ...(settings.storage && { storage: settings.storage }), dataDir });

  stopOnSignals(
    async (step) => {
      // Activities waiting on a worker thread (a bundle being parsed) end now instead of holding the stop.
      await Promise.all([step('worker', () => worker.stop()), step('threads', () => closeWorkerPool())]);
      await step('browser', () => closeSharedBrowser());
      // After the worker: a consolidation it stopped must not see the model vanish and save a grouping by words.
      await step('embedding thread', () => closeEmbeddingThread());
      await step('jobs', () => jobs.close());
      await step('database', () => db.close());
    },
    { graceMs: 5000, watchParent: true },
  );
}

main().catch((error) => {
  log.error('the worker could not start', errorFields(error));
  process.exit(1);
});
