import path from 'node:path';
import { startDevServer, type DevServer } from './devServer.js';
import { ensureTemporalCli } from './temporalCli.js';
import { log } from '../../domain/common/log.js';

/**
 * The single-machine case: a Temporal dev server of our own, its state in `<dataDir>/temporal/`,
 * so pending timers survive a restart of Quire and of the dev server.
 */
export async function startLocalTemporal(options: { dataDir: string; port: number; uiPort: number; namespace: string }): Promise<DevServer> {
  // Building the CLI the first time takes minutes: its progress goes to the log like the rest.
  const cli = await ensureTemporalCli(process.env, (line) => log.info(line));
  return startDevServer({ cli, stateDir: path.join(options.dataDir, 'temporal'), port: options.port, uiPort: options.uiPort, namespace: options.namespace });
}
