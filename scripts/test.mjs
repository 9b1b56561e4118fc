// Runs the uvu suites under test/ (TypeScript through tsx), a few files at a time, and ends with a
// plain "N passed, N failed" line, the summary CI reads.
//
//   node scripts/test.mjs [--postgres] [dir] [pattern]      (default: test '\.test\.ts$')
//
// Without --postgres (`npm test`): every suite with its metadata in SQLite, and the suites whose SQL
// differs between the databases in what it does (test/runner/suiteSets.mjs) again in PostgreSQL.
// With --postgres (`npm run test:postgres`): every suite that opens a database, in PostgreSQL.
// QUIRE_TEST_DRIVERS (`sqlite`, `postgres`) keeps one of the two databases' passes.
//
// Files run in QUIRE_TEST_JOBS worker processes at once (default 3: most of a suite's time is spent
// waiting on servers, child processes and timers, not on the CPU), longest first by the last run's
// times. Each file has its own data directories, ports and Temporal task queues; each worker its own
// Temporal dev server and PostgreSQL cluster. A passing file prints one line; a failing one prints
// all it wrote, servers' log lines included. Every file's output is kept in .cache/test-logs/.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseFreeFolders, opensDatabase, postgresDialectSuites, resultMark } from '../test/runner/suiteSets.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
process.chdir(projectRoot);

