/** `answer`, or a rejection with `failure()` once `limitMs` have passed without it (its timer cleared either way). */
export function withinTime<T>(answer: Promise<T>, limitMs: number, failure: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure()), limitMs);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}
