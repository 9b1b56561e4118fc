import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { maxMarkdownDepth, nestingBound } from '../../engine/markdown/depth.js';
import { parseMarkdown } from '../../engine/markdown/parse.js';
import { assertMarkdownDepth } from '../../engine/markdown/toDocument.js';

const test = suite('engine: the markdown nesting bound');

/** The deepest node of a parsed run (the root at 0), walked with a stack. */
function depthOf(markdown: string): number {
  let deepest = 0;
  const stack: Array<[{ children?: unknown[] }, number]> = [[parseMarkdown(markdown), 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of node.children ?? []) stack.push([child as { children?: unknown[] }, depth + 1]);
  }
  return deepest;
}

test('constructs that nest on one line or without a marker of their own stay within the bound', () => {
  const cases = [
    '- - - - - a',
    '1. 2) 3. - + * a',
    '> - > 1. > *a*',
    '> - | a | b |\n  | - | - |\n  | *[**x**](y)* | ~~z~~ |',
    'a\n:-\n*www.example.com*',
    '***a*** _**~~[<http://x.y>](z)~~**_',
    '- [ ] task\n  - [x] done\n    1986. year',
    '* * *\n- - -\n***',
    '  -   - \t- a',
  ];
  for (const markdown of cases) assert.ok(depthOf(markdown) <= nestingBound(markdown), `${JSON.stringify(markdown)}: depth ${depthOf(markdown)}, bound ${nestingBound(markdown)}`);
});

test('prose counts only what can open a level: hyphens, periods and digits mid-line do not', () => {
  assert.is(nestingBound('A well-known fact, said twice. Version 3.5 (or 4) — two-thirds done.\n\nLine 0 of page 5.\n'), 6);
  assert.is(nestingBound('- item\n  1. sub'), 6 + 3 * 2);
  assert.is(nestingBound('See [the guide](x) and *this*.'), 6 + 3 * 3);
  assert.is(nestingBound('A footnote[^1].\n\n[^1]: - - - a'), Infinity, 'a footnote definition can start blocks mid-line');
});

test('generated markdown never parses deeper than its bound', () => {
  const tokens = [
    '> ',
    '- ',
    '+ ',
    '* ',
    '1. ',
    '2) ',
    '  ',
    '    ',
    '\t',
    'a',
    'b ',
    '*',
    '**',
    '_',
    '__',
    '~~',
    '~',
    '[',
    '](u)',
    ']',
    '<',
    '<http://x.y>',
    'www.example.com',
    'http://a.b/c',
    'x@y.zz',
    '|',
    '| a |',
    ':-',
    '---',
    '===',
    '\n',
    '\n\n',
    '# ',
    '`',
    '```',
    '![i](p)',
    '[x]: y',
    '[ ] ',
    '[x] ',
    '&amp;',
    '\\*',
    '<div>',
    '1986. ',
    'word. ',
    '3.5 ',
  ];
  let seed = 20261123;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  let checked = 0;
  for (let round = 0; round < 4000; round += 1) {
    const markdown = Array.from({ length: 1 + random(40) }, () => tokens[random(tokens.length)]).join('');
    const bound = nestingBound(markdown);
    if (bound === Infinity) continue;
    const depth = depthOf(markdown);
    assert.ok(depth <= bound, `${JSON.stringify(markdown)}: depth ${depth}, bound ${bound}`);
    checked += 1;
  }
  assert.ok(checked > 3500, `${checked} runs checked`);
});

test('a run the bound clears is not parsed, and the limit is still enforced on the others', () => {
  // Nineteen openers: 6 + 57 = 63, within the limit, whatever they are.
  assert.ok(nestingBound(`${'> '.repeat(19)}deep`) <= maxMarkdownDepth);
  assertMarkdownDepth(`${'> '.repeat(19)}deep`);
  assertMarkdownDepth(`${'> '.repeat(62)}deep`);
  assert.throws(() => assertMarkdownDepth(`${'> '.repeat(64)}deep`), /deeper than the limit of 64 levels/);
  assert.throws(() => assertMarkdownDepth(Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')), /deeper than the limit of 64 levels/);
});

test.run();
