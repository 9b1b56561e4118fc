import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countWords, replaceSegments, textSegments } from '../../domain/translations/markdownText.js';
import { templateChanges, templates } from '../../engine/templates.js';

const test = suite('translating markdown: only prose changes');

const corpus = new URL('../fixtures/markdown-corpus/', import.meta.url);
const files: Array<[string, string]> = [
  ...templates.flatMap((template) =>
    templateChanges(template).flatMap((change) => ('content' in change && change.path.endsWith('.md') ? [[`${template.id}/${change.path}`, String(change.content)] as [string, string]] : [])),
  ),
  ...readdirSync(corpus)
    .filter((name) => name.endsWith('.md'))
    .map((name) => [`corpus/${name}`, readFileSync(new URL(name, corpus), 'utf8')] as [string, string]),
];

test('an identity translation gives back every template page and corpus page byte for byte', () => {
  assert.ok(files.length > 30, `${files.length} files`);
  for (const [name, markdown] of files) {
    const segments = textSegments(markdown);
    assert.is(replaceSegments(markdown, segments, segments.map((segment) => segment.text)), markdown, name);
  }
});

test('code, inline code, URLs, frontmatter, HTML and GitBook tags are never segments', () => {
  const markdown = [
    '---',
    'description: Kept as it is',
    'pageId: abc',
    '---',
    '',
    '# Install the tool',
    '',
    'Run `npm install` then open <https://example.com/docs> or [the guide](guide.md).',
    '',
    '{% hint style="warning" %}',
    'Mind the gap.',
    '{% endhint %}',
    '',
    '```sh',
    'echo "not prose"',
    '```',
    '',
    '<div>raw html</div>',
    '',
    '| Name | Value |',
    '| --- | --- |',
    '| Port | 3000 |',
    '',
  ].join('\n');
  const texts = textSegments(markdown).map((segment) => segment.text);
  assert.equal(texts, ['Install the tool', 'Run', 'then open', 'or', 'the guide', 'Mind the gap.', 'Name', 'Value', 'Port']);
  const translated = replaceSegments(markdown, textSegments(markdown), texts.map((text) => `<${text}>*`));
  assert.ok(translated.includes('# \\<Install the tool\\>\\*'), 'markup characters in a translation are escaped');
  assert.ok(translated.includes('`npm install`') && translated.includes('<https://example.com/docs>') && translated.includes('(guide.md)'));
  assert.ok(translated.includes('description: Kept as it is') && translated.includes('echo "not prose"') && translated.includes('<div>raw html</div>'));
  assert.ok(translated.includes('{% hint style="warning" %}\n\\<Mind the gap.\\>\\*\n{% endhint %}'));
  assert.is(countWords(texts), 15);
});

test.run();
