import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { textOf } from './cardsTable.js';
import { captionOf, imageBlock } from './documentBlocks.js';
import type { DocumentNode, ResolveRef } from './toDocument.js';

/**
 * GitBook's image with a caption or a size, as Git Sync writes it: an HTML block of one figure,
 * `<figure><img src="…" alt="…" width="300"><figcaption><p>Caption</p></figcaption></figure>`.
 * Read as the upstream images block of one image (its caption a `caption` fragment, its width in
 * pixels); written back the same way. Any other HTML is not one (undefined).
 */
export function figureImage(html: string, resolve: ResolveRef): DocumentNode[] | undefined {
  if (!/^\s*<figure[\s>]/i.test(html)) return undefined;
  const figures = elementsOf(fromHtml(html, { fragment: true }));
  if (figures?.length !== 1 || figures[0]!.tagName !== 'figure') return undefined;
  const parts = elementsOf(figures[0]!);
  const img = parts?.[0];
  const caption = parts?.[1];
  if (!img || img.tagName !== 'img' || parts!.length > 2 || (caption && caption.tagName !== 'figcaption')) return undefined;
  const { src, alt, width } = img.properties;
  if (typeof src !== 'string' || !src) return undefined;
  const pixels = typeof width === 'number' ? width : typeof width === 'string' && /^\d{1,5}$/.test(width) ? Number(width) : undefined;
  if (width !== undefined && pixels === undefined) return undefined;
  const captionText = caption ? textOf(caption).trim() : '';
  const image = imageBlock({ ref: resolve(src), ...(typeof alt === 'string' && alt ? { alt } : {}), ...(pixels !== undefined ? { width: pixels } : {}) }, captionText) as DocumentNode;
  return [{ object: 'block', type: 'images', data: {}, isVoid: false, nodes: [image] }];
}

/** Whether an image needs a figure to be written whole: a caption or a width. */
export const needsFigure = (image: Record<string, unknown>) => captionOf(image) !== '' || typeof (image.data as Record<string, unknown> | undefined)?.width === 'number';

/** The figure of an image (needsFigure), its target written by `target`. */
export function figureHtml(image: Record<string, unknown>, target: (ref: unknown) => string): string {
  const data = (image.data ?? {}) as Record<string, unknown>;
  const caption = captionOf(image);
  const img: Element = {
    type: 'element',
    tagName: 'img',
    properties: { src: target(data.ref), alt: typeof data.alt === 'string' ? data.alt : '', ...(typeof data.width === 'number' ? { width: data.width } : {}) },
    children: [],
  };
  const figcaption: Element = { type: 'element', tagName: 'figcaption', properties: {}, children: [{ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: caption }] }] };
  const figure: Element = { type: 'element', tagName: 'figure', properties: {}, children: caption ? [img, figcaption] : [img] };
  return toHtml(figure, { characterReferences: { useNamedReferences: true } });
}

/** The elements among `node`'s children; undefined when it holds text other than spacing. */
function elementsOf(node: Root | Element): Element[] | undefined {
  const elements: Element[] = [];
  for (const child of node.children as Array<RootContent | ElementContent>) {
    if (child.type === 'element') elements.push(child);
    else if (child.type === 'text' && !child.value.trim()) continue;
    else if (child.type !== 'comment') return undefined;
  }
  return elements;
}