/** Ends the run before any suite, as a failure CI's summary line counts. */
function fail(message) {
  console.error(message);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

const args = process.argv.slice(2);
const postgresOnly = args.includes('--postgres');
const [dir = 'test', pattern = '\\.test\\.ts$'] = args.filter((arg) => !arg.startsWith('--'));
const drivers = (process.env.QUIRE_TEST_DRIVERS ?? 'sqlite postgres').split(/[\s,]+/).filter(Boolean);
const unknown = drivers.filter((driver) => driver !== 'sqlite' && driver !== 'postgres');
if (unknown.length) fail(`QUIRE_TEST_DRIVERS: unknown ${unknown.join(', ')} (sqlite, postgres)`);
const jobs = Number(process.env.QUIRE_TEST_JOBS ?? 3);
if (!Number.isInteger(jobs) || jobs < 1) fail(`QUIRE_TEST_JOBS: ${process.env.QUIRE_TEST_JOBS} is not a whole number of 1 or more`);
// A hung run (a process left running, a promise never settled) fails instead of waiting; so does a hung file.
const runLimitMinutes = Number(process.env.QUIRE_TEST_TIMEOUT_MINUTES ?? 30);
const fileLimitMinutes = Number(process.env.QUIRE_TEST_FILE_TIMEOUT_MINUTES ?? 10);

/** The suite files under `dir` matching `pattern`, as paths relative to `dir`. */
function suiteFiles() {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (new RegExp(pattern).test(path.relative(dir, full))) found.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return found.sort();
}

// What runs where: [driver, file] pairs.
const files = suiteFiles();
const onPostgres = (file) => opensDatabase(readFileSync(path.join(dir, file), 'utf8')) && !databaseFreeFolders.some((folder) => file.startsWith(`${folder}/`));
const passes = postgresOnly
  ? [['postgres', files.filter(onPostgres)]]
  : [
      ['sqlite', files],
      ['postgres', dir === 'test' ? files.filter((file) => onPostgres(file) && postgresDialectSuites.some((suite) => suite.test(file))) : []],
    ];
const work = passes.filter(([driver, list]) => drivers.includes(driver) && list.length > 0).flatMap(([driver, list]) => list.map((file) => ({ driver, file })));
if (work.length === 0) fail(`no suite files under ${dir} match ${pattern}`);

// The temporal CLI the tests' dev servers run: found, or built once (minutes) before the clock starts.
const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/temporal-cli.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (cli.status !== 0) fail('the temporal CLI is not available: see the message above');
// The test server whose clock skips (test/workflows/timers.test.ts), fetched once from Maven Central.
const testServer = spawnSync('bash', ['scripts/temporal-test-server.sh'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (testServer.status !== 0) fail('the Temporal test server is not available: see the message above');
process.env.QUIRE_TEMPORAL_TEST_SERVER = testServer.stdout.trim();
if (work.some((job) => job.driver === 'postgres') && spawnSync('bash', ['scripts/postgresql.sh'], { stdio: 'inherit' }).status !== 0) fail('PostgreSQL is not available: see the message above');

// The workflows bundled once, from the sources as they are now, for every worker the suites start
// from the sources, in process or as child processes (`api/main.ts`, `workflows/main.ts` under
// tsx): each would otherwise run webpack (seconds on a loaded machine). One set beforehand is
// replaced: it may be older than the sources. The `npm start` and `npm run worker` tests run the
// built one in dist/.
// A run started by a suite (the runner's own tests) uses its run's bundle.
const outerBundle = process.env.QUIRE_TEST_RUN_BUNDLE;
const bundleDir = outerBundle ? undefined : mkdtempSync(path.join(tmpdir(), 'quire-test-bundle-'));
const removeBundle = () => bundleDir && rmSync(bundleDir, { recursive: true, force: true });
process.on('exit', removeBundle);
const bundlePath = outerBundle ?? path.join(bundleDir, 'workflow-bundle.js');
if (!outerBundle) {
  const bundled = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bundle-workflows.mjs', bundlePath], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (bundled.status !== 0) fail('the workflows could not be bundled: see the message above');
}

// Longest first (the last run's seconds, kept in .cache; test/runner/durations.json on a fresh
// clone), so the long files don't start last and leave the others idle at the end.
const durationsPath = '.cache/test-durations.json';
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});
const durations = { ...readJson('test/runner/durations.json'), ...readJson(durationsPath) };
const key = (job) => `${job.driver} ${job.file}`;
work.sort((a, b) => (durations[key(b)] ?? 10) - (durations[key(a)] ?? 10) || key(a).localeCompare(key(b)));

const logDir = process.env.QUIRE_TEST_LOG_DIR ?? '.cache/test-logs';
rmSync(logDir, { recursive: true, force: true });
const color = process.stdout.isTTY;
const paint = (code, text) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** A worker process on one database, started when a slot first needs it. */
function startWorker(driver) {
  const env = { ...process.env, QUIRE_TEST_POSTGRES: driver === 'postgres' ? '1' : '0', QUIRE_WORKFLOW_BUNDLE: bundlePath, QUIRE_TEST_RUN_BUNDLE: bundlePath, FORCE_COLOR: color ? '1' : '0' };
  delete env.QUIRE_DATABASE_URL;
  // Its own process group: a file that hangs is stopped with every process it started.
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/runner/suiteWorker.mjs'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env, detached: true });
  // Each pipe's text up to the file's mark on it is the file's; the result is on stdout's.
  const worker = { driver, child, output: '', errors: '', result: undefined, current: undefined, exited: false };
  const settle = () => {
    const stdoutMark = worker.output.indexOf(resultMark);
    const stdoutEnd = stdoutMark === -1 ? -1 : worker.output.indexOf('\n', stdoutMark);
    const stderrMark = worker.errors.indexOf(resultMark);
    const stderrEnd = stderrMark === -1 ? -1 : worker.errors.indexOf('\n', stderrMark);
    if (stdoutEnd === -1 || stderrEnd === -1) return;
    const result = JSON.parse(worker.output.slice(stdoutMark + resultMark.length, stdoutEnd));
    const written = worker.output.slice(0, stdoutMark) + worker.errors.slice(0, stderrMark);
    worker.output = worker.output.slice(stdoutEnd + 1);
    worker.errors = worker.errors.slice(stderrEnd + 1);
    worker.current?.done(result, written);
  };
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    worker.output += chunk;
    settle();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    worker.errors += chunk;
    settle();
  });
  // Sending to a worker that has just died is answered by its exit, below.
  child.on('error', () => undefined);
  child.on('exit', (code, signal) => {
    worker.exited = true;
    // What it wrote last may still be in the pipes: read it (a process it left holding them may never close them).
    const closed = new Promise((resolve) => child.once('close', resolve));
    void Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]).then(() =>
      worker.current?.done(undefined, `${worker.output}${worker.errors}\nthe suite worker exited (${signal ?? `exit code ${code}`}) while running this file`),
    );
  });
  return worker;
}

function stopWorker(worker) {
  if (worker.exited) return Promise.resolve();
  return new Promise((resolve) => {
    worker.child.once('exit', resolve);
    worker.child.disconnect();
  });
}

