import { randomUUID } from 'node:crypto';
import { startService, type ServiceProcess } from './processes.js';
import { sharedDevServer } from './temporal.js';
import { checkedBody } from './upstream.js';

/**
 * `npm start` as its own process over one data folder, started again and again (a crash test kills
 * it): each start on the shared Temporal dev server with a task queue of its own, the bootstrap
 * admin's token for every call, every answer checked against the upstream schema.
 */
export function bootstrappedService(dataDir: string) {
  const token = `bootstrap-${randomUUID()}`;
  const running: ServiceProcess[] = [];
  return {
    token,
    async start(): Promise<ServiceProcess> {
      const service = await startService({ DATA_DIR: dataDir, QUIRE_BOOTSTRAP_TOKEN: token, TEMPORAL_ADDRESS: (await sharedDevServer()).address, QUIRE_TASK_QUEUE: `test-${randomUUID()}` });
      running.push(service);
      return service;
    },
    async call(service: ServiceProcess, method: string, path: string, body?: unknown) {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await checkedBody(method, path, response)) as Record<string, any> };
    },
    /** Kills what is still running. */
    async stopAll(): Promise<void> {
      await Promise.all(running.filter((service) => service.child.exitCode === null && service.child.signalCode === null).map((service) => service.stop('SIGKILL')));
    },
  };
}
