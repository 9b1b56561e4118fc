/**
 * Polls `check` until it returns a truthy value, and returns that value; throws naming `what`
 * once `deadlineMs` has passed. The deadline only bounds a wait for something that must happen:
 * how long it takes is a benchmark's business, not a test's.
 */
export async function until<T>(what: string, check: () => Promise<T> | T, deadlineMs = 10_000, everyMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`gave up after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
