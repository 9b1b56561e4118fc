import type Koa from 'koa';
import { prometheusText, type EventLoopDelay } from '../metrics.js';

/** `GET /metrics`: the process's health figures for Prometheus (no content, no credentials needed). */
export function metricsEndpoint(delay: EventLoopDelay) {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.type = 'text/plain; version=0.0.4; charset=utf-8';
    ctx.body = prometheusText(delay);
  };
}
