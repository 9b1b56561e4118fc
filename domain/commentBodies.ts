import { markdownToDocument } from '../engine/markdown/toDocument.js';
import type { CommentBody } from '../storage/comments.js';
import { invalidInput } from './errors.js';

/** A body as the API receives it: markdown, or the upstream JSON Document (one of the two). */
export interface CommentBodyInput {
  markdown?: string;
  document?: { object: 'document'; nodes: unknown[]; data?: unknown };
}

/**
 * Both forms of a body, made once when it is written: markdown gets its Document from the
 * engine's parser; a Document gets a plain markdown rendering of its text (headings, lists, code
 * and paragraphs) until the engine has a full Document → markdown writer.
 */
export function commentBody(input: CommentBodyInput, what: string): CommentBody {
  const body =
    input.markdown !== undefined
      ? { markdown: input.markdown, document: JSON.stringify(markdownToDocument(input.markdown)) }
      : input.document
        ? { markdown: documentToMarkdown(input.document.nodes), document: JSON.stringify({ data: {}, ...input.document }) }
        : { markdown: '', document: '' };
  if (!body.markdown.trim()) throw invalidInput(`${what} needs some text: its body is empty`);
  return body;
}

interface Node {
  object?: unknown;
  type?: unknown;
  nodes?: unknown;
  leaves?: unknown;
  text?: unknown;
  data?: unknown;
}

const asNodes = (value: unknown): Node[] => (Array.isArray(value) ? (value.filter((node) => node && typeof node === 'object') as Node[]) : []);

/** The text of inline content: text leaves, and the text inside inlines (links, mentions). */
function inlineText(nodes: Node[]): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') {
        if (typeof node.text === 'string') return node.text;
        return asNodes(node.leaves)
          .map((leaf) => (typeof leaf.text === 'string' ? leaf.text : ''))
          .join('');
      }
      return inlineText(asNodes(node.nodes));
    })
    .join('');
}

function documentToMarkdown(nodes: unknown[]): string {
  return asNodes(nodes)
    .map((node) => blockToMarkdown(node))
    .filter((text) => text !== '')
    .join('\n\n');
}

function blockToMarkdown(node: Node): string {
  const children = asNodes(node.nodes);
  const type = typeof node.type === 'string' ? node.type : '';
  const heading = /^heading-([1-6])$/.exec(type);
  if (heading) return `${'#'.repeat(Number(heading[1]))} ${inlineText(children)}`;
  if (type === 'list-unordered' || type === 'list-ordered' || type === 'list-tasks') {
    return children
      .map((item, index) => {
        const marker = type === 'list-ordered' ? `${index + 1}.` : '-';
        const text = documentToMarkdown(asNodes(item.nodes)).replace(/\n/g, '\n   ');
        return `${marker} ${text}`;
      })
      .join('\n');
  }
  if (type === 'code') return '```\n' + children.map((line) => inlineText(asNodes(line.nodes))).join('\n') + '\n```';
  if (type === 'divider') return '---';
  if (children.some((child) => child.object === 'block')) return documentToMarkdown(children);
  return inlineText(children);
}
