import path from 'node:path';
import { startDevServer, type DevServer } from './devServer.js';
import { ensureTemporalCli } from './temporalCli.js';

/**
 * The single-machine case: a Temporal dev server of our own, its state in `<dataDir>/temporal/`,
 * so pending timers survive a restart of Quire and of the dev server.
 */
export async function startLocalTemporal(options: { dataDir: string; port: number; uiPort: number; namespace: string }): Promise<DevServer> {
  const cli = await ensureTemporalCli();
  return startDevServer({ cli, stateDir: path.join(options.dataDir, 'temporal'), port: options.port, uiPort: options.uiPort, namespace: options.namespace });
}
