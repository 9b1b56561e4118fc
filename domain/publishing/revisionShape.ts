import { createHash } from 'node:crypto';
import { allPages, type Revision } from '../../engine/index.js';

const shapes = new WeakMap<Revision, string>();

/**
 * A hash of what every page of the revision shows of the others (titles, paths, kinds, files,
 * reusable contents: the sidebar, links, previous/next), computed once per revision. Two commits
 * that differ only in one page's text have the same shape.
 */
export function revisionShape(revision: Revision): string {
  let shape = shapes.get(revision);
  if (shape === undefined) {
    const hash = createHash('sha1');
    for (const page of allPages(revision.pages))
      hash.update(JSON.stringify([page.id, page.kind, page.title, page.path, page.file ?? '', page.href ?? '', page.meta.hidden === true, page.pages.length]));
    for (const file of revision.files) hash.update(JSON.stringify([file.id, file.oid, file.name]));
    for (const content of revision.reusableContents) hash.update(JSON.stringify([content.id, content.oid]));
    shape = hash.digest('base64url');
    shapes.set(revision, shape);
  }
  return shape;
}
