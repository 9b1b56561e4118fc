import { imageSize } from 'image-size';
import { type DocumentNode, Lru, resolveWrittenRef, type Revision } from '../../engine/index.js';
import type { ContentDeps } from '../common/deps.js';
import { readSpaceFile } from '../spaces/index.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** Sizes by blob id: a blob never changes, so each is measured once (null: not an image we can measure). */
const measured = new Lru<string, ImageSize | null>(10_000);

/**
 * The width and height of the revision's image files a Document shows (image blocks, inline
 * images, card covers), by blob id: pages give them to `<img>`, so the page doesn't move as images load.
 */
export async function imageSizesOf(deps: Pick<ContentDeps, 'repositories'>, spaceId: string, revision: Revision, pageFile: string, nodes: readonly DocumentNode[]): Promise<Map<string, ImageSize>> {
  const files = new Map(revision.files.map((file) => [file.id, file]));
  // Images are written as paths in the page's markdown: resolved as the page's links are.
  const fileOf = (ref: Ref) => {
    const resolved = resolveWrittenRef(revision, pageFile, ref);
    return resolved.kind === 'file' ? resolved.file : undefined;
  };
  const oids = new Set<string>();
  for (const fileId of imageFileIds(nodes, fileOf)) {
    const file = files.get(fileId);
    if (file) oids.add(file.oid);
  }
  const sizes = new Map<string, ImageSize>();
  for (const oid of oids) {
    let size = measured.get(oid);
    if (size === undefined) {
      size = measure(await readSpaceFile(deps, spaceId, oid).catch(() => undefined));
      measured.set(oid, size);
    }
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

type Ref = Record<string, unknown> & { kind?: string; url?: string };

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
