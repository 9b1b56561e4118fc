/**
 * Upstream Document blocks the markdown reader and the browser's editor model both make, in a
 * module of no import (the editor's model imports it by itself).
 */
type Node = Record<string, unknown> & { object: string };

const paragraph = (nodes: Node[]): Node => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const text = (value: string): Node => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });

/** An image: its data (`ref`, `alt`, `width` in pixels) and its caption, a `caption` fragment when it has one. */
export function imageBlock(data: Record<string, unknown>, caption: string): Node {
  return { object: 'block', type: 'image', data, fragments: caption ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([text(caption)])] }] : [], isVoid: true };
}

/** An image's caption: the text of its `caption` fragment, '' without one. */
export function captionOf(image: Record<string, unknown>): string {
  const fragments = Array.isArray(image.fragments) ? (image.fragments as Array<{ fragment?: string; nodes?: unknown[] }>) : [];
  return plainText(fragments.find((fragment) => fragment.fragment === 'caption')?.nodes ?? []);
}

function plainText(nodes: unknown[]): string {
  return nodes
    .map((node) => {
      const value = node as { leaves?: Array<{ text?: string }>; nodes?: unknown[] };
      return value.leaves ? value.leaves.map((leaf) => leaf.text ?? '').join('') : plainText(value.nodes ?? []);
    })
    .join('');
}

/** An expandable: its title (text only) and its body as fragments, the body never empty. */
export function expandableBlock(title: string, body: Node[]): Node {
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: {},
    fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph([text(title)])] },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body.length ? body : [paragraph([text('')])] },
    ],
  };
}

/**
 * The upstream table block in its grid view, from a header and rows of cells: the header names
 * text columns (`c0`, `c1`, … each with its title and alignment), each row is a record (`r0`, …,
 * in order), and each cell's rich text is a paragraph in a fragment the record's value names.
 */

export function gridTable(columns: ReadonlyArray<{ title: string; align: string }>, rows: ReadonlyArray<ReadonlyArray<Node[]>>): Node {
  const ids = columns.map((_, index) => `c${index}`);
  const definition = Object.fromEntries(ids.map((id, index) => [id, { id, title: columns[index]!.title, type: 'text', textAlignment: columns[index]!.align }]));
  const fragments: Node[] = [];
  const records = Object.fromEntries(
    rows.map((cells, index) => {
      const record = `r${index}`;
      const values = Object.fromEntries(
        ids.map((column, cell) => {
          const fragment = `${record}-${column}`;
          fragments.push({ object: 'fragment', fragment, nodes: [paragraph(cells[cell] ?? [])] });
          return [column, fragment];
        }),
      );
      return [record, { orderIndex: index.toString(36).padStart(6, '0'), values }];
    }),
  );
  return { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns: ids, hideHeader: false }, records, definition }, fragments };
}
