/**
 * A pause for long loops over a large space (10,000 pages): `await pause()` between items lets
 * the event loop serve other requests once this turn has run for `budgetMs`, so one loop is
 * several short blocks instead of one long one. Cheap when there is time left: a clock read.
 */
export function turnPauser(budgetMs = 2): () => Promise<void> | undefined {
  let started = performance.now();
  return () => {
    if (performance.now() - started < budgetMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        started = performance.now();
        resolve();
      }),
    );
  };
}
