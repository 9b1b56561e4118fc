/**
 * Runs `close` once on SIGTERM or SIGINT, then exits: 0 when
 * it finishes, 1 when it fails or outlasts `graceMs`, after `onGiveUp` has had its say.
 */
export function stopOnSignals(close: () => Promise<unknown>, options: { graceMs: number; onGiveUp?: () => void }): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    console.warn(JSON.stringify({ level: 'info', message: `shutting down: ${reason}` }));
    // In-flight requests and activities get a grace period; then the process ends whatever is left open.
    setTimeout(() => {
      console.error(JSON.stringify({ level: 'error', message: `shutdown took over ${options.graceMs} ms: exiting with work left open` }));
      options.onGiveUp?.();
      process.exit(1);
    }, options.graceMs).unref();
    close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('received SIGTERM'));
  process.on('SIGINT', () => stop('received SIGINT'));
}
