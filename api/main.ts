import { configFromEnv } from './config.js';
import { startServer } from './server.js';

const shutdownGraceMs = 4000;

async function main() {
  const config = configFromEnv();
  const server = await startServer(config);
  console.warn(JSON.stringify({ level: 'info', message: 'Quire is ready', url: server.url, dataDir: config.dataDir }));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.warn(JSON.stringify({ level: 'info', message: `received ${signal}, shutting down` }));
    // In-flight requests get a grace period; then the process ends whatever is left open.
    setTimeout(() => process.exit(0), shutdownGraceMs).unref();
    server.close().then(
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
