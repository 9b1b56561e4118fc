import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { splitBlocks } from '../../engine/markdown/blocks.js';
import { markdownToDocument, type DocumentNode, type ResolveRef } from '../../engine/markdown/toDocument.js';
import { documentToMarkdown } from '../../engine/markdown/fromDocument.js';
import { assertUpstreamSchema } from '../helpers/upstream.js';

const test = suite('engine: markdown to Document');

const page = `# Getting started

Quire keeps **every** space in _git_, with \`clone\` and ~~no~~ lock-in. See [the guide](guides/writing.md) or [above](#top).

{% hint style="warning" %}
Back up your **data**.
{% endhint %}

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm ci
\`\`\`
{% endtab %}
{% tab title="Docker" %}
Not here.
{% endtab %}
{% endtabs %}

{% code title="hello.js" lineNumbers="true" %}
\`\`\`js
console.log('hello');
// {% hint %} inside code stays code
\`\`\`
{% endcode %}

1. First
2. Second
   * nested

- [x] done
- [ ] todo

> Quoted words

---

![Logo](.gitbook/assets/logo.png)

{% embed url="https://example.com/video" %}

{% content-ref url="guides/writing.md" %}
[writing.md](guides/writing.md)
{% endcontent-ref %}

| Name | Role |
| --- | --- |
| Ada | admin |
`;

/** A value with its nodes' keys left out: a shape to compare. */
const unkeyed = (value: unknown) => JSON.parse(JSON.stringify(value, (name, inner: unknown) => (name === 'key' ? undefined : inner))) as unknown;
const types = (nodes: DocumentNode[]) => nodes.map((node) => node.type);

test('GitBook blocks are split from markdown, code fences left alone', () => {
  const segments = splitBlocks(page);
  const blocks = segments.filter((segment) => segment.kind === 'block').map((segment) => (segment.kind === 'block' ? segment.name : ''));
  assert.equal(blocks, ['hint', 'tabs', 'code', 'embed', 'content-ref']);
  const code = segments.find((segment) => segment.kind === 'block' && segment.name === 'code');
  assert.ok(code?.kind === 'block' && code.children[0]?.kind === 'markdown' && code.children[0].text.includes('{% hint %} inside code'));
});

test('a page becomes a Document the upstream schema accepts', () => {
  const document = markdownToDocument(page, (target) =>
    target === 'guides/writing.md'
      ? { kind: 'page', page: 'writingPage' }
      : target.startsWith('#')
        ? { kind: 'anchor', anchor: target.slice(1) }
        : target.startsWith('.gitbook/assets/')
          ? { kind: 'file', file: 'logoFile' }
          : { kind: 'url', url: target },
  );
  assertUpstreamSchema('JSONDocument', document);
  assert.equal(types(document.nodes), ['heading-1', 'paragraph', 'hint', 'tabs', 'code', 'list-ordered', 'list-tasks', 'blockquote', 'divider', 'images', 'embed', 'content-ref', 'table']);
  const paragraph = document.nodes[1]!;
  const link = (paragraph.nodes as DocumentNode[]).find((node) => node.type === 'link');
  assert.equal((link?.data as { ref: unknown }).ref, { kind: 'page', page: 'writingPage' });
  const bold = (paragraph.nodes as DocumentNode[]).find((node) => JSON.stringify(node).includes('"bold"'));
  assert.ok(bold, 'marks survive');
  assert.equal(document.nodes[2]!.data, { style: 'warning' });
  const code = document.nodes[4]!;
  assert.equal(code.data, { syntax: 'js', title: 'hello.js', lineNumbers: true });
  assert.is((code.nodes as DocumentNode[]).length, 2);
  const tasks = document.nodes[6]!;
  assert.equal(
    (tasks.nodes as DocumentNode[]).map((item) => (item.data as { checked: boolean }).checked),
    [true, false],
  );
  assert.equal((document.nodes[9]!.nodes as DocumentNode[])[0]!.data, { ref: { kind: 'file', file: 'logoFile' }, alt: 'Logo' });
});

