import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { documentToMarkdown } from '../../engine/markdown/fromDocument.js';
import { markdownToDocument } from '../../engine/markdown/toDocument.js';
import { templates, type TemplatePage } from '../../engine/templates.js';

const test = suite('Document → markdown');
const corpus = new URL('../fixtures/markdown-corpus/', import.meta.url);

const templatePages = (pages: TemplatePage[]): TemplatePage[] => pages.flatMap((page) => [page, ...templatePages(page.children ?? [])]);
const samples: Array<[string, string]> = [
  ...templates.flatMap((template) =>
    [...templatePages(template.pages), ...(template.groups ?? []).flatMap((group) => templatePages(group.pages))].map((page): [string, string] => [
      `${template.id}/${page.file}`,
      `# ${page.title}\n\n${page.body}`,
    ]),
  ),
  ...readdirSync(corpus).map((name): [string, string] => [name, readFileSync(new URL(name, corpus), 'utf8')]),
];

test('the corpus has at least 30 pages beside the templates', () => {
  assert.ok(readdirSync(corpus).length >= 30);
});

test('markdown → Document → markdown keeps the Document and is stable from the first pass', () => {
  for (const [name, markdown] of samples) {
    const document = markdownToDocument(markdown);
    const written = documentToMarkdown(document);
    assert.equal(markdownToDocument(written), document, `${name}: the written markdown reads back as the same Document\n${written}`);
    assert.is(documentToMarkdown(markdownToDocument(written)), written, `${name}: a second pass changes nothing`);
  }
});

test('GitBook blocks and marks are written as GitBook writes them', () => {
  const written = documentToMarkdown(markdownToDocument(readFileSync(new URL('03-hints.md', corpus), 'utf8')));
  assert.ok(written.includes('{% hint style="warning" %}\nCareful: **this** deletes data.\n{% endhint %}'), written);
  const tabs = documentToMarkdown(markdownToDocument(readFileSync(new URL('04-tabs.md', corpus), 'utf8')));
  assert.ok(tabs.startsWith('# Platforms\n\n{% tabs %}\n{% tab title="macOS" %}\nUse Homebrew:\n\n```sh\nbrew install quire\n```\n{% endtab %}'), tabs);
  const code = documentToMarkdown(markdownToDocument(readFileSync(new URL('05-code-titles.md', corpus), 'utf8')));
  assert.is(code, '# Configuration file\n\n{% code title="config.yaml" overflow="wrap" lineNumbers="true" %}\n```yaml\nport: 3000\nhost: 0.0.0.0\n```\n{% endcode %}\n');
});

test('content references become /pages/ and /files/ links; anything not a Document is refused', () => {
  const document = {
    object: 'document' as const,
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'abc' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'a page', marks: [] }] }] },
          { object: 'text', leaves: [{ object: 'leaf', text: ' and ', marks: [] }] },
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'anchor', anchor: 'top', page: 'abc' } },
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'its top', marks: [{ object: 'mark', type: 'bold' }] }] }],
          },
        ],
      },
      { object: 'block', type: 'file', data: { ref: { kind: 'file', file: 'f1' } }, isVoid: true },
    ],
  };
  assert.is(documentToMarkdown(document), '[a page](/pages/abc) and [**its top**](/pages/abc#top)\n\n{% file src="/files/f1" %}\n{% endfile %}\n');
  assert.throws(() => documentToMarkdown({ object: 'nope', nodes: [] } as never), /not a Document/);
});

test.run();
