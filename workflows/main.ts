import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../storage/db.js';
import { temporalFromEnv } from './settings.js';
import { startWorker } from './worker.js';

/**
 * `npm run worker`: a worker alone, for running more of them (or running them apart from the
 * API). It needs the same DATA_DIR as the API (shared storage on a cluster) and a Temporal
 * server: TEMPORAL_ADDRESS, or the local dev server `npm start` runs.
 */
async function main() {
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const settings = temporalFromEnv(process.env).temporal;
  const db = await openDatabase(path.join(dataDir, 'quire.sqlite'));
  const worker = await startWorker(settings, { db, dataDir });
  console.warn(JSON.stringify({ level: 'info', message: 'Quire worker is running', temporal: settings.address, taskQueue: settings.taskQueue, dataDir }));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.warn(JSON.stringify({ level: 'info', message: `received ${signal}, shutting down` }));
    setTimeout(() => {
      console.error(JSON.stringify({ level: 'error', message: 'shutdown took over 5 s: exiting with work left open' }));
      process.exit(1);
    }, 5000).unref();
    worker
      .stop()
      .then(() => db.close())
      .then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
