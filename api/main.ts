import { startLocalTemporal } from '../workflows/runtime/localTemporal.js';
import { stopOnSignals } from '../workflows/runtime/stopOnSignals.js';
import { ensureDeletionJobs } from '../domain/spaces/index.js';
import { errorFields, log } from '../domain/common/log.js';
import { configFromEnv } from './config.js';
import { startServer } from './server.js';

const shutdownGraceMs = 4500;

/** `npm start`: the API and a worker in one process, and a local Temporal dev server unless TEMPORAL_ADDRESS names one. */
async function main() {
  const config = configFromEnv();
  // The worker's modules (about a third of a second) load while the dev server and the API start; not at all without a worker.
  const workerModule = config.runWorker ? import('../workflows/worker.js') : undefined;
  workerModule?.catch(() => undefined); // its failure is reported where it is awaited
  const devServer = config.localTemporal
    ? await startLocalTemporal({ dataDir: config.dataDir, ...config.localTemporal, namespace: config.temporal.namespace })
    : undefined;
  // The dev server's own address: its port may have been chosen as it started (QUIRE_TEMPORAL_PORT=0).
  if (devServer) config.temporal = { ...config.temporal, address: devServer.address };
  const server = await startServer(config).catch(async (error) => {
    await devServer?.stop();
    throw error;
  });
  // Ready once the worker polls too: started after "ready", its start-up would slow the first requests.
  const worker = workerModule
    ? await workerModule
        .then(({ startWorkers }) => startWorkers(config.temporal, { db: server.db, repositories: server.repositories, dataDir: config.dataDir, jobs: server.jobs }))
        .catch(async (error) => {
          await server.close();
          await devServer?.stop();
          throw error;
        })
    : undefined;
  const reconciling = reconcileJobs(async () => {
    await server.jobs.ensureRepositoryMaintenance();
    return ensureDeletionJobs({ db: server.db, jobs: server.jobs, retentionMs: config.spaceRetentionMs });
  });
  log.info('Quire is ready', {
    url: server.url,
    pid: process.pid,
    dataDir: config.dataDir,
    temporal: config.temporal.address,
    worker: config.runWorker,
    startMs: Math.round(performance.now()),
    ...(devServer?.uiUrl && { temporalUi: devServer.uiUrl }),
  });

  stopOnSignals(
    async (step) => {
      reconciling.stop();
      // The worker first: its activities use the database the server closes.
      if (worker) await step('worker', () => worker.stop());
      await server.close(step);
      if (devServer) await step('temporal', () => devServer.stop());
    },
    { graceMs: shutdownGraceMs, onGiveUp: () => void devServer?.stop(), watchParent: true },
  );
}

/** Retries until Temporal has taken every job (the maintenance schedule, the purges), without holding up the start. */
function reconcileJobs(run: () => Promise<number>): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = (delayMs: number) => {
    run().then(
      (count) => count > 0 && log.info(`checked the purge jobs of ${count} deleted spaces`),
      () => {
        if (!stopped) timer = setTimeout(() => attempt(Math.min(delayMs * 2, 60_000)), delayMs);
      },
    );
  };
  attempt(1000);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

main().catch((error) => {
  log.error('Quire could not start', errorFields(error));
  process.exit(1);
});
