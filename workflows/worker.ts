import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities, type ActivityDependencies } from './activities/index.js';
import { storageTaskQueue, type TemporalSettings } from './settings.js';
import { errorFields, log } from '../domain/common/log.js';
import { asyncLocalStorage as activityContextStorage } from '@temporalio/activity';
import { hooksOnlyWhileRunning } from './runtime/asyncContextHooks.js';

export interface RunningWorker {
  /** Finishes the activities under way (up to a grace period) and stops polling. */
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/**
 * Temporal's own logs at warn and above, as JSON lines like ours; signals are the caller's to handle.
 * Once per process, before any worker or test environment makes the default runtime.
 */
export function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger('WARN', ({ level, message, meta }) => (level === 'ERROR' ? log.error : log.warn)(`temporal: ${message}`, meta && { meta })),
    // The core retries polls while Temporal is down and warns at each retry; our worker loop reports outages once.
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
    shutdownSignals: [],
  });
}

let bundle: Promise<WorkflowBundleOption> | undefined;

/**
 * The workflow bundle `npm run build` wrote beside this file, or the one QUIRE_WORKFLOW_BUNDLE names
 * (`npm test` builds one for all its processes), or one built now (under tsx: seconds of webpack).
 */
export function workflowBundle(): Promise<WorkflowBundleOption> {
  const named = process.env.QUIRE_WORKFLOW_BUNDLE;
  if (named) return existsSync(named) ? Promise.resolve({ codePath: named }) : Promise.reject(new Error(`QUIRE_WORKFLOW_BUNDLE: no file at ${named}`));
  const built = fileURLToPath(new URL('./workflow-bundle.js', import.meta.url));
  if (existsSync(built)) return Promise.resolve({ codePath: built });
  bundle ??= bundleWorkflowCode({ workflowsPath: workflowsEntry(), logger: new DefaultLogger('WARN') }).then(({ code }) => ({ code }));
  return bundle;
}

function workflowsEntry(): string {
  const source = fileURLToPath(new URL('./index.workflow.ts', import.meta.url));
  return existsSync(source) ? source : fileURLToPath(new URL('./index.workflow.js', import.meta.url));
}

const retryDelaysMs = [500, 1000, 2000, 5000];

/**
 * Polls the deployment's task queue until stopped. When Temporal is down or the worker fails,
 * it logs, waits and starts again, so a Temporal restart needs no restart of ours.
 */
export async function startWorker(settings: TemporalSettings, deps: ActivityDependencies): Promise<RunningWorker> {
  installRuntime();
  const activities = createActivities(deps, { renderer: settings.renderer });
  const workflows = await workflowBundle();
  let stopping = false;
  let current: Worker | undefined;
  let wake: (() => void) | undefined;
  let ready: () => void = () => undefined;
  const firstAttempt = new Promise<void>((resolve) => (ready = resolve));

  const loop = (async () => {
    for (let failures = 0; !stopping;) {
      let connection: NativeConnection | undefined;
      try {
        connection = await NativeConnection.connect({ address: settings.address });
        hooksOnlyWhileRunning(connection.callContextStorage);
        hooksOnlyWhileRunning(activityContextStorage);
        current = await Worker.create({
          connection,
          namespace: settings.namespace,
          taskQueue: settings.taskQueue,
          workflowBundle: workflows,
          activities,
          shutdownGraceTime: '3s',
          // Cached workflows don't replay their history on each task: the conversation job, signalled
          // by every post, would otherwise replay a longer history for each. A killed worker's cached
          // workflows go back to the shared queue after the sticky timeout, kept short for that.
          maxCachedWorkflows: 200,
          stickyQueueScheduleToStartTimeout: '1 second',
        });
        ready();
        failures = 0;
        const running = current.run();
        if (stopping) current.shutdown(); // stopped while it was being created
        await running;
      } catch (error) {
        ready(); // the caller goes on; this loop keeps trying
        if (stopping) break;
        log.warn('the Temporal worker is not running; retrying', errorFields(error));
        const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)]!;
        failures += 1;
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, delay);
        });
      } finally {
        current = undefined;
        await connection?.close().catch(() => undefined);
      }
    }
  })();
  await firstAttempt;

  return {
    stop: async () => {
      stopping = true;
      wake?.();
      if (current && current.getState() === 'RUNNING') current.shutdown();
      await loop;
    },
  };
}

/**
 * The workers of a node: on the deployment's queue, and on a storage node also on its storage's
 * queue (`<queue>@<storage>`), where the jobs on its repositories go.
 */
export async function startWorkers(settings: TemporalSettings, deps: ActivityDependencies): Promise<RunningWorker> {
  const queues = [settings.taskQueue, ...(settings.storage ? [storageTaskQueue(settings.taskQueue, settings.storage)] : [])];
  const workers = await Promise.all(queues.map((taskQueue) => startWorker({ ...settings, taskQueue }, deps)));
  return { stop: async () => void (await Promise.all(workers.map((worker) => worker.stop()))) };
}
