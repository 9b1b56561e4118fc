import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { spaceDeletionJobId } from '../../workflows/client.js';
import { startDevServer, type DevServer } from '../../workflows/runtime/devServer.js';
import { findTemporalCli } from '../../workflows/runtime/temporalCli.js';
import type { TemporalSettings } from '../../workflows/settings.js';

let shared: Promise<DevServer> | undefined;

export function temporalCli(): string {
  const cli = findTemporalCli();
  if (!cli) throw new Error('the temporal CLI is missing: `npm test` builds it first (npm run -s temporal-cli)');
  return cli;
}

/** One in-memory dev server for the whole test run, stopped when the run ends. */
export function sharedDevServer(): Promise<DevServer> {
  shared ??= (async () => {
    const server = await startDevServer({ cli: temporalCli(), port: 0 });
    process.once('exit', () => {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    return server;
  })();
  return shared;
}

/** A dev server of a test's own, which it may stop and start again over the same state file. */
export async function ownDevServer(stateDir: string, port?: number): Promise<DevServer> {
  return startDevServer({ cli: temporalCli(), stateDir, port: port ?? 0 });
}

/** Settings on the shared dev server with a task queue of their own, so test servers never run each other's jobs. */
/** A task queue of the test's own on the shared dev server; clusters are consolidated only when a test asks (see conversationClusters). */
export async function testTemporalSettings(): Promise<TemporalSettings> {
  return { address: (await sharedDevServer()).address, namespace: 'default', taskQueue: `test-${randomUUID()}`, consolidateWhenQuietMs: 0 };
}

/** A Temporal client of the test's own, to look at jobs the way an operator would. */
export async function inspectJobs(settings: TemporalSettings) {
  const connection = await Connection.connect({ address: settings.address });
  const client = new Client({ connection, namespace: settings.namespace });
  return {
    client,
    handle: (spaceId: string) => client.workflow.getHandle(spaceDeletionJobId(spaceId)),
    /** What the space's newest deletion job returned: 'purged', 'already-purged' or 'restored'. */
    outcome: (spaceId: string): Promise<string> => client.workflow.getHandle(spaceDeletionJobId(spaceId)).result(),
    close: () => connection.close(),
  };
}
