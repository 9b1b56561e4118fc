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
    assert.is(
      replaceSegments(
        markdown,
        segments,
        segments.map((segment) => segment.html),
      ),
      markdown,
      name,
    );
  }
});

test('code, inline code, URLs, frontmatter, HTML and GitBook tags never reach the translator as text', () => {
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
  const segments = textSegments(markdown);
  assert.equal(
    segments.map((segment) => segment.html),
    ['Install the tool', 'Run <x id="x0"></x> then open <x id="x1"></x> or <a id="a0">the guide</a>.', 'Mind the gap.', 'Name', 'Value', 'Port'],
  );
  const translated = replaceSegments(
    markdown,
    segments,
    segments.map((segment) => `FR* ${segment.html.replace('the guide', 'le guide')}`),
  );
  assert.ok(translated.includes('# FR\\* Install the tool'), 'markup characters in a translation are escaped');
  assert.ok(translated.includes('FR\\* Run `npm install` then open <https://example.com/docs> or [le guide](guide.md).'), translated);
  assert.ok(translated.includes('description: Kept as it is') && translated.includes('echo "not prose"') && translated.includes('<div>raw html</div>'));
  assert.ok(translated.includes('{% hint style="warning" %}\nFR\\* Mind the gap.\n{% endhint %}'));
  assert.is(countWords(segments.map((segment) => segment.text)), 15);
});

test('a sentence with links and marks reaches the translator whole, and comes back with its links, marks and code where the translation puts them', () => {
  const markdown = 'Start with the [quick start](quick-start.md "Begin"), or read the **[FAQ](faq.md)** and run `init`.\n';
  const segments = textSegments(markdown);
  assert.equal(
    segments.map((segment) => segment.html),
    ['Start with the <a id="a0">quick start</a>, or read the <strong><a id="a1">FAQ</a></strong> and run <x id="x0"></x>.'],
  );
  const french = 'Lisez la <strong><a id="a1">FAQ</a></strong> et lancez <x id="x0"></x>, ou commencez par le <a id="a0">démarrage rapide</a>.';
  assert.is(replaceSegments(markdown, segments, [french]), 'Lisez la **[FAQ](faq.md)** et lancez `init`, ou commencez par le [démarrage rapide](quick-start.md "Begin").\n');
  assert.is(replaceSegments(markdown, segments, ['Commencez par le démarrage rapide.']), 'Commencez par le démarrage rapide. `init`\n', 'what the translator dropped follows the text, never lost');
  const summary = '* [Quick start](quick-start.md)\n';
  assert.equal(
    textSegments(summary).map((segment) => segment.html),
    ['Quick start'],
    'a link alone is its text: a table of contents stays links',
  );
  assert.is(replaceSegments(summary, textSegments(summary), ['Démarrage <em>rapide</em>']), '* [Démarrage *rapide*](quick-start.md)\n');
});

test.run();
