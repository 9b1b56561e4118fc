import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonCache } from '../../api/jsonCache.js';
import { BudgetedCache, ownedBytes } from '../../engine/runtime/cacheBudget.js';

const test = suite('engine: the budgeted cache drops what was used least recently');

test('an entry used again after a while moves to the end; the least recently used goes first', () => {
  const cache = new BudgetedCache<string, string>('test', () => 100, 1000); // room for ten entries
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

test('a stream of new entries through a full cache evicts the oldest, one for one', () => {
  const cache = new BudgetedCache<number, number>('test', () => 100, 100 * 100_000); // room for 100,000 entries
  for (let i = 0; i < 100_000; i += 1) cache.set(i, i);
  // Each evicts the oldest. (Evicting a Map's first entry over and over walked past its deleted
  // slots: about 16 µs an eviction at this size, 3 s for these. `npm run bench search-refresh`
  // shows what that cost a 10,000-page space.)
  for (let i = 100_000; i < 300_000; i += 1) cache.set(i, i);
  assert.is(cache.get(199_999), undefined, 'the oldest went first');
  assert.is(cache.get(200_000), 200_000);
  assert.is(cache.get(299_999), 299_999);
});

test('entries deleted, re-set and read keep the order of use', () => {
  const cache = new BudgetedCache<string, string>('test', () => 100, 300);
  cache.set('a', '1');
  cache.set('b', '2');
  cache.set('c', '3');
  cache.delete('b');
  cache.set('a', '1 again'); // now the newest
  cache.set('d', '4');
  cache.set('e', '5'); // evicts c, the oldest
  assert.is(cache.get('c'), undefined);
  assert.is(cache.get('a'), '1 again');
  assert.is(cache.get('d'), '4');
  assert.is(cache.get('e'), '5');
  cache.set('f', '6'); // evicts the least recently used: a was read before d and e
  assert.is(cache.get('a'), undefined);
});

test('bytes kept in a cache own their memory: a small Buffer is copied out of the pool slab it shares', () => {
  const pooled = Buffer.from('{"small":true}');
  assert.ok(pooled.buffer.byteLength >= 8192, `the premise: Node pools small Buffers (${pooled.buffer.byteLength})`);
  const owned = ownedBytes(pooled);
  assert.is(owned.buffer.byteLength, owned.length);
  assert.ok(owned.equals(pooled));
  const view = new Uint8Array(pooled.buffer, pooled.byteOffset + 1, 5);
  assert.is(ownedBytes(view).toString(), pooled.subarray(1, 6).toString(), 'a view of part of a buffer, copied');
  const alone = Buffer.allocUnsafeSlow(10);
  assert.is(ownedBytes(alone), alone, 'a Buffer that owns its memory is kept as it is');
  const json = new JsonCache('owned bytes test').get('key', () => ({ small: true }));
  assert.is(json.buffer.byteLength, json.length, 'JSON kept for responses owns its bytes');
});

test.run();
