import mime from 'mime-types';
import type { ElementContent, Element } from 'hast';
import { readFileBytes, resolveWrittenRef, type Repository, type Revision, type RevisionPage } from '../../engine/index.js';
import { codeHighlighting, documentTree, type DocumentLinks } from '../documents/index.js';
import { readPageDocument } from '../spaces/index.js';

/** The id a chapter's section has in the book: what a link to its page leads to. */
export const chapterAnchor = (pageId: string) => `page-${pageId}`;

/**
 * A page's content as the PDF shows it: its Document drawn by the same renderer as the published
 * sites, with what a printed book needs instead of what a site does. Links to pages of the book
 * lead to their chapter; images that are files of the space are inlined as data: URLs, images from
 * elsewhere are shown as their alt text (the PDF's renderer fetches nothing); files that aren't
 * images have no link to follow. Tabs and expandables are drawn open, images loaded at once.
 */
export async function chapterContent(repo: Repository, revision: Revision, page: RevisionPage, inBook: Set<string>): Promise<ElementContent[]> {
  const [document] = await Promise.all([readPageDocument(page), codeHighlighting()]);
  const links: DocumentLinks = {
    resolve: (ref) => resolveWrittenRef(revision, page.file ?? '', ref),
    page: (pageId) => (inBook.has(pageId) ? `#${chapterAnchor(pageId)}` : undefined),
    file: () => undefined,
    spec: () => undefined,
    externalImages: false,
  };
  // A first drawing says which files the page shows; those that are images are read and inlined.
  const wanted = new Set<string>();
  documentTree(document, { ...links, file: (fileId) => void wanted.add(fileId) });
  const images = await inlinedImages(repo, revision, wanted);
  const { content } = documentTree(document, { ...links, file: (fileId) => images.get(fileId) });
  return content.map(forPrint);
}

async function inlinedImages(repo: Repository, revision: Revision, fileIds: Set<string>): Promise<Map<string, { url: string; name: string }>> {
  const inlined = new Map<string, { url: string; name: string }>();
  for (const fileId of fileIds) {
    const file = revision.files.find((candidate) => candidate.id === fileId);
    const type = file && mime.lookup(file.name);
    if (!file || !type || !type.startsWith('image/')) continue;
    const bytes = await readFileBytes(repo, file.oid);
    inlined.set(fileId, { url: `data:${type};base64,${Buffer.from(bytes).toString('base64')}`, name: file.name });
  }
  return inlined;
}

/** Disclosures open (a closed one prints nothing of its body), images loaded eagerly (a lazy one off screen may never be). */
function forPrint(node: ElementContent): ElementContent {
  if (node.type !== 'element') return node;
  const properties: Element['properties'] = { ...node.properties };
  if (node.tagName === 'details') properties.open = true;
  if (node.tagName === 'img') delete properties.loading;
  return { ...node, properties, children: node.children.map(forPrint) };
}
