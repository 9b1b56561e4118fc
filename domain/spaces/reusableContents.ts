import { allPages, convertMarkdownToDocument, type Document, type DocumentNode, pagesByFile, resolveLink, type Revision, type RevisionPage, type RevisionReusableContent } from '../../engine/index.js';
import { missing } from '../common/errors.js';

/** Where a Document id (the blob id of its markdown) comes from: a document page or a reusable content of the revision. */
export function documentSourceOf(revision: Revision, documentId: string): { kind: 'page'; page: RevisionPage } | { kind: 'reusable-content'; content: RevisionReusableContent } {
  const page = allPages(revision.pages).find((candidate) => candidate.kind === 'document' && candidate.oid === documentId);
  if (page) return { kind: 'page', page };
  const content = revision.reusableContents.find((candidate) => candidate.oid === documentId);
  if (content) return { kind: 'reusable-content', content };
  throw missing(`Document ${documentId} not found in revision ${revision.commit}`);
}

export function reusableContentOf(revision: Revision, id: string): RevisionReusableContent {
  const found = revision.reusableContents.find((content) => content.id === id);
  if (!found) throw missing(`Reusable content ${id} not found in revision ${revision.commit}`);
  return found;
}

/** A reusable content's Document, converted in the worker pool; its links as written (the presenter resolves them). */
export function readReusableContentDocument(content: RevisionReusableContent): Promise<Document> {
  return convertMarkdownToDocument(content.markdown, `The reusable content "${content.title}"`);
}

/** Includes inside included content are followed this deep; deeper (or circular) ones stay blocks. */
const maxIncludeDepth = 3;

/**
 * The Document with its `{% include %}` blocks (written in `fromFile`) replaced by the Documents
 * of the reusable contents they name: upstream's `dereferenced`. The inlined nodes' links are
 * resolved from the included file, where they were written; an include naming no reusable
 * content of the revision stays a block.
 */
export async function dereferenceReusableContents(revision: Revision, fromFile: string, document: Document): Promise<Document> {
  const byFile = pagesByFile(revision);
  const expand = async (nodes: DocumentNode[], file: string, chain: string[]): Promise<DocumentNode[]> => {
    const expanded: DocumentNode[] = [];
    for (const node of nodes) {
      const included = node.type === 'reusable-content' ? includedContent(revision, byFile, file, node) : undefined;
      if (included && chain.length < maxIncludeDepth && !chain.includes(included.id)) {
        const inner = withResolvedRefs(revision, byFile, included.path, (await readReusableContentDocument(included)).nodes);
        expanded.push(...(await expand(inner, included.path, [...chain, included.id])));
      } else if (Array.isArray(node.nodes)) {
        expanded.push({ ...node, nodes: await expand(node.nodes as DocumentNode[], file, chain) });
      } else expanded.push(node);
    }
    return expanded;
  };
  return { ...document, nodes: await expand(document.nodes, fromFile, []) };
}

function includedContent(revision: Revision, byFile: ReturnType<typeof pagesByFile>, fromFile: string, node: DocumentNode): RevisionReusableContent | undefined {
  const ref = (node.data as { ref?: { kind?: string; url?: string; reusableContent?: string } } | undefined)?.ref;
  const resolved = ref?.kind === 'url' ? resolveLink(revision, byFile, fromFile, ref.url ?? '').ref : ref;
  if (resolved?.kind !== 'reusable-content') return undefined;
  return revision.reusableContents.find((content) => content.id === (resolved as { reusableContent: string }).reusableContent);
}

/** Link targets written in `file` resolved there, so that inlined elsewhere they still point where they did. */
function withResolvedRefs(revision: Revision, byFile: ReturnType<typeof pagesByFile>, file: string, nodes: DocumentNode[]): DocumentNode[] {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const ref = key === 'data' && inner && typeof inner === 'object' ? (inner as { ref?: { kind?: string; url?: string; anchor?: string } }).ref : undefined;
      if (ref?.kind === 'url') out[key] = { ...(inner as object), ref: resolveLink(revision, byFile, file, ref.url ?? '').ref };
      else out[key] = walk(inner);
    }
    return out;
  };
  return walk(nodes) as DocumentNode[];
}
