/**
 * Structured log lines on stdout, written in batches: one write per 50 ms instead of one per
 * request, which with JSON encoding is most of what logging costs under load.
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

/**
 * The access-log line of one request, JSON built by hand
 * because it is written for every request: the id, method and user id are plain tokens already
 * (see requestContext), only the path needs escaping.
 */
export function logRequest(request: { requestId: string; method: string; path: string; status: number; durationMs: number; userId?: string }): void {
  const millis = Date.now();
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastTime = new Date(millis).toISOString();
  }
  append(
    `{"time":"${lastTime}","level":"info","requestId":"${request.requestId}","method":"${request.method}","path":${JSON.stringify(request.path)},` +
      `"status":${request.status},"durationMs":${Math.round(request.durationMs * 100) / 100}${request.userId ? `,"user":"${request.userId}"` : ''}}\n`,
  );
}
