import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { workerPoolStats } from '../engine/workerPool.js';

const windowMs = 60_000;

/**
 * How long the event loop was held, measured by perf_hooks: what a request that held it would
 * show (every other request waits that long). Reported over the last complete minute.
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private last: { p50: number; p99: number; max: number } | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.histogram.enable();
    this.timer = setInterval(() => this.rotate(), windowMs).unref();
  }

  private rotate() {
    this.last = this.current();
    this.histogram.reset();
  }

  private current() {
    const ms = (ns: number) => (Number.isFinite(ns) ? ns / 1e6 : 0);
    return { p50: ms(this.histogram.percentile(50)), p99: ms(this.histogram.percentile(99)), max: ms(this.histogram.max) };
  }

  /** The last complete minute; before one has passed, the time since start. */
  recent() {
    return this.last ?? this.current();
  }

  stop() {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

/** The Prometheus text exposition of the process's health figures (`GET /metrics`). */
export function prometheusText(delay: EventLoopDelay): string {
  const recent = delay.recent();
  const pool = workerPoolStats();
  const memory = process.memoryUsage();
  const lines = [
    '# HELP quire_process_resident_bytes Resident memory of the process (every thread).',
    '# TYPE quire_process_resident_bytes gauge',
    `quire_process_resident_bytes ${memory.rss}`,
    '# HELP quire_heap_used_bytes JavaScript heap in use on the main thread.',
    '# TYPE quire_heap_used_bytes gauge',
    `quire_heap_used_bytes ${memory.heapUsed}`,
    '# HELP quire_external_bytes Memory of buffers and native objects held by the main thread.',
    '# TYPE quire_external_bytes gauge',
    `quire_external_bytes ${memory.external + memory.arrayBuffers}`,
    '# HELP quire_event_loop_delay_seconds Event-loop delay over the last complete minute.',
    '# TYPE quire_event_loop_delay_seconds summary',
    `quire_event_loop_delay_seconds{quantile="0.5"} ${recent.p50 / 1000}`,
    `quire_event_loop_delay_seconds{quantile="0.99"} ${recent.p99 / 1000}`,
    '# HELP quire_event_loop_delay_max_seconds Longest event-loop delay over the last complete minute.',
    '# TYPE quire_event_loop_delay_max_seconds gauge',
    `quire_event_loop_delay_max_seconds ${recent.max / 1000}`,
    '# HELP quire_worker_pool_threads Worker threads running CPU-heavy work on user input.',
    '# TYPE quire_worker_pool_threads gauge',
    `quire_worker_pool_threads ${pool.threads}`,
    '# HELP quire_worker_pool_queued Tasks waiting for a worker thread.',
    '# TYPE quire_worker_pool_queued gauge',
    `quire_worker_pool_queued ${pool.queued}`,
    '# HELP quire_worker_pool_running Tasks given to the pool and not finished (queued or running).',
    '# TYPE quire_worker_pool_running gauge',
    `quire_worker_pool_running ${pool.running}`,
    '# HELP quire_worker_pool_tasks_total Tasks the pool finished since start.',
    '# TYPE quire_worker_pool_tasks_total counter',
    `quire_worker_pool_tasks_total ${pool.completed}`,
    '# HELP quire_worker_pool_stopped_total Tasks stopped at their time limit since start.',
    '# TYPE quire_worker_pool_stopped_total counter',
    `quire_worker_pool_stopped_total ${pool.stopped}`,
  ];
  return `${lines.join('\n')}\n`;
}
