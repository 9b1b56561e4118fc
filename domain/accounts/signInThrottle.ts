/**
 * Failed sign-ins, counted under keys (an email, an address), each with the failures it allows
 * free: past them, each further attempt waits twice as long as the last (1 s, 2 s, 4 s … up to
 * 15 minutes), whatever the password. Kept in the process: a node of a cluster counts its own
 * (docs/app.md).
 */
const longestWaitMs = 15 * 60_000;

export interface ThrottleKey {
  key: string;
  /** Failures in a row before the first wait. */
  free: number;
}

interface Failures {
  count: number;
  until: number;
}

export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Seconds to wait before another attempt may be checked, or 0. */
  waitSeconds(keys: string[]): number {
    const now = this.clock();
    const until = Math.max(0, ...keys.map((key) => this.failures.get(key)?.until ?? 0));
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  failed(keys: ThrottleKey[]): void {
    const now = this.clock();
    for (const { key, free } of keys) {
      const count = (this.failures.get(key)?.count ?? 0) + 1;
      const waitMs = count <= free ? 0 : Math.min(longestWaitMs, 1000 * 2 ** Math.min(20, count - free - 1));
      this.failures.set(key, { count, until: now + waitMs });
    }
    if (this.failures.size > 100_000) this.forgetExpired(now);
  }

  succeeded(keys: string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private forgetExpired(now: number) {
    for (const [key, entry] of this.failures) if (entry.until <= now - longestWaitMs) this.failures.delete(key);
  }
}
