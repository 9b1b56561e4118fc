/** How many requests one caller may make per window (QUIRE_RATE_LIMIT). */
export interface RateLimit {
  requests: number;
  windowMs: number;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window ends, in ms since the epoch. */
  resetAt: number;
  allowed: boolean;
}

/**
 * Fixed-window counters per caller, in this process's memory: each window starts with the
 * caller's first request in it. A process serving a share of the traffic (scale-out) counts its
 * own share. Counters of ended windows are dropped as new ones are made.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweptAt = 0;

  constructor(readonly limit: RateLimit) {}

  take(caller: string, now = Date.now()): RateLimitState {
    this.sweep(now);
    let window = this.windows.get(caller);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.limit.windowMs };
      this.windows.set(caller, window);
    }
    window.count += 1;
    const allowed = window.count <= this.limit.requests;
    return { limit: this.limit.requests, remaining: Math.max(0, this.limit.requests - window.count), resetAt: window.resetAt, allowed };
  }

  private sweep(now: number) {
    if (now - this.sweptAt < this.limit.windowMs) return;
    this.sweptAt = now;
    for (const [caller, window] of this.windows) if (window.resetAt <= now) this.windows.delete(caller);
  }
}

/** `off`, or `<requests>/<duration>` (`6000/1m`, `100/10s`). */
export function parseRateLimit(text: string, parseDuration: (text: string, name: string) => number): RateLimit | undefined {
  if (text.trim() === 'off') return undefined;
  const match = /^\s*(\d+)\s*\/\s*(\S+)\s*$/.exec(text);
  if (!match || Number(match[1]) < 1) throw new Error(`QUIRE_RATE_LIMIT must be "off" or <requests>/<duration> such as 6000/1m, got "${text}"`);
  return { requests: Number(match[1]), windowMs: parseDuration(match[2]!, 'QUIRE_RATE_LIMIT') };
}
