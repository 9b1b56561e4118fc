import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { revertBlocks } from '../../engine/markdown/revertBlocks.js';
import { keyedBlocks, markdownToDocument } from '../../engine/markdown/toDocument.js';

const test = suite('engine: block keys and block reverts');

const keyOf = (markdown: string, text: string) => {
  const block = keyedBlocks(markdown).find((candidate) => markdown.slice(candidate.start, candidate.end).startsWith(text));
  if (!block) throw new Error(`no block starting "${text}"`);
  return block.key;
};

test('a Document node carries its block key; GitBook blocks are one block from tag to end tag', () => {
  const markdown = 'Intro.\n\n{% hint style="info" %}\nMind this.\n{% endhint %}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nIntro.\n';
  const blocks = keyedBlocks(markdown);
  assert.equal(
    blocks.map((block) => markdown.slice(block.start, block.end)),
    ['Intro.', '{% hint style="info" %}\nMind this.\n{% endhint %}', '| a | b |\n| - | - |\n| 1 | 2 |', 'Intro.'],
  );
  assert.is(blocks[3]!.key, `${blocks[0]!.key}-2`, 'a repeated text gets the next occurrence');
  assert.equal(
    markdownToDocument(markdown).nodes.map((node) => node.key),
    blocks.map((block) => block.key),
  );
});

test('changed, added and deleted blocks go back; the others and the spacing between them stay', () => {
  const base = 'One.\n\nTwo.\n\n\nThree.\n\nFour.\n';
  const current = 'One, changed.\n\n\nThree.\n\nFour.\n\nFive.\n';
  assert.equal(revertBlocks(current, base, [keyOf(current, 'One')]), { markdown: 'One.\n\n\nThree.\n\nFour.\n\nFive.\n', unknown: [] });
  assert.equal(revertBlocks(current, base, [keyOf(base, 'Two')]), { markdown: 'One, changed.\n\n\nTwo.\n\nThree.\n\nFour.\n\nFive.\n', unknown: [] });
  assert.equal(revertBlocks(current, base, [keyOf(current, 'Five')]), { markdown: 'One, changed.\n\n\nThree.\n\nFour.\n', unknown: [] });
  assert.equal(revertBlocks(current, base, [keyOf(current, 'Three')]).markdown, current, 'an unchanged block: nothing to revert');
});

test('a moved block goes back where it was; a page emptied gets its blocks back', () => {
  const base = 'A.\n\nB.\n\nC.\n';
  const moved = 'B.\n\nC.\n\nA.\n';
  assert.is(revertBlocks(moved, base, [keyOf(moved, 'A')]).markdown, base);
  assert.is(revertBlocks('', base, [keyOf(base, 'A'), keyOf(base, 'C')]).markdown, 'A.\n\nC.\n');
  assert.is(revertBlocks(base, '', [keyOf(base, 'A'), keyOf(base, 'B'), keyOf(base, 'C')]).markdown, '');
});

test('a key belongs to the content, not its spelling: markdown written another way keeps its keys', () => {
  const one = '* Item *one*\n* Item two\n\nSee [the guide](guide.md).\n';
  const other = "- Item _one_\n- Item two\n\nSee [the guide](guide.md '').\n";
  assert.equal(
    keyedBlocks(one).map((block) => block.key),
    keyedBlocks(other).map((block) => block.key),
  );
  assert.is.not(keyedBlocks('A.\n')[0]!.key, keyedBlocks('B.\n')[0]!.key);
});

test('keys of neither revision are returned, and the text is left as it is', () => {
  assert.equal(revertBlocks('A.\n', 'B.\n', ['nope', `${keyOf('A.\n', 'A')}.2`]), { markdown: 'A.\n', unknown: ['nope'] });
});

test.run();
