import AdmZip from 'adm-zip';
import { fromHtml } from 'hast-util-from-html';
import type { Element, Root } from 'hast';
import type { Database } from '../../storage/db.js';
import { readUploadBody, type ImportSource } from '../../storage/imports.js';
import { invalidInput } from '../common/errors.js';
import { outboundFetch } from '../common/outboundFetch.js';
import { htmlToDocument, markdownToDocument, type ImportedDocument } from './convert.js';

/** The most pages one import makes: a site or an archive past it is cut there, and says so. */
export const maxImportedPages = 200;
/** What an archive may hold once unpacked: a small zip can unpack to gigabytes. */
const maxUnpackedBytes = 200 * 1024 * 1024;

export interface Gathered {
  documents: ImportedDocument[];
  /** Set when the source had more than maxImportedPages pages. */
  truncated: boolean;
}

/** The pages a source holds, in order: a website's pages as it links them, or the uploaded files'. */
export async function gatherDocuments(db: Database, organizationId: string, source: ImportSource, stillWanted: () => Promise<boolean>): Promise<Gathered> {
  return source.type === 'website' ? crawl(source.url, stillWanted) : filesOf(db, organizationId, source.files);
}

const linksOf = (html: string): string[] => {
  const hrefs: string[] = [];
  const visit = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'a' && typeof child.properties.href === 'string') hrefs.push(child.properties.href);
      visit(child);
    }
  };
  visit(fromHtml(html));
  return hrefs;
};

/**
 * A website's pages: from its URL, every HTML page it links to below the same folder on the same
 * origin, breadth first, each once (its query and fragment left out), up to maxImportedPages.
 */
async function crawl(start: string, stillWanted: () => Promise<boolean>): Promise<Gathered> {
  const origin = new URL(start);
  const folder = origin.pathname.endsWith('/') ? origin.pathname : origin.pathname.replace(/[^/]*$/, '');
  const seen = new Set<string>();
  const queue = [normalized(origin)];
  const documents: ImportedDocument[] = [];
  while (queue.length > 0 && documents.length < maxImportedPages) {
    if (documents.length % 10 === 0 && !(await stillWanted())) break;
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const response = await outboundFetch(url, { maxBytes: 5 * 1024 * 1024 }).catch((error: Error) => {
      if (url === normalized(origin)) throw invalidInput(`${start} could not be read: ${error.message}`);
      return undefined;
    });
    if (!response || !(response.contentType ?? '').includes('html')) continue;
    const html = response.body.toString('utf8');
    documents.push(htmlToDocument(html, url));
    for (const href of linksOf(html)) {
      const next = URL.canParse(href, response.url) ? new URL(href, response.url) : undefined;
      if (next && next.origin === origin.origin && next.pathname.startsWith(folder) && !seen.has(normalized(next))) queue.push(normalized(next));
    }
  }
  return { documents, truncated: queue.some((url) => !seen.has(url)) };
}

const normalized = (url: URL) => `${url.origin}${url.pathname}`;

/** The uploaded files' pages: markdown and HTML files, and the ones inside zip archives, in path order. */
async function filesOf(db: Database, organizationId: string, keys: string[]): Promise<Gathered> {
  const documents: ImportedDocument[] = [];
  let truncated = false;
  for (const key of keys) {
    const body = await readUploadBody(db, organizationId, key);
    if (!body) throw invalidInput(`File ${key} has not been uploaded`);
    const name = key.split('/').pop() ?? key;
    const entries = body.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) ? unzipped(body) : [{ path: name, data: body }];
    for (const entry of entries.sort((a, b) => order(a.path) - order(b.path) || (a.path < b.path ? -1 : 1))) {
      const document = documentOf(entry.path, entry.data);
      if (!document) continue;
      if (documents.length >= maxImportedPages) {
        truncated = true;
        break;
      }
      documents.push(document);
    }
  }
  return { documents, truncated };
}

/** README and index pages first in their folder, as Git Sync and static sites put them. */
const order = (path: string) => (/(^|\/)(readme|index)\.[a-z]+$/i.test(path) ? 0 : 1);

function documentOf(path: string, data: Buffer): ImportedDocument | undefined {
  const name = path.split('/').pop() ?? path;
  if (/\.(md|markdown)$/i.test(name) && !/^summary\.md$/i.test(name)) return markdownToDocument(data.toString('utf8'), name);
  if (/\.html?$/i.test(name)) return htmlToDocument(data.toString('utf8'));
  return undefined;
}

/** A zip's files, refused whole past maxUnpackedBytes (read from its directory before anything is unpacked). */
function unzipped(body: Buffer): Array<{ path: string; data: Buffer }> {
  let zip: AdmZip;
  try {
    zip = new AdmZip(body);
  } catch {
    throw invalidInput('An uploaded file looks like a zip archive but could not be read');
  }
  const entries = zip.getEntries().filter((entry) => !entry.isDirectory && !entry.entryName.split('/').some((part) => part === '..' || part.startsWith('.')));
  const unpacked = entries.reduce((sum, entry) => sum + entry.header.size, 0);
  if (unpacked > maxUnpackedBytes) throw invalidInput(`The archive unpacks to ${Math.round(unpacked / 1024 / 1024)} MB: an import takes at most ${maxUnpackedBytes / 1024 / 1024} MB`);
  // The directory's sizes may lie: what is actually unpacked is counted too.
  let total = 0;
  return entries.map((entry) => {
    const data = entry.getData();
    total += data.length;
    if (total > maxUnpackedBytes) throw invalidInput(`The archive unpacks to more than ${maxUnpackedBytes / 1024 / 1024} MB: an import takes at most that`);
    return { path: entry.entryName, data };
  });
}
