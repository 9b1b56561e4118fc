import type { RunningWorker } from '../workflows/worker.js';
import { startLocalTemporal } from '../workflows/runtime/localTemporal.js';
import { stopOnSignals } from '../workflows/runtime/stopOnSignals.js';
import { ensureDeletionJobs } from '../domain/spaces/index.js';
import { closeSharedBrowser } from '../domain/pdf/index.js';
import { errorFields, log } from '../domain/common/log.js';
import { readSettings } from '../config/index.js';
import { applySettings } from '../domain/common/processSettings.js';
import { configFromSettings, type Config } from './config.js';
import { startServer } from './server.js';

const shutdownGraceMs = 4500;
/** The worker starts once no request has been in flight for this long after the ready line… */
const startQuietMs = 100;
/** …or this long after it, whatever the traffic. */
const startWaitMs = 2000;

/** `npm start`: the API and a worker in one process, and a local Temporal dev server unless TEMPORAL_ADDRESS names one. */
async function main() {
  const settings = readSettings();
  applySettings(settings);
  const config = configFromSettings(settings);
  const devServer = config.localTemporal ? await startLocalTemporal({ dataDir: config.dataDir, ...config.localTemporal, namespace: config.temporal.namespace }) : undefined;
  // The dev server's own address: its port may have been chosen as it started (QUIRE_TEMPORAL_PORT=0).
  if (devServer) config.temporal = { ...config.temporal, address: devServer.address };
  const server = await startServer(config).catch(async (error) => {
    await devServer?.stop();
    throw error;
  });
  // The worker (its modules and Worker.create take about 0.7 s of this thread) and the jobs'
  // reconciliation start once the API serves and its first requests are answered: a job asked for
  // meanwhile waits in Temporal's queue until the worker polls.
  const quiet = server.quiet(startQuietMs, startWaitMs);
  let stopping = false;
  const reconciling = reconcileJobs(async () => {
    await quiet;
    if (stopping) return 0;
    await server.jobs.ensureRepositoryMaintenance();
    await server.jobs.ensureOpenAPIRefresh();
    await server.jobs.ensureAuditRetention();
    return ensureDeletionJobs({ db: server.db, jobs: server.jobs, retentionMs: config.spaceRetentionMs });
  });
  // Not started at all when a stop comes first.
  let worker: Promise<RunningWorker | undefined> | undefined;
  void quiet.then(() => {
    if (stopping || !config.runWorker) return;
    worker = startWorker(config, server, () => stopping);
    worker.catch(async (error: unknown) => {
      if (stopping) return; // the stop under way ends the process
      stopping = true;
      log.error('Quire could not start its worker', errorFields(error));
      reconciling.stop();
      await closeServer().catch(() => undefined);
      await devServer?.stop().catch(() => undefined);
      process.exit(1);
    });
  });
  // One close, whichever of the stop and a failed start asks first.
  let closing: Promise<void> | undefined;
  const closeServer = (step?: Parameters<typeof server.close>[0]) => (closing ??= server.close(step));

  stopOnSignals(
    async (step) => {
      stopping = true;
      reconciling.stop();
      // The worker first: its activities use the database the server closes. One still starting is
      // awaited, then stopped.
      const started = worker;
      if (started) await step('worker', async () => (await started.catch(() => undefined))?.stop());
      await closeServer(step);
      // The in-process worker's PDF browser: closed, its profile folder goes with it.
      await step('browser', () => closeSharedBrowser());
      if (devServer) await step('temporal', () => devServer.stop());
    },
    { graceMs: shutdownGraceMs, onGiveUp: () => void devServer?.stop(), watchParent: true },
  );
  // Written once a stop is handled: a SIGTERM sent on seeing it stops Quire gracefully.
  log.info('Quire is ready', {
    url: server.url,
    pid: process.pid,
    dataDir: config.dataDir,
    temporal: config.temporal.address,
    worker: config.runWorker,
    startMs: Math.round(performance.now()),
    ...(devServer?.uiUrl && { temporalUi: devServer.uiUrl }),
  });
  log.flush(); // now: the worker's start may hold this thread past the log's next batch
}

/**
 * Starts the worker, unless a stop came while its modules loaded. Resolves after its first attempt
 * to connect and poll: a failed one is logged by the worker and tried again.
 */
async function startWorker(config: Config, server: Awaited<ReturnType<typeof startServer>>, stopping: () => boolean): Promise<RunningWorker | undefined> {
  const { startWorkers } = await import('../workflows/worker.js');
  if (stopping()) return undefined;
  const worker = await startWorkers(config.temporal, { db: server.db, repositories: server.repositories, dataDir: config.dataDir, jobs: server.jobs });
  log.info('the worker started', { taskQueue: config.temporal.taskQueue, startMs: Math.round(performance.now()) });
  return worker;
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
