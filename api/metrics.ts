import { lightReadCounts } from './lightReads.js';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { cacheStats, groupCommitStats, workerPoolStats } from '../engine/index.js';

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
  const cache = cacheStats();
  const commits = groupCommitStats();
  const memory = process.memoryUsage();
  const metric = (name: string, type: 'gauge' | 'counter' | 'summary', help: string, ...samples: string[]) => [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples];
  const lines = [
    ...metric('quire_process_resident_bytes', 'gauge', 'Resident memory of the process (every thread).', `quire_process_resident_bytes ${memory.rss}`),
    ...metric('quire_heap_used_bytes', 'gauge', 'JavaScript heap in use on the main thread.', `quire_heap_used_bytes ${memory.heapUsed}`),
    ...metric('quire_external_bytes', 'gauge', 'Memory of buffers and native objects held by the main thread.', `quire_external_bytes ${memory.external + memory.arrayBuffers}`),
    ...metric(
      'quire_event_loop_delay_seconds',
      'summary',
      'Event-loop delay over the last complete minute.',
      `quire_event_loop_delay_seconds{quantile="0.5"} ${recent.p50 / 1000}`,
      `quire_event_loop_delay_seconds{quantile="0.99"} ${recent.p99 / 1000}`,
    ),
    ...metric('quire_event_loop_delay_max_seconds', 'gauge', 'Longest event-loop delay over the last complete minute.', `quire_event_loop_delay_max_seconds ${recent.max / 1000}`),
    ...metric('quire_cache_budget_bytes', 'gauge', "The content caches' shared budget (QUIRE_CACHE_MB).", `quire_cache_budget_bytes ${cache.budgetBytes}`),
    ...metric('quire_cache_bytes', 'gauge', 'What the content caches hold, as their entries were weighed.', `quire_cache_bytes ${cache.usedBytes}`),
    ...metric(
      'quire_cache_held_bytes',
      'gauge',
      'What each content cache holds, as its entries were weighed.',
      ...cache.caches.map(({ name, bytes }) => `quire_cache_held_bytes{cache="${name}"} ${bytes}`),
    ),
    ...metric(
      'quire_cache_lookups_total',
      'counter',
      'Content cache lookups since start, by cache and result.',
      ...cache.caches.flatMap(({ name, hits, misses }) => [`quire_cache_lookups_total{cache="${name}",result="hit"} ${hits}`, `quire_cache_lookups_total{cache="${name}",result="miss"} ${misses}`]),
    ),
    ...metric(
      'quire_commit_groups_total',
      'counter',
      "Content write groups committed since start: batches waiting on one repository's lock, committed with one round of syncs.",
      `quire_commit_groups_total ${commits.groups}`,
    ),
    ...metric('quire_commit_group_batches_total', 'counter', 'Content write batches in those groups since start.', `quire_commit_group_batches_total ${commits.batches}`),
    ...metric(
      'quire_light_reads_total',
      'counter',
      'Authenticated GETs of the light routes since start: answered below Koa, or passed on to it (an error, a miss).',
      `quire_light_reads_total{result="answered"} ${lightReadCounts.answered}`,
      `quire_light_reads_total{result="passed on"} ${lightReadCounts.passedOn}`,
    ),
    ...metric('quire_worker_pool_threads', 'gauge', 'Worker threads running CPU-heavy work on user input.', `quire_worker_pool_threads ${pool.threads}`),
    ...metric('quire_worker_pool_queued', 'gauge', 'Tasks waiting for a worker thread.', `quire_worker_pool_queued ${pool.queued}`),
    ...metric('quire_worker_pool_running', 'gauge', 'Tasks given to the pool and not finished (queued or running).', `quire_worker_pool_running ${pool.running}`),
    ...metric('quire_worker_pool_tasks_total', 'counter', 'Tasks the pool finished since start.', `quire_worker_pool_tasks_total ${pool.completed}`),
    ...metric(
      'quire_worker_pool_task_runs_total',
      'counter',
      'Tasks the pool finished since start, by what they ran.',
      ...[...pool.completedByTask].sort(([a], [b]) => (a < b ? -1 : 1)).map(([task, count]) => `quire_worker_pool_task_runs_total{task="${task}"} ${count}`),
    ),
    ...metric('quire_worker_pool_stopped_total', 'counter', 'Tasks stopped at their time limit since start.', `quire_worker_pool_stopped_total ${pool.stopped}`),
  ];
  return `${lines.join('\n')}\n`;
}
