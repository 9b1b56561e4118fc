import type { ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { el } from '../documents/index.js';
import { chapterAnchor } from './chapterContent.js';

/** One chapter of the PDF: a page of the revision, at its depth in the page tree. */
export interface Chapter {
  pageId: string;
  title: string;
  depth: number;
  /** The page's content as the shared Document renderer draws it (chapterContent). */
  content: ElementContent[];
}

export interface Book {
  title: string;
  subtitle: string;
  chapters: Chapter[];
}

const styles = `
  @page { size: A4; }
  body { font-variant-ligatures: none; font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 11pt; line-height: 1.5; color: #1f2328; margin: 0; }
  .title-page { height: 230mm; display: flex; flex-direction: column; justify-content: center; }
  .title-page h1 { font-size: 30pt; margin: 0 0 8mm; }
  .title-page p { font-size: 13pt; color: #59636e; }
  .toc { break-before: page; }
  .toc h2 { font-size: 18pt; }
  .toc ol { list-style: none; padding: 0; margin: 0; }
  .toc li { display: flex; align-items: baseline; margin: 1.5mm 0; }
  .toc .entry { flex: 1; overflow: hidden; white-space: nowrap; }
  .toc .entry::after { content: ' . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .'; color: #8c959f; }
  .toc .number { width: 12mm; text-align: right; font-variant-numeric: tabular-nums; }
  .chapter { break-before: page; }
  .chapter > h1 { font-size: 22pt; border-bottom: 1px solid #d1d9e0; padding-bottom: 2mm; }
  pre { background: #f6f8fa; border: 1px solid #d1d9e0; border-radius: 4px; padding: 3mm; white-space: pre-wrap; word-break: break-word; font-size: 9pt; }
  code { font-family: 'DejaVu Sans Mono', 'Liberation Mono', monospace; background: #f6f8fa; padding: 0 1mm; border-radius: 3px; font-size: 9.5pt; }
  pre code { padding: 0; background: none; }
  figure { margin: 3mm 0; }
  figure.code figcaption, details > summary { font-weight: bold; margin: 2mm 0 1mm; list-style: none; }
  details > summary::-webkit-details-marker { display: none; }
  .hint { border-left: 4px solid #0969da; background: #ddf4ff; padding: 2mm 4mm; margin: 3mm 0; border-radius: 3px; }
  .hint-success { border-color: #1a7f37; background: #dafbe1; }
  .hint-warning { border-color: #9a6700; background: #fff8c5; }
  .hint-danger { border-color: #cf222e; background: #ffebe9; }
  .hint-label { display: flex; align-items: center; gap: 1.5mm; margin: 0 0 1mm; font-weight: 700; color: #0969da; }
  .hint-success .hint-label { color: #1a7f37; } .hint-warning .hint-label { color: #9a6700; } .hint-danger .hint-label { color: #cf222e; }
  .hint-label svg { width: 3.6mm; height: 3.6mm; flex: none; }
  .hint > :nth-child(2) { margin-top: 0; } .hint > :last-child { margin-bottom: 0; }
  details { border: 1px solid #d1d9e0; padding: 2mm 4mm; margin: 3mm 0; border-radius: 3px; }
  .card a, .file a { color: #0969da; }
  .missing-image { color: #59636e; font-style: italic; }
  img { max-width: 100%; height: auto; }
  a { color: #0969da; text-decoration: none; }
  h2 a.anchor, h3 a.anchor, h4 a.anchor { color: inherit; }
  .toc .entry { color: inherit; }
  .cards { display: grid; grid-template-columns: repeat(2, 1fr); gap: 3mm; }
  .cards-card { border: 1px solid #d1d9e0; border-radius: 3px; padding: 2mm 3mm; color: inherit; }
  .stepper > li { margin: 2mm 0; }
  .hljs-keyword, .hljs-doctag, .hljs-type { color: #cf222e; }
  .hljs-string, .hljs-regexp { color: #0a3069; }
  .hljs-number, .hljs-literal, .hljs-built_in, .hljs-attr, .hljs-variable, .hljs-property { color: #0550ae; }
  .hljs-title, .hljs-section, .hljs-name { color: #8250df; }
  .hljs-comment, .hljs-quote, .hljs-meta { color: #59636e; }
  table { border-collapse: collapse; margin: 3mm 0; }
  th, td { border: 1px solid #d1d9e0; padding: 1mm 2mm; }
  blockquote { border-left: 3px solid #d1d9e0; margin-left: 0; padding-left: 4mm; color: #59636e; }
`;

/**
 * The whole PDF as one HTML document: a title page, the table of contents (with each chapter's
 * page number, or a placeholder of the same width on the first pass), one chapter per page.
 */
export function bookHtml(book: Book, pageNumbers?: number[]): string {
  const toc = book.chapters.map((chapter, index) =>
    el(
      'li',
      { style: `padding-left: ${chapter.depth * 6}mm` },
      el('a', { className: ['entry'], href: `#${chapterAnchor(chapter.pageId)}` }, chapter.title),
      el('span', { className: ['number'] }, String(pageNumbers?.[index] ?? '000')),
    ),
  );
  const tree = el(
    'html',
    { lang: 'en' },
    el('head', {}, el('meta', { charSet: 'utf-8' }), el('title', {}, book.title), el('style', {}, styles)),
    el(
      'body',
      {},
      el('section', { className: ['title-page'] }, el('h1', {}, book.title), el('p', {}, book.subtitle)),
      el('section', { className: ['toc'] }, el('h2', {}, 'Contents'), el('ol', {}, toc)),
      book.chapters.map((chapter) => el('section', { className: ['chapter'], id: chapterAnchor(chapter.pageId) }, el('h1', {}, chapter.title), chapter.content)),
    ),
  );
  return `<!doctype html>${toHtml(tree)}`;
}

/** Chromium's header and footer: the title on top, "page / pages" below. */
export function headerAndFooter(title: string) {
  return {
    headerTemplate: toHtml(el('div', { style: 'font-size: 8px; width: 100%; padding: 0 15mm; color: #59636e; text-align: right;' }, title)),
    footerTemplate: toHtml(
      el('div', { style: 'font-size: 8px; width: 100%; text-align: center; color: #59636e;' }, el('span', { className: ['pageNumber'] }), ' / ', el('span', { className: ['totalPages'] })),
    ),
  };
}

/**
 * Where each chapter starts, from the text of each page of a first rendering: chapters start a
 * page and lead with their title, in order, after the table of contents.
 */
export function chapterPages(chapters: Chapter[], pageTexts: string[]): number[] {
  const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
  const pages = pageTexts.map(normalize);
  const contentsEnd = Math.max(
    1,
    pages.findIndex((text, index) => index > 0 && text.startsWith('Contents')),
  );
  let at = contentsEnd + 1;
  return chapters.map((chapter) => {
    const title = normalize(chapter.title);
    let found = pages.findIndex((text, index) => index >= at && text.startsWith(title));
    if (found < 0) found = Math.min(at, pages.length - 1);
    at = found + 1;
    return found + 1;
  });
}
