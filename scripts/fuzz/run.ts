// `npm run fuzz [-- --short] [--postgres]`: Schemathesis against a fresh Quire, over the upstream operations Quire
// implements, and a slow-input phase (slowInputs.ts). Exit code 1 when any check fails, Schemathesis
// can't test something, or an answer takes over a second. With --postgres, the server keeps its metadata in a
// throwaway PostgreSQL cluster (scripts/postgresCluster.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgresCluster, type PostgresCluster } from '../postgresCluster.js';
import { apiClient, createFixtures, createNewerFixtures, operatorToken, type Fixtures } from './fixtures.js';
import { describe, failed, readFindings, tally, type RunFindings } from './report.js';
import { startFuzzedServer } from './server.js';
import { answerLimitMs, slowInputPhase, type SlowAnswer } from './slowInputs.js';
import { slowServedPhase } from './slowServed.js';
import { filteredSpec, recursiveBodyOperations } from './spec.js';
import { ensureSchemathesis, schemathesisModule } from './venv.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const short = process.argv.includes('--short');
const onPostgres = process.argv.includes('--postgres');
/** Test cases per operation and phase: a few in CI, more for the full run. */
const examples = Number(process.env.QUIRE_FUZZ_EXAMPLES ?? (short ? 3 : 200));
const seed = process.env.QUIRE_FUZZ_SEED ?? '20261122';
const outDir = path.join(root, '.cache/fuzz', `${short ? 'short' : 'full'}${onPostgres ? '-postgres' : ''}`);
const configFile = path.join(outDir, 'schemathesis.toml');
const log = (line: string) => console.error(`fuzz: ${line}`);

/** Path parameters bound to the fixtures, by name, for every operation that has them. */
const pathParameters = (fixtures: Fixtures, newer: Record<string, string>): Record<string, string> => ({
  organizationId: fixtures.organizationId,
  userId: fixtures.memberId,
  teamId: fixtures.teamId,
  samlProviderId: fixtures.samlProviderId,
  inviteId: fixtures.inviteId,
  collectionId: fixtures.collectionId,
  spaceId: fixtures.spaceId,
  revisionId: fixtures.revisionId,
  pageId: fixtures.pageId,
  pagePath: fixtures.pagePath,
  fileId: fixtures.fileId,
  emailDomain: fixtures.emailDomain,
  ...newer,
});

/** How long one Schemathesis run may take before it counts as hung (a phase that never finishes). */
const runTimeoutMs = (short ? 5 : 40) * 60_000;

function schemathesis(command: string, args: string[], env: NodeJS.ProcessEnv, outputFile: string): Promise<number | 'timeout'> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...schemathesisModule, '--config-file', configFile, 'run', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, runTimeoutMs);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      writeFileSync(outputFile, Buffer.concat(chunks));
      resolve(timedOut ? 'timeout' : (code ?? 1));
    });
  });
}

/**
 * scripts/fuzz/schemathesis.toml, plus the path parameters bound to the fixtures, and the coverage
 * and examples phases turned off where they take minutes or never finish.
 */
function writeConfig(spec: ReturnType<typeof filteredSpec>, parameters: Record<string, string>): void {
  const blocks = recursiveBodyOperations(spec).map(
    (operationId) => `\n[[operations]]\ninclude-operation-id = ${JSON.stringify(operationId)}\nphases.coverage.enabled = false\nphases.examples.enabled = false\n`,
  );
  const bound = Object.entries(parameters).map(([name, value]) => `${JSON.stringify(`path.${name}`)} = ${JSON.stringify(value)}\n`);
  const template = readFileSync(path.join(root, 'scripts/fuzz/schemathesis.toml'), 'utf8');
  writeFileSync(configFile, template + blocks.join('') + '\n[parameters]\n' + bound.join(''));
}

async function main(): Promise<number> {
  const started = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const { command, env } = ensureSchemathesis(root, log);
  const specFile = path.join(outDir, 'openapi.json');
  const spec = filteredSpec();
  writeFileSync(specFile, JSON.stringify(spec, null, 1));

  let cluster: PostgresCluster | undefined;
  if (onPostgres) {
    cluster = await startPostgresCluster();
    await cluster.createDatabase('quire_fuzz');
    // The server and the admin command (operatorToken) inherit it.
    process.env.QUIRE_DATABASE_URL = cluster.url('quire_fuzz');
  }
  const server = await startFuzzedServer(root, path.join(outDir, 'server.log')).catch(async (error) => {
    await cluster?.stop();
    throw error;
  });
  try {
    const memberToken = operatorToken(root, server.dataDir, 'fuzz-member@example.com');
    const admin = apiClient(server.base, server.token);
    const fixtures = await createFixtures(admin, apiClient(server.base, memberToken));
    const parameters = pathParameters(fixtures, await createNewerFixtures(admin, fixtures, log));
    writeConfig(spec, parameters);
    const runEnv = { ...env, QUIRE_FUZZ_TOKEN: server.token };
    const common = [specFile, '--url', server.base, '--max-examples', String(examples), '--seed', seed, '--workers', '1', '--no-color', '--report', 'ndjson'];
    const findings: RunFindings[] = [];
    let slow: SlowAnswer[] = [];
    // DELETEs last, so that every other operation meets its fixtures whole; slow inputs before them.
    for (const [name, filter] of [
      ['other', ['--exclude-method', 'DELETE']],
      ['delete', ['--include-method', 'DELETE']],
    ] as const) {
      if (name === 'delete') {
        log(`slow inputs to every operation that takes text${short ? ' (the short set of shapes)' : ''}…`);
        slow = (await slowInputPhase(spec as never, server.base, server.token, parameters, { short, log })).slow;
        slow.push(...(await slowServedPhase(server.base, server.token, parameters.organizationId!, log)));
      }
      const ndjson = path.join(outDir, `${name}.ndjson`);
      log(`${name === 'delete' ? 'DELETE' : 'non-DELETE'} operations, ${examples} examples each…`);
      const code = await schemathesis(command, [...common, ...filter, '--report-ndjson-path', ndjson], runEnv, path.join(outDir, `${name}.txt`));
      const run = readFindings(ndjson);
      if (code === 'timeout')
        run.errors.push(`schemathesis did not finish within ${runTimeoutMs / 60_000} minutes${run.lastOperation ? `; the last operation to finish was ${run.lastOperation}` : ''}`);
      else if (code !== 0 && !run.failuresByCheck.size && !run.errors.length) run.errors.push(`schemathesis exited with ${code}: see ${path.join(outDir, `${name}.txt`)}`);
      findings.push(run);
    }
    const slowLines = slow.map(
      (answer) => `slow input: ${answer.operation} with ${answer.shape} in ${answer.where} answered ${answer.status} after ${answer.ms} ms (limit ${answer.limitMs ?? answerLimitMs} ms)`,
    );
    const summary = [describe(findings), ...slowLines].join('\n');
    writeFileSync(path.join(outDir, 'summary.txt'), summary + '\n');
    console.log(summary);
    const failing = failed(findings) || slow.length > 0;
    log(`${failing ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s; reports in ${path.relative(root, outDir)}/`);
    console.log(tally(findings));
    return failing ? 1 : 0;
  } finally {
    await server.stop();
    await cluster?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