test('steppers, expandables, math, cards and OpenAPI blocks become the upstream blocks', () => {
  const rich = readFileSync(new URL('../fixtures/markdown-corpus/35-rich-blocks.md', import.meta.url), 'utf8');
  const document = markdownToDocument(rich, (target) => (target.endsWith('.md') ? { kind: 'page', page: target.slice(0, -3) } : { kind: 'url', url: target }));
  assertUpstreamSchema('JSONDocument', document);
  assert.equal(types(document.nodes), ['heading-1', 'paragraph', 'math', 'stepper', 'expandable', 'code', 'table', 'openapi-operation', 'swagger']);
  const inlineMath = (document.nodes[1]!.nodes as DocumentNode[]).find((node) => node.type === 'inline-math');
  assert.equal(inlineMath?.data, { formula: 'E = mc^2' });
  assert.ok(JSON.stringify(document.nodes[1]).includes('a price of $5 and $6'), 'single dollars stay text');
  assert.equal(document.nodes[2]!.data, { formula: '\\int_0^1 x^2 \\, dx = \\frac{1}{3}' });
  assert.equal(types(document.nodes[3]!.nodes as DocumentNode[]), ['stepper-step', 'stepper-step']);
  const fragments = document.nodes[4]!.fragments as DocumentNode[];
  assert.ok(JSON.stringify(fragments[0]).includes('"Why & how"'), 'the summary is the title, entities decoded');
  assert.ok(JSON.stringify(fragments[1]).includes('"bold"'));
  assert.equal(document.nodes[5]!.data, { syntax: 'mermaid' });
  const cards = document.nodes[6]!.data as { view: Record<string, unknown>; records: Record<string, { values: Record<string, unknown> }> };
  assert.equal(cards.view, { type: 'cards', cardSize: 'medium', columns: ['c0'], targetDefinition: 'c1', coverDefinition: 'c2' });
  assert.equal(cards.records.r1!.values.c1, { kind: 'page', page: 'next' });
  assert.equal(document.nodes[7]!.data, { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' });
  assert.equal(document.nodes[8]!.data, { ref: { kind: 'url', url: 'https://example.com/petstore.yaml' }, path: '/pets/{petId}', method: 'delete' });
});

test('a figure (GitBook’s captioned or sized image) is an images block with its caption and width, written back as the same figure', () => {
  const figures = readFileSync(new URL('../fixtures/markdown-corpus/36-figures.md', import.meta.url), 'utf8');
  const document = markdownToDocument(figures);
  assertUpstreamSchema('JSONDocument', document);
  assert.equal(types(document.nodes), ['heading-1', 'paragraph', 'images', 'paragraph', 'images', 'images', 'images']);
  const [captioned, sized, bare] = [2, 4, 5].map((index) => (document.nodes[index]!.nodes as DocumentNode[])[0]!);
  assert.equal(captioned!.data, { ref: { kind: 'url', url: '.gitbook/assets/diagram.png' }, alt: 'Boxes and arrows', width: 375 });
  assert.equal(unkeyed(captioned!.fragments), [
    {
      object: 'fragment',
      fragment: 'caption',
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'How a request flows', marks: [] }] }] }],
    },
  ]);
  assert.equal([sized!.data, sized!.fragments], [{ ref: { kind: 'url', url: '.gitbook/assets/screenshot.png' }, width: 600 }, []]);
  assert.equal([bare!.data, bare!.fragments], [{ ref: { kind: 'url', url: '.gitbook/assets/logo.png' } }, []], 'an empty caption is none');
  const written = documentToMarkdown(document);
  assert.ok(written.includes('<figure><img src=".gitbook/assets/diagram.png" alt="Boxes and arrows" width="375"><figcaption><p>How a request flows</p></figcaption></figure>'), written);
  assert.ok(written.includes('<figure><img src=".gitbook/assets/screenshot.png" alt="" width="600"></figure>'), written);
  assert.ok(written.includes('![](.gitbook/assets/logo.png)'), 'nothing to say but the image: markdown’s own image');
  assert.equal(
    markdownToDocument(written).nodes.map(({ key: _key, ...node }) => node),
    document.nodes.map(({ key: _key, ...node }) => node),
  );
  const other = markdownToDocument('<figure><img src="a.png"><img src="b.png"></figure>\n\n<figure><p>No image</p></figure>\n');
  assert.equal(types(other.nodes), ['paragraph', 'paragraph'], 'a figure of anything else is HTML, kept as text');
});

