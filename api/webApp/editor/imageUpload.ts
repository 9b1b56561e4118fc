import type { Node as PMNode } from 'prosemirror-model';
import { Plugin, Selection } from 'prosemirror-state';
import type { EditorView, NodeView } from 'prosemirror-view';
import { refLabel, schema } from '../../../domain/documents/editor/index.js';

/**
 * Images into the page: dropped, pasted, or chosen with the Image button (and any file, for a
 * file block, chosen from the slash menu). Each is committed to
 * the page's branch at once (the files route: `.gitbook/assets/`), then inserted as an
 * image block linking to it. The editor shows what it has read of an image it uploaded (a data:
 * URL, which the app's policy allows); other images show their path.
 */
export interface Uploads {
  /** Uploads a file (an image, or any file for a file block); its path as the page links to it. */
  upload(file: File, kind: 'image' | 'file'): Promise<string>;
}

const previews = new Map<string, string>();

export function imageUpload(uploads: Uploads, report: (message: string) => void): Plugin {
  const insertFiles = (view: EditorView, files: File[], at?: number) => {
    const images = files.filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return false;
    if (at !== undefined) view.dispatch(view.state.tr.setSelection(Selection.near(view.state.doc.resolve(at))));
    void insertImages(view, images, uploads, report);
    return true;
  };
  return new Plugin({
    props: {
      handlePaste: (view, event) => insertFiles(view, [...(event.clipboardData?.files ?? [])]),
      handleDrop: (view, event) => insertFiles(view, [...((event as DragEvent).dataTransfer?.files ?? [])], view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos),
      nodeViews: { image: (node) => new ImageView(node) },
    },
  });
}

/** Uploads the images, then puts them in an image block where the cursor is (in place of an empty paragraph) or after its block. */
export async function insertImages(view: EditorView, files: File[], uploads: Uploads, report: (message: string) => void): Promise<void> {
  const nodes: PMNode[] = [];
  for (const file of files) {
    report(`Uploading ${file.name}…`);
    try {
      const src = await uploads.upload(file, 'image');
      previews.set(src, await dataUrl(file));
      nodes.push(schema.nodes.image!.create({ ref: { kind: 'url', url: src }, alt: null }));
    } catch (error) {
      report(`${file.name} was not uploaded: ${(error as Error).message}`);
      return;
    }
  }
  placeAtCursor(view, schema.nodes.images!.create(null, nodes));
  report(`${files.length === 1 ? 'Image' : 'Images'} added: give ${files.length === 1 ? 'it a caption and alt text' : 'each a caption and alt text'} in the block settings.`);
}

/** Uploads a file of any kind, then puts a file block pointing at it where the cursor is (as insertImages does). */
export async function insertFile(view: EditorView, file: File, uploads: Uploads, report: (message: string) => void): Promise<void> {
  report(`Uploading ${file.name}…`);
  let src: string;
  try {
    src = await uploads.upload(file, 'file');
  } catch (error) {
    return report(`${file.name} was not uploaded: ${(error as Error).message}`);
  }
  placeAtCursor(view, schema.nodes.gitbook_void!.create({ type: 'file', data: { ref: { kind: 'url', url: src } } }));
  report(`${file.name} added.`);
}

/** Puts `block` where the cursor is, in place of an empty paragraph, or after the cursor's top-level block. */
function placeAtCursor(view: EditorView, block: PMNode) {
  const { $from } = view.state.selection;
  const emptyParagraph = $from.parent.type === schema.nodes.paragraph && $from.parent.content.size === 0 && $from.depth >= 1;
  const from = emptyParagraph ? $from.before() : $from.depth >= 1 ? $from.after(1) : $from.pos;
  view.dispatch(view.state.tr.replaceWith(from, emptyParagraph ? $from.after() : from, block).scrollIntoView());
}

export function dataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

class ImageView implements NodeView {
  readonly dom: HTMLElement;

  constructor(node: PMNode) {
    this.dom = document.createElement('figure');
    this.dom.className = 'image-block';
    const src = refLabel(node.attrs.ref);
    const preview = previews.get(src);
    if (preview) {
      const image = document.createElement('img');
      image.src = preview;
      image.alt = String(node.attrs.alt ?? '');
      if (typeof node.attrs.width === 'number') image.width = node.attrs.width;
      this.dom.append(image);
    } else {
      const target = document.createElement('span');
      target.className = 'image-target';
      target.textContent = `Image: ${src}`;
      this.dom.append(target);
    }
    const caption = document.createElement('figcaption');
    caption.textContent = String(node.attrs.caption ?? '');
    this.dom.append(caption);
  }
}
