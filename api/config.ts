import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base of the absolute URLs the API hands out; defaults to http://localhost:<port>. */
  publicUrl?: string;
  bootstrap?: { token: string; email: string; organizationTitle: string };
  bodyLimitBytes: number;
  accessLog: boolean;
}

const minBootstrapTokenLength = 24;

/** Reads the environment variables listed in the README's configuration table. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const bodyLimitBytes = Number(env.QUIRE_BODY_LIMIT ?? 1024 * 1024);
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1) throw new Error(`QUIRE_BODY_LIMIT must be a number of bytes, got ${env.QUIRE_BODY_LIMIT}`);
  const bootstrapToken = env.QUIRE_BOOTSTRAP_TOKEN;
  if (bootstrapToken !== undefined && bootstrapToken.length < minBootstrapTokenLength) {
    throw new Error(`QUIRE_BOOTSTRAP_TOKEN must be at least ${minBootstrapTokenLength} characters: it is an admin's password`);
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    publicUrl: env.QUIRE_PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    bootstrap: bootstrapToken
      ? {
          token: bootstrapToken,
          email: env.QUIRE_BOOTSTRAP_EMAIL ?? 'admin@localhost',
          organizationTitle: env.QUIRE_BOOTSTRAP_ORGANIZATION ?? 'My organization',
        }
      : undefined,
    bodyLimitBytes,
    accessLog: env.QUIRE_ACCESS_LOG !== 'off',
  };
}
