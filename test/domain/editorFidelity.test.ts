import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TextSelection, EditorState } from 'prosemirror-state';
import { documentOfBlocks, openedBlocks, writtenBlocks } from '../../domain/documents/editor/index.js';
import { holdsWhole } from '../../domain/documents/editor/editorTasks.js';
import { editableBlocks, writeBlocks } from '../../engine/markdown/editableBlocks.js';
import { documentToMarkdown } from '../../engine/markdown/fromDocument.js';
import { markdownToDocument } from '../../engine/markdown/toDocument.js';
import { splitTitleHeading } from '../../engine/markdown/titleHeading.js';
import { templates, type TemplatePage } from '../../engine/templates.js';
import { sameDocumentNode } from '../../engine/markdown/sameDocument.js';
import { randomDocument } from '../helpers/randomDocuments.js';

/**
 * The block editor's contract (issue 53): a page opened and saved without an edit is the same
 * markdown, byte for byte; an edit rewrites the edited block only; what the editor holds comes
 * back as the same Document. Run here on the editor's own model (what the browser runs), over
 * every fixture page, every template page, and random Documents of every block type.
 */
const test = suite('the block editor’s fidelity');
const corpus = new URL('../fixtures/markdown-corpus/', import.meta.url);
const templatePages = (pages: TemplatePage[]): TemplatePage[] => pages.flatMap((page) => [page, ...templatePages(page.children ?? [])]);
const samples: Array<[string, string]> = [
  ...templates.flatMap((template) =>
    [...templatePages(template.pages), ...(template.groups ?? []).flatMap((group) => templatePages(group.pages))].map((page): [string, string] => [`${template.id}/${page.file}`, page.body]),
  ),
  ...readdirSync(corpus).map((name): [string, string] => [name, splitTitleHeading(readFileSync(new URL(name, corpus), 'utf8')).text]),
];

/** What the editor saves of a page opened and left alone. */
function savedUnchanged(markdown: string): string {
  const doc = documentOfBlocks(editableBlocks(markdown, holdsWhole));
  return writeBlocks(markdown, writtenBlocks(doc, openedBlocks(doc)));
}

/** What the editor saves when every block it holds was touched (so written from its node). */
function savedTouched(markdown: string): string {
  const doc = documentOfBlocks(editableBlocks(markdown, holdsWhole));
  return writeBlocks(markdown, writtenBlocks(doc, new Map()));
}

const sameDocuments = (a: string, b: string) => {
  const [x, y] = [markdownToDocument(a).nodes, markdownToDocument(b).nodes];
  return x.length === y.length && x.every((node, index) => sameDocumentNode(node, y[index]!));
};

test('every fixture and template page, opened and saved without an edit, is the same markdown byte for byte', () => {
  assert.ok(samples.length > 40, `${samples.length} pages`);
  for (const [name, markdown] of samples) assert.is(savedUnchanged(markdown), markdown, name);
});

test('every block the editor holds, written again from its node, reads back as the same Document', () => {
  let held = 0;
  for (const [name, markdown] of samples) {
    held += editableBlocks(markdown, holdsWhole).filter((block) => 'node' in block).length;
    const written = savedTouched(markdown);
    assert.ok(sameDocuments(written, markdown), `${name}\n--- written ---\n${written}`);
  }
  assert.ok(held > 60, `${held} blocks held as nodes`);
});

test('what the editor can’t hold is kept whole, as its markdown: footnotes, cards tables, OpenAPI blocks with content', () => {
  const rich = splitTitleHeading(readFileSync(new URL('35-rich-blocks.md', corpus), 'utf8')).text;
  const opaque = editableBlocks(rich, holdsWhole).flatMap((block) => ('source' in block ? [block.source] : []));
  assert.ok(opaque.some((source) => source.startsWith('<table data-view="cards">')));
  assert.ok(opaque.some((source) => source.startsWith('{% openapi-operation')));
  assert.is(savedTouched(rich).includes('[OpenAPI petstore](https://example.com/petstore.yaml)'), true, 'the link inside the OpenAPI block is still there');
});

test('a figure (an image captioned or sized) is an image in the editor; an empty caption, which reads as none, is kept as written', () => {
  const figures = splitTitleHeading(readFileSync(new URL('36-figures.md', corpus), 'utf8')).text;
  const blocks = editableBlocks(figures, holdsWhole);
  assert.equal(
    blocks.map((block) => ('node' in block ? block.node.type : 'source')),
    ['paragraph', 'images', 'paragraph', 'images', 'source', 'images'],
  );
  const doc = documentOfBlocks(blocks);
  const image = doc.child(1).firstChild!;
  assert.equal([image.attrs.width, image.attrs.caption, image.attrs.alt], [375, 'How a request flows', 'Boxes and arrows']);
  // A new width, as the block settings set it: that figure's line alone changes.
  const state = EditorState.create({ doc });
  const resized = state.apply(state.tr.setNodeMarkup(state.doc.child(0).nodeSize + 1, undefined, { ...image.attrs, width: 500 }));
  const saved = writeBlocks(figures, writtenBlocks(resized.doc, openedBlocks(doc)));
  assert.is(saved, figures.replace('width="375"', 'width="500"'));
});

test('typing one sentence changes that sentence’s line and nothing else', () => {
  for (const [name, markdown] of samples) {
    const doc = documentOfBlocks(editableBlocks(markdown, holdsWhole));
    let state = EditorState.create({ doc });
    // The end of the first paragraph's text, wherever it is.
    let end = -1;
    doc.descendants((node, pos) => {
      if (end < 0 && node.type.name === 'paragraph' && node.textContent.trim() && !/\n/.test(node.textContent)) end = pos + node.nodeSize - 1;
      return end < 0;
    });
    if (end < 0) continue;
    state = state.apply(state.tr.setSelection(TextSelection.create(state.doc, end)).insertText(' One more sentence.'));
    const saved = writeBlocks(markdown, writtenBlocks(state.doc, openedBlocks(doc)));
    const [before, after] = [markdown.split('\n'), saved.split('\n')];
    const changed = after.filter((line, index) => line !== before[index]);
    assert.is(after.length, before.length, `${name}: as many lines`);
    assert.is(changed.length, 1, `${name}: one line changed\n${changed.join('\n')}`);
    assert.ok(changed[0]!.endsWith(' One more sentence.'), `${name}: ${changed[0]}`);
  }
});

test('random Documents of every block type, nested, with marks: held whole, saved unchanged byte for byte, written again as the same Document', () => {
  for (let seed = 1; seed <= 300; seed += 1) {
    const markdown = documentToMarkdown(randomDocument(seed));
    const blocks = editableBlocks(markdown, holdsWhole);
    const opaque = blocks.filter((block) => 'source' in block);
    assert.equal(opaque, [], `seed ${seed}: every block held as a node\n${markdown}`);
    assert.is(savedUnchanged(markdown), markdown, `seed ${seed}`);
    const written = savedTouched(markdown);
    assert.ok(sameDocuments(written, markdown), `seed ${seed}\n--- markdown ---\n${markdown}\n--- written ---\n${written}`);
  }
});

test.run();
