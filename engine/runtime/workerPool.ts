import { availableParallelism } from 'node:os';
import { SHARE_ENV } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { cacheBudget } from './cacheBudget.js';
import { WorkTooCostlyError } from '../errors/index.js';

/**
 * The worker threads that CPU-heavy work on user input runs in (parsing markdown, converting
 * Documents, redacting), so that no request holds the event loop for the others. Each task has a
 * time limit; a task past it is stopped (its thread terminated) and fails with WorkTooCostlyError.
 */
export interface WorkerPoolSettings {
  /** The longest one task may run. */
  taskLimitMs: number;
  threads: number;
}

let settings: WorkerPoolSettings = {
  taskLimitMs: 10_000,
  // One core stays with the event loop: the requests that aren't parsing anything.
  threads: Math.max(1, availableParallelism() - 1),
};
let pool: Piscina | undefined;
/** Counted across pools: a pool is remade after a shutdown (tests start several servers). */
const counts = { running: 0, completed: 0, stopped: 0 };
/** Tasks finished, by the name of the function they ran. */
const completedByTask = new Map<string, number>();

/** Settings for the pool made after this call (`QUIRE_TASK_LIMIT_MS`, given at start; 10 s until then). */
export function configureWorkerPool(next: Partial<WorkerPoolSettings>): void {
  settings = { ...settings, ...next };
}

export const workerTaskLimitMs = () => settings.taskLimitMs;

/**
 * Runs the function `name` exported by the module at `task` (a file URL) in the pool, with
 * `input` cloned to it. `subject` names the input in the error a stopped task answers; `limitMs`
 * replaces the pool's limit for work that also waits on the network.
 */
export async function runInPool<T>(task: URL, name: string, input: unknown, subject: string, options: { limitMs?: number } = {}): Promise<T> {
  pool ??= listenedPool({ minThreads: 1, maxThreads: settings.threads, idleTimeout: 30_000 }, 'a worker thread', () => pool);
  const limitMs = options.limitMs ?? settings.taskLimitMs;
  counts.running += 1;
  try {
    const result = (await pool.run(input, { filename: task.href, name, signal: AbortSignal.timeout(limitMs) })) as T;
    counts.completed += 1;
    completedByTask.set(name, (completedByTask.get(name) ?? 0) + 1);
    return result;
  } catch (error) {
    if ((error as Error | undefined)?.name === 'AbortError' || (error as Error | undefined)?.name === 'TimeoutError') {
      counts.stopped += 1;
      throw new WorkTooCostlyError(subject, limitMs);
    }
    throw error;
  } finally {
    counts.running -= 1;
  }
}

/**
 * A piscina pool (threads sharing the process's environment as it is now) whose 'error' events
 * are logged while `current()` is this pool, and ignored once it isn't: a pool being destroyed
 * reports the answer of a task it had already failed that way, which unheard would end the process
 * in the middle of its shutdown. `what` names its threads in the log.
 */
export function listenedPool(options: { minThreads: number; maxThreads: number; idleTimeout: number; niceIncrement?: number }, what: string, current: () => Piscina | undefined): Piscina {
  const created = new Piscina({ ...options, atomics: 'disabled', env: SHARE_ENV, workerData: { cacheBudgetBytes: cacheBudget() } });
  created.on('error', (error: Error) => {
    if (current() === created) console.error(JSON.stringify({ level: 'warn', message: `${what} failed: ${error.message}` }));
  });
  return created;
}

/** What `GET /metrics` reports of the pool. */
export function workerPoolStats(): { threads: number; queued: number; running: number; completed: number; stopped: number; completedByTask: ReadonlyMap<string, number> } {
  return { threads: pool?.threads.length ?? 0, queued: pool?.queueSize ?? 0, ...counts, completedByTask };
}

/** Stops every thread, busy ones too: what a shutdown calls so that it never waits on a task. */
export async function closeWorkerPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}

/** The module beside `from` named `name`, with `from`'s own extension (`.ts` under tsx, `.js` once built). */
export function siblingModule(from: string, name: string): URL {
  const extension = from.slice(from.lastIndexOf('.'));
  return new URL(`./${name}${extension}`, from);
}
