import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkMemoryBytes, checkMemoryHeld, holdingCheckMemory } from '../../engine/git/checkMemory.js';

// The push checks' shared memory: what they hold at once never passes the budget; a check larger
// than the whole budget runs alone; every check runs in the end.
const test = suite('push checks share one memory budget');
const megabytes = (n: number) => n * 1024 * 1024;

test('three checks of 40 MB against 64 MB: one at a time, each runs, never more held than the budget', async () => {
  let peak = 0;
  const ran: number[] = [];
  await Promise.all(
    [0, 1, 2].map((index) =>
      holdingCheckMemory(megabytes(40), async () => {
        peak = Math.max(peak, checkMemoryHeld());
        await new Promise((resolve) => setTimeout(resolve, 20));
        ran.push(index);
      }),
    ),
  );
  assert.is(ran.length, 3);
  assert.ok(peak <= checkMemoryBytes, `held ${peak} bytes at most`);
  assert.is(peak, megabytes(40), 'two would not fit together');
  assert.is(checkMemoryHeld(), 0, 'all of it freed');
});

test('small checks share the budget; one larger than it runs alone, and a failure frees its bytes', async () => {
  let peak = 0;
  const watch = async () => {
    peak = Math.max(peak, checkMemoryHeld());
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  await Promise.all([holdingCheckMemory(megabytes(10), watch), holdingCheckMemory(megabytes(10), watch), holdingCheckMemory(megabytes(500), watch)]);
  assert.ok(peak <= checkMemoryBytes, `held ${peak} bytes at most`);
  await holdingCheckMemory(megabytes(30), async () => {
    throw new Error('a check that fails');
  }).catch(() => undefined);
  assert.is(checkMemoryHeld(), 0);
});

test.run();
