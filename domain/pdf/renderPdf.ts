import { bookHtml, chapterPages, headerAndFooter, type Book } from './bookHtml.js';
import { sharedBrowser } from './browser.js';
import { pdfPageTexts } from './pdfText.js';

/** Budgets of one rendering: its HTML, the time to lay it out and print it. */
const maxHtmlBytes = 50 * 1024 * 1024;
const renderTimeoutMs = 120_000;

/**
 * The book as a PDF: rendered once to find where each chapter starts, then again with those page
 * numbers in the table of contents (the placeholders have the numbers' width, so nothing moves).
 * The page runs no JavaScript and loads nothing: every request but the document's own data: URLs
 * is aborted. Headings make the PDF's outline (bookmarks).
 */
export async function renderPdf(book: Book): Promise<Uint8Array> {
  const first = await print(bookHtml(book), book.title);
  const numbers = chapterPages(book.chapters, await pdfPageTexts(first));
  return print(bookHtml(book, numbers), book.title);
}

async function print(html: string, title: string): Promise<Uint8Array> {
  if (Buffer.byteLength(html) > maxHtmlBytes) throw new Error(`The PDF's content is larger than ${maxHtmlBytes} bytes`);
  const browser = await sharedBrowser();
  const page = await browser.newPage();
  try {
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.url().startsWith('data:')) void request.continue();
      else void request.abort('blockedbyclient');
    });
    await page.setContent(html, { waitUntil: 'load', timeout: renderTimeoutMs });
    return await page.pdf({
      format: 'A4',
      printBackground: true,
      outline: true,
      tagged: true,
      displayHeaderFooter: true,
      ...headerAndFooter(title),
      margin: { top: '18mm', bottom: '18mm', left: '15mm', right: '15mm' },
      timeout: renderTimeoutMs,
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}
