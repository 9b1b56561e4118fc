import type { AsyncLocalStorage } from 'node:async_hooks';

/**
 * On Node 20, once an AsyncLocalStorage has run, every promise the process makes is hooked (its
 * context carried on to the next) until that storage is disabled. Temporal's client and worker
 * run theirs around each call to the service and each activity: from the first job on, the
 * API's reads, which make many promises, paid for the hooks for good (a tenth of a small read's
 * CPU in its profile). A storage given here is disabled whenever none of them is running, so the
 * hooks are on only while a call or an activity runs; its next `run` turns them on again.
 */
const storages = new Set<WeakRef<AsyncLocalStorage<unknown>>>(); // weak: a closed connection's goes with it
const tracking = Symbol('tracked');
let running = 0;

export function hooksOnlyWhileRunning<T>(storage: AsyncLocalStorage<T>): void {
  const tracked = storage as AsyncLocalStorage<unknown> & { [tracking]?: true };
  if (tracked[tracking]) return;
  tracked[tracking] = true;
  storages.add(new WeakRef(tracked));
  const run = tracked.run.bind(tracked);
  tracked.run = ((store: unknown, callback: (...args: unknown[]) => unknown, ...args: unknown[]) => {
    running += 1;
    let result: unknown;
    try {
      result = run(store, callback, ...args);
    } catch (error) {
      ended();
      throw error;
    }
    if (result instanceof Promise) result.then(ended, ended);
    else ended();
    return result;
  }) as typeof tracked.run;
}

function ended() {
  running -= 1;
  if (running > 0) return;
  for (const reference of storages) {
    const storage = reference.deref();
    if (storage) storage.disable();
    else storages.delete(reference);
  }
}
