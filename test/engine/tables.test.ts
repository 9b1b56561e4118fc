import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { documentToMarkdown } from '../../engine/markdown/fromDocument.js';
import { markdownToDocument } from '../../engine/markdown/toDocument.js';
import { assertUpstreamSchema } from '../helpers/upstream.js';

const test = suite('engine: GFM tables as the upstream table block, both ways');

const markdown = `| Name | Value | Note |
| --- | :---: | ---: |
| **bold** | \`1\` | [a link](https://example.com/x) |
| pipe \\| inside | 2 |  |
`;

test('a table is one table block: text columns aligned as written, a record per row, cells as fragments', () => {
  const [table] = markdownToDocument(markdown).nodes;
  assertUpstreamSchema('DocumentBlockTable', table);
  const data = table!.data as {
    view: { columns: string[] };
    definition: Record<string, { title: string; textAlignment: string }>;
    records: Record<string, { orderIndex: string; values: Record<string, string> }>;
  };
  assert.equal(data.view.columns, ['c0', 'c1', 'c2']);
  assert.equal(
    data.view.columns.map((id) => [data.definition[id]!.title, data.definition[id]!.textAlignment]),
    [
      ['Name', 'left'],
      ['Value', 'center'],
      ['Note', 'right'],
    ],
  );
  assert.equal(Object.keys(data.records), ['r0', 'r1']);
  const fragments = new Map((table!.fragments as Array<{ fragment: string; nodes: unknown[] }>).map((fragment) => [fragment.fragment, fragment.nodes]));
  const textOf = (value: string) => JSON.stringify(fragments.get(value));
  assert.match(textOf(data.records.r0!.values.c0!), /"text":"bold".*"type":"bold"/);
  assert.match(textOf(data.records.r0!.values.c2!), /"type":"link".*"url":"https:\/\/example.com\/x"/);
  assert.match(textOf(data.records.r1!.values.c0!), /"text":"pipe \| inside"/);
});

test('Document → markdown writes the table back, and a second pass changes nothing', () => {
  const document = markdownToDocument(markdown);
  const written = documentToMarkdown(document as never);
  assert.equal(markdownToDocument(written), document, 'the same Document');
  assert.is(documentToMarkdown(markdownToDocument(written) as never), written, 'stable');
  assert.is(written.split('\n')[1], '| -------------- | :---: | ------------------------------: |');
});

test('records come in orderIndex order; values without a fragment are written as text', () => {
  const table = {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: ['name', 'count'], hideHeader: false },
      definition: { name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' }, count: { id: 'count', title: 'Count', type: 'number' } },
      records: { b: { orderIndex: 'b', values: { name: 'Second', count: 2 } }, a: { orderIndex: 'a', values: { name: 'First', count: 1 } } },
    },
    fragments: [],
  };
  assert.is(documentToMarkdown({ object: 'document', nodes: [table] }), '| Name   | Count |\n| ------ | ----- |\n| First  | 1     |\n| Second | 2     |\n');
});

test.run();
