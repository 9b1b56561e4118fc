/**
 * The one logger of the API, the workers and the commands: JSON lines. Information (the access
 * log among it) goes to stdout in batches, one write per 50 ms instead of one per line, which
 * with JSON encoding is most of what logging costs under load; warnings and errors go to stderr
 * at once, so a crash never loses its reason.
 */
let pending = '';
let scheduled = false;

function flush() {
  scheduled = false;
  if (!pending) return;
  const chunk = pending;
  pending = '';
  process.stdout.write(chunk);
}

process.on('exit', flush);

function append(line: string) {
  pending += line;
  if (pending.length > 64 * 1024) flush();
  else if (!scheduled) {
    scheduled = true;
    setTimeout(flush, 50).unref();
  }
}

let lastMillis = 0;
let lastTime = '';

function now(): string {
  const millis = Date.now();
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastTime = new Date(millis).toISOString();
  }
  return lastTime;
}

export type Level = 'info' | 'warn' | 'error';

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  const line = `${JSON.stringify({ time: now(), level, message, ...fields })}\n`;
  if (level === 'info') append(line);
  else process.stderr.write(line);
}

/** The field worth logging from a thrown value: the first line of its message (`withStack`: and its stack). */
export function errorFields(error: unknown, withStack = false): { error: string; stack?: string } {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return withStack && error instanceof Error ? { error: message, stack: error.stack } : { error: message };
}

export const log = {
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
  /** Writes what is pending now: before a process exits on purpose. */
  flush,
};

/**
 * The access-log line of one request, JSON built by hand because it is written for every
 * request: the id, method and user id are plain tokens already (see requestContext), only the
 * path needs escaping.
 */
export function logRequest(request: { requestId: string; method: string; path: string; status: number; durationMs: number; userId?: string }): void {
  append(
    `{"time":"${now()}","level":"info","requestId":"${request.requestId}","method":"${request.method}","path":${JSON.stringify(request.path)},` +
      `"status":${request.status},"durationMs":${Math.round(request.durationMs * 100) / 100}${request.userId ? `,"user":"${request.userId}"` : ''}}\n`,
  );
}
