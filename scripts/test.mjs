// Runs the uvu suites under test/ (TypeScript through tsx) and ends with a plain
// "N passed, N failed" line, the summary CI reads.
import { spawn, spawnSync } from 'node:child_process';

// The temporal CLI the tests' dev servers run: found, or built once (minutes) before the clock starts.
const cli = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/temporal-cli.ts'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (cli.status !== 0) {
  console.error('the temporal CLI is not available: see the message above');
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

const args = ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', '\\.test\\.ts$', ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
// A suite that hangs (a process left running, a promise never settled) fails the run instead.
const limitMinutes = Number(process.env.QUIRE_TEST_TIMEOUT_MINUTES ?? 20);
const watchdog = setTimeout(() => {
  console.error(`\nthe test run took over ${limitMinutes} minutes: stopping it`);
  child.kill('SIGKILL');
}, limitMinutes * 60_000);
let output = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  output += chunk.toString();
});
child.on('close', (code) => {
  clearTimeout(watchdog);
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const failed = code === 0 ? total - passed - skipped : Math.max(1, total - passed - skipped);
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code ?? 1);
});
