import { allPages, type ContentRef, linkSpansOffThread, pagesByFile, resolveLink, type Revision, type RevisionPage, splitTitleHeading } from '../../engine/index.js';

/** A reference as a stable target, naming its content by id (what Quire's writes take back), or undefined for a URL or a bare anchor. */
function stableTarget(ref: ContentRef): string | undefined {
  switch (ref.kind) {
    case 'page':
      return `/pages/${ref.page}`;
    case 'anchor':
      return ref.page === undefined ? undefined : `/pages/${ref.page}#${ref.anchor}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'reusable-content':
      return `/reusable-contents/${ref.reusableContent}`;
    default:
      return undefined;
  }
}

/**
 * The markdown of a page and of its document subpages (upstream's `format.markdown.refs=stable`),
 * by page id: every link, image, file, content-ref and include that names content of the revision
 * names it by id (`/pages/<id>`, `/files/<id>`, `/reusable-contents/<id>`), so it reads the same
 * wherever the page moves; written back through a change request, those become relative paths
 * again. Parsed in the worker pool; URLs and anything in code stay as written.
 */
export async function readStableMarkdowns(revision: Revision, page: RevisionPage): Promise<Map<string, string>> {
  const pages = allPages([page]).filter((candidate) => candidate.kind === 'document');
  const bodies = pages.map((candidate) => splitTitleHeading(candidate.markdown ?? '').text);
  const spans = await linkSpansOffThread(bodies);
  const byFile = pagesByFile(revision);
  const markdowns = new Map<string, string>();
  pages.forEach((candidate, index) => {
    const body = bodies[index]!;
    let out = '';
    let at = 0;
    for (const span of spans[index]!) {
      const stable = stableTarget(resolveLink(revision, byFile, candidate.file ?? '', span.target).ref);
      if (stable === undefined || span.start < at) continue;
      out += body.slice(at, span.start) + stable;
      at = span.end;
    }
    markdowns.set(candidate.id, out + body.slice(at));
  });
  return markdowns;
}
