// Runs the uvu suites under test/ (TypeScript through tsx) and ends with a plain
// "N passed, N failed" line, the summary CI reads.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The temporal CLI the tests' dev servers run: found, or built once (minutes) before the clock starts.
const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/temporal-cli.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (cli.status !== 0) {
  console.error('the temporal CLI is not available: see the message above');
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

// The suites run in one child process (test/runner/runSuites.mjs), which counts what uvu doesn't:
// a hook that throws, a suite running fewer tests than it declares, a file registering no suite.
// Usage: node scripts/test.mjs [dir] [pattern]   (default: test '\.test\.ts$')
const [dir = 'test', pattern = '\\.test\\.ts$'] = process.argv.slice(2);
const reportDir = mkdtempSync(path.join(tmpdir(), 'quire-test-report-'));
const reportPath = path.join(reportDir, 'report.json');
const args = ['--import', 'tsx', 'test/runner/runSuites.mjs', dir, pattern, reportPath];
const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
// A suite that hangs (a process left running, a promise never settled) fails the run instead.
const limitMinutes = Number(process.env.QUIRE_TEST_TIMEOUT_MINUTES ?? 20);
const watchdog = setTimeout(() => {
  console.error(`\nthe test run took over ${limitMinutes} minutes: stopping it`);
  child.kill('SIGKILL');
}, limitMinutes * 60_000);
child.on('close', (code, signal) => {
  clearTimeout(watchdog);
  let report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch {
    console.error(`\nthe test run ended (${signal ?? `exit code ${code}`}) without reporting its results`);
  }
  rmSync(reportDir, { recursive: true, force: true });
  const passed = report?.passed ?? 0;
  const failed = report ? report.failed : 1;
  const ok = code === 0 && failed === 0;
  console.log(`\n${passed} passed, ${ok ? 0 : Math.max(1, failed)} failed${report?.skipped ? `, ${report.skipped} skipped` : ''}`);
  process.exit(ok ? 0 : 1);
});
