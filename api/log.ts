/**
 * Structured log lines on stdout, written in batches: one write per turn of the event loop
 * instead of one per request, which is most of what logging costs under load.
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

export function logLine(entry: Record<string, unknown>): void {
  pending += JSON.stringify(entry) + '\n';
  if (pending.length > 64 * 1024) flush();
  else if (!scheduled) {
    scheduled = true;
    setTimeout(flush, 50).unref();
  }
}
