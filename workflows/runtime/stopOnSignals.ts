import { errorFields, log } from '../../domain/common/log.js';

/** How often the parent process is looked for (see `watchParent`). */
const parentPollMs = 500;

/**
 * Runs `close` once on SIGTERM, SIGINT or SIGHUP (and, with `watchParent`, when the process that
 * started this one is gone: `npm start` killed with SIGKILL), then exits: 0 when it finishes, 1
 * when it fails or outlasts `graceMs`, after `onGiveUp` has had its say.
 */
export function stopOnSignals(close: () => Promise<unknown>, options: { graceMs: number; onGiveUp?: () => void; watchParent?: boolean }): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`shutting down: ${reason}`);
    // In-flight requests and activities get a grace period; then the process ends whatever is left open.
    setTimeout(() => {
      log.error(`shutdown took over ${options.graceMs} ms: exiting with work left open`);
      options.onGiveUp?.();
      process.exit(1);
    }, options.graceMs).unref();
    close().then(
      () => {
        log.info('stopped');
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
