import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BudgetedCache } from '../../engine/cacheBudget.js';

const test = suite('engine: the budgeted cache drops what was used least recently');

test('an entry used again after a while moves to the end; the least recently used goes first', () => {
  const cache = new BudgetedCache<string, string>(() => 100, 1000); // room for ten entries
  for (let i = 0; i < 10; i += 1) cache.set(`k${i}`, `v${i}`);
  for (let i = 0; i < 100; i += 1) cache.get('k9'); // a hot entry, asked for again and again
  assert.is(cache.get('k0'), 'v0');
  cache.set('k10', 'v10');
  assert.is(cache.get('k1'), undefined, 'the oldest unused entry went');
  assert.is(cache.get('k0'), 'v0', 'the one used since stayed');
  assert.is(cache.get('k9'), 'v9');
  cache.set('k11', 'v11');
  assert.is(cache.get('k2'), undefined);
});

test.run();
