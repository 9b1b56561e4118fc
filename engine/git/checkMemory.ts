/**
 * The bytes of pushed files that the checks of every push under way may hold at once (their
 * text, while it is checked): a check waits for room rather than going past it. Three pushes of
 * a 400 MB page once took 4.1 GB of a 4.3 GB heap together; now none reads a file over the size
 * limit, and all of them together hold this much at most.
 */
export const checkMemoryBytes = 64 * 1024 * 1024;

let held = 0;
let waiting: Array<() => void> = [];

/** Runs `work` once `bytes` (at most the whole budget) are free, and frees them after it. */
export async function holdingCheckMemory<T>(bytes: number, work: () => Promise<T>): Promise<T> {
  const need = Math.min(bytes, checkMemoryBytes);
  while (held > 0 && held + need > checkMemoryBytes) await new Promise<void>((resolve) => waiting.push(resolve));
  held += need;
  try {
    return await work();
  } finally {
    held -= need;
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  }
}

/** What the checks hold now, for tests and metrics. */
export const checkMemoryHeld = () => held;
