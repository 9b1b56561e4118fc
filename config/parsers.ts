import { isIP } from 'node:net';
/**
 * How a setting's text becomes its value: each parser says what it accepts (for the refusal and
 * for docs/configuration.md) and answers undefined for text it doesn't.
 */
export interface Parser<T> {
  accepts: string;
  parse(text: string): T | undefined;
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `7d`, `30s`, `500ms`, `1.5h`: milliseconds. */
export const duration: Parser<number> = {
  accepts: 'a duration such as 7d, 12h, 30s or 500ms',
  parse(text) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
    return match ? Number(match[1]) * units[match[2]!]! : undefined;
  },
};

/** A whole number from `min` (to `max`), written in digits only: `48MB` is no number of megabytes. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER, unit = ''): Parser<number> {
  return {
    accepts: `a whole number${unit ? ` of ${unit}` : ''} ${max === Number.MAX_SAFE_INTEGER ? `(${min} or more)` : `from ${min} to ${max}`}`,
    parse(text) {
      if (!/^\d+$/.test(text.trim())) return undefined;
      const value = Number(text.trim());
      return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
    },
  };
}

/** One of these words. */
export function oneOf<T extends string>(...values: T[]): Parser<T> {
  return {
    accepts: values
      .map((value) => `"${value}"`)
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1'),
    parse: (text) => ((values as string[]).includes(text.trim()) ? (text.trim() as T) : undefined),
  };
}

/** `on` or `off`. */
export const onOff: Parser<boolean> = { accepts: '"on" or "off"', parse: (text) => (text === 'on' ? true : text === 'off' ? false : undefined) };

/** A URL with one of these schemes, without a trailing slash. */
export function url(...schemes: string[]): Parser<string> {
  return {
    accepts: `${/^[aeiouh]/.test(schemes[0]!) ? 'an' : 'a'} ${schemes.map((scheme) => scheme.replace(/:$/, '')).join(' or ')} URL`,
    parse(text) {
      try {
        return schemes.includes(new URL(text).protocol) ? text.replace(/\/+$/, '') : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** Any text but an empty one. */
export const text: Parser<string> = { accepts: 'any text', parse: (value) => (value.length > 0 ? value : undefined) };

/** A secret of at least `length` characters: what a password is. */
export function secret(length: number): Parser<string> {
  return { accepts: `a secret of at least ${length} characters`, parse: (value) => (value.length >= length ? value : undefined) };
}

/** `host:port`. */
export const address: Parser<string> = { accepts: 'host:port', parse: (value) => (/^[^\s:/]+:\d{1,5}$/.test(value) || /^\[[0-9a-f:.]+\]:\d{1,5}$/i.test(value) ? value : undefined) };

/** Name servers, comma-separated: each an IP address, with a port or not (`192.0.2.53`, `127.0.0.1:5353`, `[2001:db8::53]:53`). */
export const nameServers: Parser<string[]> = {
  accepts: 'IP addresses of name servers, comma-separated, each with an optional port',
  parse(value) {
    const servers = value.split(',').map((server) => server.trim());
    const valid = (server: string) => isIP(server) !== 0 || /^(\d{1,3}\.){3}\d{1,3}:\d{1,5}$/.test(server) || /^\[[0-9a-f:.]+\]:\d{1,5}$/i.test(server);
    return servers.length > 0 && servers.every(valid) ? servers : undefined;
  },
};

/** `<requests>/<duration>`, or `off`. */
export const rateLimit: Parser<{ requests: number; windowMs: number } | 'off'> = {
  accepts: '"<requests>/<duration>" such as 6000/1m, or "off"',
  parse(value) {
    if (value === 'off') return 'off';
    const [requests, window] = value.split('/');
    const count = integer(1).parse(requests ?? '');
    const windowMs = duration.parse(window ?? '');
    return count !== undefined && windowMs !== undefined && windowMs > 0 ? { requests: count, windowMs } : undefined;
  },
};
