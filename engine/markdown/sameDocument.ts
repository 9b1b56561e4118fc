import type { DocumentNode } from './toDocument.js';

type Json = Record<string, unknown>;

/**
 * Whether two Document nodes say the same: compared with their texts joined where their marks
 * agree, empty texts left out, marks in one order, object keys in one order, `key`s aside. (The
 * parser splits texts where an editor joins them, and lists marks outermost first.)
 */
export function sameDocumentNode(a: DocumentNode, b: DocumentNode): boolean {
  const [x, y] = [canonical(a), canonical(b)];
  return x.shape === y.shape && x.texts.length === y.texts.length && x.texts.every((text, index) => text === y.texts[index]);
}

/** A node's shape (its canonical JSON, each text's value left out) and its texts in order. */
export function canonical(value: unknown, texts: string[] = []): { shape: string; texts: string[] } {
  return { shape: shapeOf(value, texts), texts };
}

function shapeOf(value: unknown, texts: string[]): string {
  if (Array.isArray(value))
    return `[${joinTexts(value)
      .map((item) => shapeOf(item, texts))
      .join(',')}]`;
  if (value && typeof value === 'object') {
    const leaf = textLeaf(value);
    if (leaf) {
      texts.push(leaf.text);
      return `{text:${JSON.stringify(leaf.marks)}}`;
    }
    const entries = Object.entries(value as Json).filter(([key]) => key !== 'key');
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, item]) => `${JSON.stringify(key)}:${shapeOf(item, texts)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Texts side by side with the same marks as one (a line break apart); empty ones gone. */
function joinTexts(items: unknown[]): unknown[] {
  const result: unknown[] = [];
  for (const item of items) {
    const leaf = textLeaf(item);
    if (!leaf) {
      result.push(item);
      continue;
    }
    if (!leaf.text) continue;
    const last = textLeaf(result[result.length - 1]);
    if (last && last.marks === leaf.marks && leaf.text !== '\n' && last.text !== '\n') result[result.length - 1] = textNode(last.text + leaf.text, last.marks);
    else result.push(textNode(leaf.text, leaf.marks));
  }
  return result;
}

function textLeaf(item: unknown): { text: string; marks: string } | undefined {
  const node = item as Json | undefined;
  if (!node || node.object !== 'text' || !Array.isArray(node.leaves) || node.leaves.length !== 1) return undefined;
  const leaf = node.leaves[0] as Json;
  const marks = (Array.isArray(leaf.marks) ? (leaf.marks as Json[]) : []).map((mark) => String(mark.type)).sort();
  return { text: String(leaf.text ?? ''), marks: marks.join(' ') };
}

const textNode = (text: string, marks: string) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: marks ? marks.split(' ').map((type) => ({ object: 'mark', type })) : [] }] });
