import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Later versions carry a `replace` directive in go.mod, which `go install pkg@version` refuses. */
export const pinnedCliVersion = 'v1.5.1';
const cliPackage = 'github.com/temporalio/cli/cmd/temporal';

/** The folder of package.json: the same from the TypeScript sources and from `dist/`. */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** Where a built CLI is kept: QUIRE_TEMPORAL_CACHE_DIR, else `.cache/temporal/` in the project. */
export function cliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.QUIRE_TEMPORAL_CACHE_DIR ?? path.join(projectRoot(), '.cache', 'temporal'), pinnedCliVersion);
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** The `temporal` CLI already on this machine: QUIRE_TEMPORAL_CLI, then PATH, then the project's cache. */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.QUIRE_TEMPORAL_CLI) {
    if (!isExecutable(env.QUIRE_TEMPORAL_CLI)) throw new Error(`QUIRE_TEMPORAL_CLI=${env.QUIRE_TEMPORAL_CLI} is not an executable file`);
    return env.QUIRE_TEMPORAL_CLI;
  }
  const cached = path.join(cliCacheDir(env), 'temporal');
  return onPath('temporal', env) ?? (isExecutable(cached) ? cached : undefined);
}

/**
 * The CLI, built with `go install` into the cache when it isn't found (about three minutes
 * the first time on two cores; the Go module and build caches make later builds quick).
 */
export async function ensureTemporalCli(env: NodeJS.ProcessEnv = process.env, log: (line: string) => void = console.warn): Promise<string> {
  const found = findTemporalCli(env);
  if (found) return found;
  const go = onPath('go', env) ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go) {
    throw new Error(
      `The temporal CLI was not found (QUIRE_TEMPORAL_CLI, PATH, ${cliCacheDir(env)}) and Go is not installed to build it. ` +
        `Install Go, or the CLI from https://github.com/temporalio/cli/releases, or set TEMPORAL_ADDRESS to an existing Temporal server.`,
    );
  }
  const dir = cliCacheDir(env);
  const building = `${dir}.building-${process.pid}`;
  mkdirSync(building, { recursive: true });
  log(`Building the temporal CLI ${pinnedCliVersion} with go install (a few minutes, once)…`);
  const started = Date.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(go, ['install', `${cliPackage}@${pinnedCliVersion}`], {
      env: { ...env, GOBIN: building },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`go install ${cliPackage}@${pinnedCliVersion} failed (exit ${code})`);
  }
  // The finished binary lands in one rename, so a build killed halfway is never mistaken for a CLI.
  mkdirSync(dir, { recursive: true });
  renameSync(path.join(building, 'temporal'), path.join(dir, 'temporal'));
  rmSync(building, { recursive: true, force: true });
  log(`Built the temporal CLI in ${Math.round((Date.now() - started) / 1000)} s: ${path.join(dir, 'temporal')}`);
  return path.join(dir, 'temporal');
}