test('every block, inline, text and fragment has a key, unique in the page, that stays while its top-level block does', () => {
  const corpus = ['35-rich-blocks.md', '04-tabs.md', '36-figures.md', '03-hints.md'].map((name) => readFileSync(new URL(`../fixtures/markdown-corpus/${name}`, import.meta.url), 'utf8')).join('\n\n');
  const pages: ResolveRef = (target) => (target.endsWith('.md') ? { kind: 'page', page: target.slice(0, -3) } : { kind: 'url', url: target });
  const document = markdownToDocument(corpus, pages);
  assertUpstreamSchema('JSONDocument', document);
  const keys = new Map<string, string>();
  const visit = (node: DocumentNode, where: string) => {
    if (node.object === 'leaf') return assert.is(node.key, undefined, `${where}: a leaf has no key, as upstream`);
    assert.type(node.key, 'string', `${where} (${String(node.type ?? node.fragment)}) has a key`);
    assert.not.ok(keys.has(node.key as string), `${where}: key ${String(node.key)} is also ${keys.get(node.key as string)}'s`);
    keys.set(node.key as string, where);
    for (const [index, child] of ((node.nodes ?? node.leaves ?? []) as DocumentNode[]).entries()) visit(child, `${where}/${index}`);
    for (const fragment of (node.fragments ?? []) as DocumentNode[]) visit(fragment, `${where}:${String(fragment.fragment)}`);
  };
  document.nodes.forEach((node, index) => visit(node, String(index)));
  const tabs = document.nodes.find((node) => node.type === 'tabs')!;
  const tabKeys = (tabs.nodes as DocumentNode[]).map((tab) => tab.key);
  assert.equal(tabKeys, [`${tabs.key}/0`, `${tabs.key}/1`], 'each tab keyed (GitBook’s renderer fails a tab without one)');
  // A paragraph added before the tabs: the tabs and everything in them keep their keys.
  const edited = markdownToDocument(`A new first paragraph.\n\n${corpus}`, pages);
  assert.equal(
    edited.nodes.find((node) => node.type === 'tabs'),
    tabs,
  );
});

test('the schema check itself refuses a malformed Document', () => {
  assert.throws(() => assertUpstreamSchema('JSONDocument', { object: 'document', data: {}, nodes: [{ object: 'block', type: 'bogus', nodes: [] }] }), /does not match/);
});

test('links with a stray % or from the root resolve without throwing', async () => {
  const { resolveLink } = await import('../../engine/resolveLink.js');
  const revision = {
    commit: 'c',
    parents: [],
    message: '',
    createdAt: '',
    files: [],
    reusableContents: [],
    redirects: new Map(),
    pages: [{ id: 'root', kind: 'document' as const, title: 'R', path: '', slug: '', file: 'README.md', meta: {}, pages: [] }],
  };
  const byFile = new Map([['README.md', revision.pages[0]!]]);
  assert.equal(resolveLink(revision, byFile, 'deep/page.md', '50%off.md'), { ref: { kind: 'url', url: '50%off.md' }, broken: true });
  assert.equal(resolveLink(revision, byFile, 'deep/page.md', '/README.md').ref, { kind: 'page', page: 'root' });
});

test('a paragraph wrapped over lines is one line of text; a hard break stays a line break', () => {
  const document = markdownToDocument('Wrapped over\n   two lines, `code\nspan` too.\n\nBroken here\\\nand here  \nthere.\n', (target) => ({ kind: 'url', url: target }));
  const texts = document.nodes.map((block) => (block.nodes as DocumentNode[]).map((node) => ((node.leaves as Array<{ text: string }> | undefined) ?? []).map((leaf) => leaf.text).join('')).join(''));
  assert.equal(texts, ['Wrapped over two lines, code span too.', 'Broken here\nand here\nthere.']);
});

test('a long page read in pieces (cut before headings) reads as it does whole: fences, math, lists', () => {
  const types = (markdown: string) => markdownToDocument(markdown).nodes.map((node) => node.type);
  // Code and math fences hold a "# heading" after a blank line; a list goes on over a blank line; a heading ends it.
  const fenced = '## One\n\n```sh\necho\n\n# not a heading\n```\n\n$$\nx\n\n# not either\n$$\n\n- a\n\n- b\n\n## Two\n\n- c\n';
  assert.equal(types(fenced), ['heading-2', 'code', 'math', 'list-unordered', 'heading-2', 'list-unordered']);
  const code = markdownToDocument(fenced).nodes[1] as DocumentNode & { nodes: DocumentNode[] };
  assert.is(code.nodes.length, 3, 'the code keeps its three lines');
});

test('an empty page is an empty Document', () => {
  const document = markdownToDocument('');
  assertUpstreamSchema('JSONDocument', document);
  assert.equal(document.nodes, []);
});

test.run();
