import type { Document, DocumentNode } from '../../engine/markdown/toDocument.js';
import { imageBlock } from '../../engine/markdown/documentBlocks.js';

/**
 * Random Documents for property tests: every block type a page holds, nested as the Document
 * allows (lists in lists, blocks in hints, tabs, steps and expandables), texts with marks, links
 * and inline math. The same seed makes the same Document.
 */
export function randomDocument(seed: number): Document {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const count = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  const words = ['alpha', 'beta', 'gamma', 'delta', 'page', 'space', 'merge', 'branch', 'Quire', 'docs', 'read', 'write', '42', 'café', 'naïve', 'x'];
  const sentence = () => Array.from({ length: count(1, 6) }, () => pick(words)).join(' ');
  const leaf = (value: string, marks: string[]): DocumentNode => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] });
  const markSets = [[], [], ['bold'], ['italic'], ['strikethrough'], ['code'], ['bold', 'italic']];

  function inlines(): DocumentNode[] {
    const nodes: DocumentNode[] = [leaf(sentence(), [])];
    for (let index = count(0, 3); index > 0; index -= 1) {
      const kind = random();
      if (kind < 0.55) nodes.push(leaf(` ${sentence()} `, []), leaf(sentence(), pick(markSets)));
      else if (kind < 0.8)
        nodes.push(leaf(' ', []), { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: `https://example.com/${pick(words)}` } }, nodes: [leaf(sentence(), pick(markSets))] });
      else nodes.push(leaf(' ', []), { object: 'inline', type: 'inline-math', data: { formula: `x^${count(2, 9)}` }, isVoid: true });
    }
    nodes.push(leaf(` ${sentence()}.`, []));
    return nodes;
  }
  const block = (type: string, nodes: DocumentNode[], data: Record<string, unknown> = {}): DocumentNode => ({ object: 'block', type, data, nodes });
  const paragraph = () => block('paragraph', inlines());
  const heading = () => block(`heading-${count(1, 3)}`, [leaf(sentence(), [])]);
  function list(depth: number): DocumentNode {
    const type = pick(['list-unordered', 'list-ordered', 'list-tasks']);
    const items = Array.from({ length: count(1, 3) }, () =>
      block('list-item', [paragraph(), ...(depth < 2 && random() < 0.25 ? [list(depth + 1)] : [])], type === 'list-tasks' ? { checked: random() < 0.5 } : {}),
    );
    return block(type, items);
  }
  const essential = (depth = 0): DocumentNode => pick([paragraph, paragraph, heading, () => list(depth), () => ({ object: 'block', type: 'divider', data: {}, isVoid: true }) as DocumentNode])();
  const code = (): DocumentNode => {
    const data: Record<string, unknown> = random() < 0.7 ? { syntax: pick(['js', 'sh', 'python']) } : {};
    if (random() < 0.3) Object.assign(data, { title: `${pick(words)}.js` }, random() < 0.5 ? { lineNumbers: true } : {});
    return block(
      'code',
      Array.from({ length: count(1, 4) }, () => block('code-line', [leaf(`${pick(words)}(${count(0, 9)});`, [])])),
      data,
    );
  };
  const hint = () =>
    block(
      'hint',
      Array.from({ length: count(1, 3) }, () => essential(1)),
      { style: pick(['info', 'warning', 'danger', 'success']) },
    );
  const math = (): DocumentNode => ({ object: 'block', type: 'math', data: { formula: `\\frac{${count(1, 9)}}{${count(2, 9)}}` }, isVoid: true });
  const quote = () => block('blockquote', [paragraph()]);
  const stepContent = () => pick([paragraph, paragraph, code, hint, quote, math, () => list(1)])();
  const tabs = () =>
    block(
      'tabs',
      Array.from({ length: count(1, 3) }, (_, index) => block('tabs-item', Array.from({ length: count(1, 2) }, stepContent), { title: `Tab ${index + 1}` })),
    );
  const stepper = () =>
    block(
      'stepper',
      Array.from({ length: count(1, 3) }, () => block('stepper-step', Array.from({ length: count(1, 2) }, stepContent))),
    );
  const expandable = (): DocumentNode => ({
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: {},
    fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [block('paragraph', [leaf(sentence(), [])])] },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: Array.from({ length: count(1, 2) }, () => pick([paragraph, code, hint, quote])()) },
    ],
  });
  function table(): DocumentNode {
    const columns = Array.from({ length: count(1, 3) }, (_, index) => `c${index}`);
    const rows = count(1, 3);
    const fragments: DocumentNode[] = [];
    const records = Object.fromEntries(
      Array.from({ length: rows }, (_, index) => {
        const record = `r${index}`;
        const values = Object.fromEntries(
          columns.map((column) => {
            fragments.push({ object: 'fragment', fragment: `${record}-${column}`, nodes: [block('paragraph', [leaf(sentence(), pick(markSets))])] });
            return [column, `${record}-${column}`];
          }),
        );
        return [record, { orderIndex: index.toString(36).padStart(6, '0'), values }];
      }),
    );
    const definition = Object.fromEntries(columns.map((id) => [id, { id, title: pick(words), type: 'text', textAlignment: pick(['left', 'center', 'right']) }]));
    return { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns, hideHeader: false }, records, definition }, fragments };
  }
  // Half of them captioned or sized: written as a figure.
  const images = (): DocumentNode => {
    const figure = pick([false, true]);
    const data = { ref: { kind: 'url', url: `https://example.com/${pick(words)}.png` }, alt: sentence(), ...(figure && pick([false, true]) ? { width: count(40, 1200) } : {}) };
    return { object: 'block', type: 'images', data: {}, isVoid: false, nodes: [imageBlock(data, figure ? sentence() : '') as DocumentNode] };
  };
  const embed = (): DocumentNode => ({ object: 'block', type: 'embed', data: { url: `https://example.com/watch/${count(1, 999)}` }, isVoid: true });
  const top = [paragraph, heading, () => list(0), code, quote, hint, tabs, stepper, expandable, math, table, images, embed];
  // Two lists of one kind side by side would be one list in markdown: a paragraph goes between.
  const nodes: DocumentNode[] = [];
  for (let index = count(3, 12); index > 0; index -= 1) {
    const next = pick(top)();
    if (nodes.length && String(nodes[nodes.length - 1]!.type).startsWith('list') && String(next.type).startsWith('list')) nodes.push(paragraph());
    nodes.push(next);
  }
  return { object: 'document', data: {}, nodes };
}

/** mulberry32: a small seeded generator, the same numbers for the same seed everywhere. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
