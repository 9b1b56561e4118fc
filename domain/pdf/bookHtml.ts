/** One chapter of the PDF: a page of the revision, at its depth in the page tree. */
export interface Chapter {
  title: string;
  depth: number;
  /** Sanitized HTML of the page's content (pageHtml). */
  html: string;
}

export interface Book {
  title: string;
  subtitle: string;
  chapters: Chapter[];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

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
  .code-title, .panel-title { font-weight: bold; margin: 2mm 0 1mm; }
  .hint { border-left: 4px solid #0969da; background: #ddf4ff; padding: 2mm 4mm; margin: 3mm 0; border-radius: 3px; }
  .hint-success { border-color: #1a7f37; background: #dafbe1; }
  .hint-warning { border-color: #9a6700; background: #fff8c5; }
  .hint-danger { border-color: #cf222e; background: #ffebe9; }
  .panel { border: 1px solid #d1d9e0; padding: 2mm 4mm; margin: 3mm 0; border-radius: 3px; }
  .embed, .missing-image { color: #59636e; font-style: italic; }
  img { max-width: 100%; }
  table { border-collapse: collapse; margin: 3mm 0; }
  th, td { border: 1px solid #d1d9e0; padding: 1mm 2mm; }
  blockquote { border-left: 3px solid #d1d9e0; margin-left: 0; padding-left: 4mm; color: #59636e; }
`;

/**
 * The whole PDF as one HTML document: a title page, the table of contents (with each chapter's
 * page number, or a placeholder of the same width on the first pass), one chapter per page.
 */
export function bookHtml(book: Book, pageNumbers?: number[]): string {
  const toc = book.chapters
    .map((chapter, index) => `<li style="padding-left: ${chapter.depth * 6}mm"><span class="entry">${escapeHtml(chapter.title)}</span><span class="number">${pageNumbers?.[index] ?? '000'}</span></li>`)
    .join('\n');
  const chapters = book.chapters.map((chapter) => `<section class="chapter"><h1>${escapeHtml(chapter.title)}</h1>\n${chapter.html}</section>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(book.title)}</title><style>${styles}</style></head><body>
<section class="title-page"><h1>${escapeHtml(book.title)}</h1><p>${escapeHtml(book.subtitle)}</p></section>
<section class="toc"><h2>Contents</h2><ol>${toc}</ol></section>
${chapters}
</body></html>`;
}

/** Chromium's header and footer: the title on top, "page / pages" below. */
export function headerAndFooter(title: string) {
  return {
    headerTemplate: `<div style="font-size: 8px; width: 100%; padding: 0 15mm; color: #59636e; text-align: right;">${escapeHtml(title)}</div>`,
    footerTemplate: '<div style="font-size: 8px; width: 100%; text-align: center; color: #59636e;"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
  };
}

/**
 * Where each chapter starts, from the text of each page of a first rendering: chapters start a
 * page and lead with their title, in order, after the table of contents.
 */
export function chapterPages(chapters: Chapter[], pageTexts: string[]): number[] {
  const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
  const pages = pageTexts.map(normalize);
  const contentsEnd = Math.max(1, pages.findIndex((text, index) => index > 0 && text.startsWith('Contents')));
  let at = contentsEnd + 1;
  return chapters.map((chapter) => {
    const title = normalize(chapter.title);
    let found = pages.findIndex((text, index) => index >= at && text.startsWith(title));
    if (found < 0) found = Math.min(at, pages.length - 1);
    at = found + 1;
    return found + 1;
  });
}
