// Runs the uvu suites under test/ (TypeScript through tsx) and ends with a plain
// "N passed, N failed" line, the summary CI reads.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseFreeFolders } from '../test/runner/databaseFree.mjs';

/** Ends the run before any suite, as a failure CI's summary line counts. */
function fail(message) {
  console.error(message);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

// The temporal CLI the tests' dev servers run: found, or built once (minutes) before the clock starts.
const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/temporal-cli.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (cli.status !== 0) fail('the temporal CLI is not available: see the message above');

// The workflows bundled once, from the sources as they are now, for every worker the suites start
// from the sources, in process or as child processes (`api/main.ts`, `workflows/main.ts` under
// tsx): each would otherwise run webpack (seconds on a loaded machine). One set beforehand is
// replaced: it may be older than the sources. The `npm start` and `npm run worker` tests run the
// built one in dist/.
const bundleDir = mkdtempSync(path.join(tmpdir(), 'quire-test-bundle-'));
const removeBundle = () => rmSync(bundleDir, { recursive: true, force: true });
process.on('exit', removeBundle);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    removeBundle();
    process.kill(process.pid, signal);
  });
}
const bundlePath = path.join(bundleDir, 'workflow-bundle.js');
const bundled = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bundle-workflows.mjs', bundlePath], { stdio: ['ignore', 'inherit', 'inherit'] });
if (bundled.status !== 0) fail('the workflows could not be bundled: see the message above');
process.env.QUIRE_WORKFLOW_BUNDLE = bundlePath;

// The suites run in one child process (test/runner/runSuites.mjs), which counts what uvu doesn't:
// a hook that throws, a suite running fewer tests than it declares, a file registering no suite.
// They run twice: metadata in SQLite (the embedded default), then in PostgreSQL (a throwaway
// cluster the run starts itself, see test/helpers/postgres.ts); QUIRE_TEST_DRIVERS picks (e.g. "sqlite").
// The second pass leaves out the folders whose suites never open a database (test/runner/databaseFree.mjs).
// Usage: node scripts/test.mjs [dir] [pattern]   (default: test '\.test\.ts$')
const [dir = 'test', pattern = '\\.test\\.ts$'] = process.argv.slice(2);
const drivers = (process.env.QUIRE_TEST_DRIVERS ?? 'sqlite postgres').split(/[\s,]+/).filter(Boolean);
const unknown = drivers.filter((driver) => driver !== 'sqlite' && driver !== 'postgres');
if (unknown.length) fail(`QUIRE_TEST_DRIVERS: unknown ${unknown.join(', ')} (sqlite, postgres)`);
if (drivers.includes('postgres') && spawnSync('bash', ['scripts/postgresql.sh'], { stdio: 'inherit' }).status !== 0) fail('PostgreSQL is not available: see the message above');
// A suite that hangs (a process left running, a promise never settled) fails the run instead.
const limitMinutes = Number(process.env.QUIRE_TEST_TIMEOUT_MINUTES ?? 30);

/** One run of the suites; resolves with its counts. */
function runSuites(driver) {
  const reportDir = mkdtempSync(path.join(tmpdir(), 'quire-test-report-'));
  const reportPath = path.join(reportDir, 'report.json');
  // The suites that never open a database run on the SQLite pass only, when there is one.
  const skipped = driver === 'postgres' && drivers.includes('sqlite') && dir === 'test' ? `^(${databaseFreeFolders.join('|')})/` : '';
  const args = ['--import', 'tsx', 'test/runner/runSuites.mjs', dir, pattern, reportPath, skipped];
  const env = { ...process.env, QUIRE_TEST_POSTGRES: driver === 'postgres' ? '1' : '0' };
  delete env.QUIRE_DATABASE_URL;
  if (drivers.length > 1) console.log(`\n=== metadata in ${driver === 'postgres' ? 'PostgreSQL' : 'SQLite'} ===`);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
  const watchdog = setTimeout(() => {
    console.error(`\nthe test run (${driver}) took over ${limitMinutes} minutes: stopping it`);
    child.kill('SIGKILL');
  }, limitMinutes * 60_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      let report;
      try {
        report = JSON.parse(readFileSync(reportPath, 'utf8'));
      } catch {
        console.error(`\nthe test run (${driver}) ended (${signal ?? `exit code ${code}`}) without reporting its results`);
      }
      rmSync(reportDir, { recursive: true, force: true });
      const ok = code === 0 && report !== undefined && report.failed === 0;
      const counts = { passed: report?.passed ?? 0, failed: ok ? 0 : Math.max(1, report?.failed ?? 1), skipped: report?.skipped ?? 0 };
      if (drivers.length > 1) console.log(`\n${driver}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
      resolve(counts);
    });
  });
}

const total = { passed: 0, failed: 0, skipped: 0 };
for (const driver of drivers) {
  const counts = await runSuites(driver);
  for (const key of Object.keys(total)) total[key] += counts[key];
}
console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed === 0 ? 0 : 1);
