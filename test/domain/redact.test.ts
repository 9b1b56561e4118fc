import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { redact, type RedactedKind } from '../../domain/conversations/redact.js';

const test = suite('redaction: phone numbers, within a bounded amount of libphonenumber work');

test('phone numbers in their usual spellings are found; short numbers and prices stay', () => {
  assert.is(redact('call me at +1 (415) 555-0100 today'), 'call me at [phone] today');
  assert.is(redact('or 202-555-0123.'), 'or [phone].');
  assert.is(redact('London: +44 20 7946 0958'), 'London: [phone]');
  assert.is(redact('order 123456 shipped for $42.50'), 'order 123456 shipped for $42.50');
});

test('past the first 16 KB of number runs, every stretch of 7 to 17 digits is hidden: more, never less', () => {
  const filler = '1 2 3 4 5 6 a '.repeat(2000); // runs of six digits: skipped, never read by libphonenumber
  const dense = '3 8 1 9 2 7 4 a '.repeat(3000); // 48 KB of seven-digit runs
  const found = new Set<RedactedKind>();
  const redacted = redact(`${filler}${dense}then 202 555 0123 and 2 0 2 5 5 5 0 1 2 4`, found);
  assert.ok(redacted.startsWith(filler), 'runs of six digits left as they are');
  assert.ok(redacted.endsWith('then [phone] and [phone]'), redacted.slice(-80));
  assert.ok(found.has('phone'));
  assert.ok(redacted.includes('[phone] a [phone] a'), 'the dense tail past the budget is hidden');
});

test.run();
