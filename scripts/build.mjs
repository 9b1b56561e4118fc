// `npm run build` (and so `npm start`, `npm run worker`): compiles the sources to dist/ and bundles
// the workflows, then fetches the embedding model if it is missing. Nothing to compile when dist/
// was built from the sources as they are (a fingerprint of their contents), so a restart starts in
// seconds; otherwise tsc compiles only what changed (its build info is kept in dist/). Two builds
// at once (npm start and npm run worker on a fresh checkout) take turns.
//   node scripts/build.mjs [--force]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const force = process.argv.includes('--force');
const fingerprintFile = 'dist/.build-fingerprint';
const outputs = ['dist/api/main.js', 'dist/workflows/main.js', 'dist/workflows/workflow-bundle.js'];

/** A hash of everything the build reads: the compiled folders, the compiler's settings, the locked dependencies, the bundler. */
function fingerprint() {
  const hash = createHash('sha256');
  const add = (file) => hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else add(file);
    }
  };
  for (const folder of ['api', 'config', 'domain', 'engine', 'storage', 'workflows']) walk(folder);
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/bundle-workflows.mjs']) add(file);
  return hash.digest('hex');
}

const current = () => !force && existsSync(fingerprintFile) && readFileSync(fingerprintFile, 'utf8') === fingerprint() && outputs.every((file) => existsSync(file));

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The process holding the build lock, if it is alive; undefined when none does (or one is taking it this moment). */
function lockHolder(folder) {
  const pidFile = path.join(folder, 'pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Takes the build lock (a folder naming its process), waiting while another build holds it. */
async function lock() {
  const folder = '.cache/build.lock';
  mkdirSync('.cache', { recursive: true });
  for (let orphanedSince; ;) {
    try {
      mkdirSync(folder);
      writeFileSync(path.join(folder, 'pid'), String(process.pid));
      process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
      return;
    } catch {
      // A lock whose process is gone (or never wrote its pid) for a second is taken over.
      if (lockHolder(folder) === undefined) {
        orphanedSince ??= Date.now();
        if (Date.now() - orphanedSince > 1000) rmSync(folder, { recursive: true, force: true });
      } else orphanedSince = undefined;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

if (!current()) {
  await lock();
  if (!current()) {
    // tsc's build info says what it last wrote, not whether it is still there.
    if (!outputs.every((file) => existsSync(file))) rmSync('dist/.tsbuildinfo', { force: true });
    const tsc = path.join('node_modules', '.bin', 'tsc');
    run(tsc, ['-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo']);
    run(process.execPath, ['scripts/bundle-workflows.mjs']);
    writeFileSync(fingerprintFile, fingerprint());
  }
}
const model = spawnSync('bash', ['scripts/embedding-model.sh'], { stdio: 'inherit' });
if (model.status !== 0) console.error('embedding model not fetched: issue clustering uses words alone until it is');