function killWorker(worker) {
  try {
    process.kill(-worker.child.pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** Runs one file on a worker (started or replaced as needed); resolves with its result. */
function runJob(slot, job) {
  let worker = slot.workers.get(job.driver);
  if (!worker || worker.exited) {
    worker = startWorker(job.driver);
    slot.workers.set(job.driver, worker);
  }
  const started = performance.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.output += `\n${job.file} took over ${fileLimitMinutes} minutes: its worker was stopped`;
      killWorker(worker);
    }, fileLimitMinutes * 60_000);
    worker.current = {
      done(result, written) {
        clearTimeout(timer);
        worker.current = undefined;
        const seconds = (performance.now() - started) / 1000;
        resolve({ ...job, seconds, written, result: result ?? { passed: 0, failed: 1, skipped: 0, problems: [`${job.file}: ${written.trim().split('\n').at(-1)}`] } });
      },
    };
    worker.child.send({ type: 'run', name: job.file, file: path.resolve(dir, job.file) });
  });
}

const results = [];
const label = (job) => `${job.driver === 'postgres' ? 'PostgreSQL' : 'SQLite'} ${job.file}`;

function report(done) {
  const { result } = done;
  const logFile = path.join(logDir, done.driver, `${done.file}.log`);
  mkdirSync(path.dirname(logFile), { recursive: true });
  writeFileSync(logFile, plain(done.written));
  const ok = result.failed === 0;
  const line = `${ok ? paint(32, '✓') : paint(31, '✘')} ${label(done)}  ${result.passed} passed${ok ? '' : `, ${result.failed} failed`}  ${done.seconds.toFixed(1)} s`;
  if (ok) console.log(line);
  else console.log(`${line}\n${done.written.trim()}\n${result.problems.map((problem) => `FAILED ${problem}`).join('\n')}\n${paint(31, '✘')} ${label(done)}: output kept in ${logFile}\n`);
}

const runStarted = performance.now();
const queue = [...work];
const slots = Array.from({ length: Math.min(jobs, queue.length) }, () => ({ workers: new Map() }));
const runWatchdog = setTimeout(() => {
  console.error(`\nthe test run took over ${runLimitMinutes} minutes: stopping it`);
  for (const slot of slots) for (const worker of slot.workers.values()) killWorker(worker);
  console.log(
    `\n${results.reduce((sum, done) => sum + done.result.passed, 0)} passed, ${Math.max(
      1,
      results.reduce((sum, done) => sum + done.result.failed, 0),
    )} failed`,
  );
  process.exit(1);
}, runLimitMinutes * 60_000);
// Ctrl-C or a CI timeout stops every worker's processes, not only this one.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    for (const slot of slots) for (const worker of slot.workers.values()) killWorker(worker);
    removeBundle();
    process.kill(process.pid, signal);
  });
}
console.log(
  `${work.length} suite files (${passes
    .map(([driver, list]) => (drivers.includes(driver) && list.length ? `${list.length} on ${driver === 'postgres' ? 'PostgreSQL' : 'SQLite'}` : ''))
    .filter(Boolean)
    .join(', ')}), ${slots.length} at a time\n`,
);
await Promise.all(
  slots.map(async (slot) => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const done = await runJob(slot, job);
      results.push(done);
      report(done);
    }
    await Promise.all([...slot.workers.values()].map(stopWorker));
  }),
);
clearTimeout(runWatchdog);

const minutes = ((performance.now() - runStarted) / 60_000).toFixed(1);
// The times of the project's suites only (the runner's own tests run fixture folders).
if (dir === 'test') {
  mkdirSync(path.dirname(durationsPath), { recursive: true });
  writeFileSync(durationsPath, JSON.stringify({ ...readJson(durationsPath), ...Object.fromEntries(results.map((done) => [key(done), Math.round(done.seconds * 10) / 10])) }, null, 1));
}
const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
console.log(`\n${minutes} min; slowest files: ${slowest.map((done) => `${label(done)} ${done.seconds.toFixed(1)} s`).join(', ')}`);
const failures = results.filter((done) => done.result.failed > 0);
if (failures.length)
  console.error(
    `\n${failures.flatMap((done) => (done.result.problems.length ? done.result.problems.map((problem) => `FAILED ${done.driver}: ${problem}`) : [`FAILED ${done.driver}: ${done.file}`])).join('\n')}`,
  );
const total = { passed: 0, failed: 0 };
for (const [driver] of passes) {
  const ofDriver = results.filter((done) => done.driver === driver);
  if (!ofDriver.length) continue;
  const counts = { passed: ofDriver.reduce((sum, done) => sum + done.result.passed, 0), failed: ofDriver.reduce((sum, done) => sum + done.result.failed, 0) };
  if (passes.length > 1) console.log(`${driver}: ${counts.passed} passed, ${counts.failed} failed`);
  total.passed += counts.passed;
  total.failed += counts.failed;
}
console.log(`\n${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 ? 0 : 1);
