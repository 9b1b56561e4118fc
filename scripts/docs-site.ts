// `npm run docs [-- <dir>]`: Quire's own documentation (docs/, in GitBook's Git Sync layout)
// published by Quire and exported as a static site, to .cache/docs-site/ unless a folder is given.
// The documentation goes in as any team's would: a space, a git push, a site, `site export`.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { configFromSettings } from '../api/config.js';
import { exportSite } from '../api/cli/siteExport.js';
import { startServer } from '../api/server.js';
import { readSettings } from '../config/index.js';
import { applySettings } from '../domain/common/processSettings.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
/** Written into the folder a build fills, so that a later build may empty it and no other. */
const marker = '.quire-docs-site';
const run = promisify(execFile);

export interface DocsSite {
  outDir: string;
  pages: number;
  files: number;
  ms: number;
}

export async function buildDocsSite(outDir: string): Promise<DocsSite> {
  const started = performance.now();
  prepareOutput(outDir);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-docs-data-'));
  const work = mkdtempSync(path.join(tmpdir(), 'quire-docs-push-'));
  const token = randomBytes(24).toString('hex');
  // The environment's settings, but an instance of its own: a throwaway folder, SQLite, no jobs,
  // no renderer to tell, no storage nodes.
  const settings = readSettings({
    ...process.env,
    DATA_DIR: dataDir,
    QUIRE_DATABASE_URL: '',
    QUIRE_STORAGE: '',
    QUIRE_NODE_URL: '',
    QUIRE_PUBLIC_URL: '',
    QUIRE_RENDERER_URL: '',
    QUIRE_RENDERER_SECRET: '',
    HOST: '127.0.0.1',
    PORT: '0',
    // No job runs: nothing here deletes a space or renders a PDF.
    TEMPORAL_ADDRESS: '127.0.0.1:9',
    QUIRE_WORKER: 'off',
    QUIRE_ACCESS_LOG: 'off',
    QUIRE_RATE_LIMIT: 'off',
    QUIRE_BOOTSTRAP_TOKEN: token,
    QUIRE_BOOTSTRAP_ORGANIZATION: 'Quire',
  });
  const server = await startServer(configFromSettings(settings));
  try {
    const api = async (method: string, urlPath: string, body?: unknown) => {
      const response = await fetch(`${server.url}/v1${urlPath}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const organization = (await api('GET', '/orgs')).items[0].id as string;
    const space = await api('POST', `/orgs/${organization}/spaces`, { title: 'Quire', empty: true });
    await pushDocs(work, `${server.url.replace('://', `://docs:${token}@`)}/git/${space.id}.git`);
    const site = await api('POST', `/orgs/${organization}/sites`, { title: 'Quire', visibility: 'public', spaces: [space.id] });
    await api('POST', `/orgs/${organization}/sites/${site.id}/publish`);
    const exported = await exportSite({ db: server.db, repositories: server.repositories, dataDir }, { siteId: site.id, publicBase: `http://localhost:${server.port}`, outDir });
    writeFileSync(path.join(outDir, marker), 'Written by npm run docs: emptied by the next build.\n');
    return { outDir, pages: exported.pages, files: exported.files, ms: Math.round(performance.now() - started) };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The space's content becomes docs/ as it is in the checkout, pushed to main through Quire's git
 * remote (git runs beside this process, whose server answers it: never a synchronous call here).
 */
async function pushDocs(work: string, remote: string): Promise<void> {
  const env = { PATH: process.env.PATH ?? '', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
  const git = (...args: string[]) => run('git', ['-c', 'user.name=Quire docs', '-c', 'user.email=docs@quire.invalid', ...args], { cwd: work, env });
  await git('clone', '--quiet', remote, 'space');
  const clone = path.join(work, 'space');
  for (const name of readdirSync(clone)) if (name !== '.git') rmSync(path.join(clone, name), { recursive: true });
  cpSync(path.join(projectRoot, 'docs'), clone, { recursive: true });
  await git('-C', clone, 'add', '-A');
  await git('-C', clone, 'commit', '--quiet', '-m', 'Quire’s documentation');
  await git('-C', clone, 'push', '--quiet', 'origin', 'HEAD:main').catch((error: { stderr?: string }) => {
    // Quire's push checks name each problem on `remote:` lines.
    throw new Error(`the docs were refused by Quire's push checks:\n${error.stderr ?? String(error)}`);
  });
}

function prepareOutput(outDir: string): void {
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!existsSync(path.join(outDir, marker))) throw new Error(`${outDir} holds files npm run docs did not write: give an empty or new folder`);
    rmSync(outDir, { recursive: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const outDir = path.resolve(process.argv[2] ?? path.join(projectRoot, '.cache/docs-site'));
  applySettings(readSettings());
  buildDocsSite(outDir).then(
    (built) => {
      console.log(`docs: ${built.pages} pages and ${built.files} files exported to ${built.outDir} in ${built.ms} ms (open index.html, or serve the folder for its search)`);
      process.exit(0);
    },
    (error: Error) => {
      console.error(`docs: ${error.message}`);
      process.exit(1);
    },
  );
}
