import { errorFields, log } from '../../domain/common/log.js';

/** How often the parent process is looked for (see `watchParent`). */
const parentPollMs = 500;

/** Runs one named step of a shutdown; its duration goes into the "stopped" line. */
export type ShutdownStep = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/**
 * Runs `close` once on SIGTERM, SIGINT or SIGHUP (and, with `watchParent`, when the process that
 * started this one is gone: `npm start` killed with SIGKILL), then exits: 0 when it finishes, 1
 * when it fails or outlasts `graceMs`, after `onGiveUp` has had its say. Each step `close` names
 * is timed, so a slow shutdown says where its time went.
 */
export function stopOnSignals(close: (step: ShutdownStep) => Promise<unknown>, options: { graceMs: number; onGiveUp?: () => void; watchParent?: boolean }): void {
  let stopping = false;
  const stepMs: Record<string, number> = {};
  const underWay = new Set<string>();
  const step: ShutdownStep = async (name, run) => {
    const started = performance.now();
    underWay.add(name);
    try {
      return await run();
    } finally {
      underWay.delete(name);
      stepMs[name] = Math.round(performance.now() - started);
    }
  };
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    log.info(`shutting down: ${reason}`);
    // In-flight requests and activities get a grace period; then the process ends whatever is left open.
    // The timer keeps the process up: a step waiting on something that holds no handle would otherwise
    // let the event loop drain and the process end silently, without "stopped" or the steps under way.
    setTimeout(() => {
      log.error(`shutdown took over ${options.graceMs} ms: exiting with work left open`, { underWay: [...underWay], stepMs });
      options.onGiveUp?.();
      process.exit(1);
    }, options.graceMs);
    close(step).then(
      () => {
        log.info('stopped', { ms: Math.round(performance.now() - started), stepMs });
        log.flush();
        process.exit(0);
      },
      (error) => {
        log.error('shutdown failed', errorFields(error));
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(`received ${signal}`));
  if (options.watchParent) {
    // An orphan is re-parented (to init or a subreaper): its parent id changes.
    const parent = process.ppid;
    const timer = setInterval(() => process.ppid !== parent && stop(`its parent process (${parent}) exited`), parentPollMs);
    timer.unref();
  }
}
