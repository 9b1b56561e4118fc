import { imageSize } from 'image-size';
import type { DocumentNode } from '../../engine/markdown/toDocument.js';
import type { Revision } from '../../engine/readRevision.js';
import { pagesByFile, resolveLink } from '../../engine/resolveLink.js';
import type { ContentDeps } from '../common/deps.js';
import { readSpaceFile } from '../spaces/index.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** Sizes by blob id: a blob never changes, so each is measured once (null: not an image we can measure). */
const measured = new Map<string, ImageSize | null>();
const measuredLimit = 10_000;

/**
 * The width and height of the revision's image files a Document shows (image blocks, inline
 * images, card covers), by blob id: pages give them to `<img>`, so the page doesn't move as images load.
 */
export async function imageSizesOf(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, revision: Revision, pageFile: string, nodes: readonly DocumentNode[]): Promise<Map<string, ImageSize>> {
  const files = new Map(revision.files.map((file) => [file.id, file]));
  const byFile = pagesByFile(revision);
  // Images are written as paths in the page's markdown: resolved as the page's links are.
  const fileOf = (ref: { kind?: string; file?: string; url?: string }) => {
    const resolved = ref.kind === 'url' ? resolveLink(revision, byFile, pageFile, String(ref.url ?? '')).ref : ref;
    return resolved.kind === 'file' ? (resolved as { file: string }).file : undefined;
  };
  const oids = new Set<string>();
  for (const fileId of imageFileIds(nodes, fileOf)) {
    const file = files.get(fileId);
    if (file) oids.add(file.oid);
  }
  const sizes = new Map<string, ImageSize>();
  for (const oid of oids) {
    if (!measured.has(oid)) {
      if (measured.size >= measuredLimit) measured.delete(measured.keys().next().value!);
      measured.set(oid, measure(await readSpaceFile(deps, spaceId, oid).catch(() => undefined)));
    }
    const size = measured.get(oid);
    if (size) sizes.set(oid, size);
  }
  return sizes;
}

function measure(bytes: Uint8Array | undefined): ImageSize | null {
  if (!bytes) return null;
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (!width || !height) return null;
    // EXIF orientations 5 to 8 turn the picture a quarter: the browser shows it with its sides swapped.
    return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
  } catch {
    return null;
  }
}

type Ref = { kind?: string; file?: string; url?: string };

function imageFileIds(nodes: readonly DocumentNode[], fileOf: (ref: Ref) => string | undefined, found: string[] = []): string[] {
  for (const node of nodes) {
    const data = (node.data ?? {}) as { ref?: Ref; records?: Record<string, { values?: Record<string, unknown> }>; view?: { coverDefinition?: string } };
    const file = (node.type === 'image' || node.type === 'inline-image') && data.ref ? fileOf(data.ref) : undefined;
    if (file) found.push(file);
    const cover = data.view?.coverDefinition;
    if (node.type === 'table' && cover) {
      for (const record of Object.values(data.records ?? {})) {
        const value = record.values?.[cover];
        if (Array.isArray(value) && typeof value[0] === 'string') found.push(value[0]);
      }
    }
    if (Array.isArray(node.nodes)) imageFileIds(node.nodes as DocumentNode[], fileOf, found);
    if (Array.isArray(node.fragments)) imageFileIds(node.fragments as DocumentNode[], fileOf, found);
  }
  return found;
}
