import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { allPages, pagesByFile, type RevisionPage } from '../../engine/index.js';
import { publishedRevisions, readPublishedDocument, readPublishedPage, redirectOfSource, type PublishedPageView } from '../../domain/publishing/index.js';
import { readSpaceFile } from '../../domain/spaces/index.js';
import type { ContentDeps } from '../../domain/common/deps.js';
import { siteRedirectsBySource } from '../../storage/siteRedirects.js';
import { llmsFullTxt, llmsTxt, markdownTwin } from '../sites/pages/agentFiles.js';
import { pagePath } from '../sites/pages/navigation.js';
import { fileUrl, markdownPath, notFoundHtml, publishedPageHtml, searchResultsHtml } from '../sites/pages/publishedPage.js';
import { siteAssets } from '../sites/pages/siteAssets.js';
import { activeFileTypes, headElement, redirectStubHtml, relativeLink, staticFileOf, staticHtml, staticSearchScript, type ExportedFiles } from '../sites/pages/staticPages.js';

export class SiteExportError extends Error {}

type Deps = Pick<ContentDeps, 'db' | 'repositories' | 'dataDir'>;

/**
 * `npm run admin -- site export <siteId> <dir>`: the site as an anonymous visitor sees it, as
 * static files any web server (or a browser opening them from disk) can serve: every page of
 * every site space rendered as the live site renders it, with links made relative; `.md` twins,
 * `llms.txt` and `llms-full.txt`; the files pages show; the site's redirects (its list and
 * `.gitbook.yaml`'s) as meta-refresh pages; a 404 page; and a Pagefind index with a search page,
 * so search works with no server behind it.
 */
export async function exportSite(deps: Deps, input: { siteId: string; publicBase: string; outDir: string }): Promise<{ pages: number; files: number; ms: number }> {
  const started = performance.now();
  const siteBasePath = `${new URL(input.publicBase).pathname.replace(/\/+$/, '')}/sites/${input.siteId}/`;
  const read = (urlPath: string) => readPublishedPage(deps, { url: new URL(urlPath, input.publicBase).toString(), publicBase: input.publicBase });
  const root = await read(siteBasePath).catch(() => undefined);
  if (!root || 'redirect' in root || (root.place.site.visibility !== 'public' && root.place.site.visibility !== 'unlisted')) {
    throw new SiteExportError(`site ${input.siteId} is not published for anyone to read (public or unlisted): nothing to export`);
  }
  const out = (file: string) => diskPath(input.outDir, file);
  const write = async (file: string, body: string | Uint8Array) => {
    const target = out(file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, body);
  };
  const listings = await publishedRevisions(deps, root);
  let pages = 0;
  let files = 0;
  const written = new Set<string>();
  // Active files first: the pages' links to them are rewritten as the pages are written.
  const activeFiles: ExportedFiles = new Map();
  for (const { siteSpace, revision } of listings) {
    for (const file of revision.files.filter((candidate) => activeFileTypes.test(candidate.name))) {
      const live = fileUrl(root, siteSpace.spaceId, file.oid, file.name);
      const body = await readSpaceFile(deps, siteSpace.spaceId, file.oid);
      const inline = /\.svg$/i.test(file.name) && body.length <= 256 * 1024 ? `data:image/svg+xml;base64,${Buffer.from(body).toString('base64')}` : undefined;
      activeFiles.set(live, { url: `${live}.download`, ...(inline ? { inline } : {}) });
    }
  }
  for (const { siteSpace, revision } of listings) {
    const documents = allPages(revision.pages).filter((page) => page.kind === 'document');
    // A few at once: each render is mostly CPU, each Document a hop to the worker pool.
    for (let start = 0; start < documents.length; start += 8) {
      await Promise.all(
        documents.slice(start, start + 8).map(async (page: RevisionPage) => {
          const urlPath = pagePath(`${siteBasePath}${siteSpace.path}`, page);
          const view = await read(urlPath);
          if ('redirect' in view || !view.page) return;
          const file = staticFileOf(urlPath.slice(siteBasePath.length));
          written.add(file);
          await write(
            file,
            staticHtml(await publishedPageHtml({ ...view, page: view.page }, await readPublishedDocument(deps, view, view.page)), siteBasePath, file, { indexed: true, files: activeFiles }),
          );
          await write(markdownPath(view, view.page).slice(siteBasePath.length), markdownTwin(view.page));
          pages += 1;
        }),
      );
    }
    for (const file of revision.files) {
      const live = fileUrl(root, siteSpace.spaceId, file.oid, file.name);
      await write((activeFiles.get(live)?.url ?? live).slice(siteBasePath.length), await readSpaceFile(deps, siteSpace.spaceId, file.oid));
      files += 1;
    }
  }
  for (const asset of siteAssets) await write(`~assets/${asset.name}`, asset.body);
  const liveBase = new URL(siteBasePath, input.publicBase).toString();
  const local = (text: string) => text.split(liveBase).join('');
  await write('llms.txt', local(llmsTxt(root, listings, input.publicBase)));
  await write('llms-full.txt', local([...llmsFullTxt(root, listings, input.publicBase)].join('')));
  await write('404.html', staticHtml(notFoundHtml(root), siteBasePath, '404.html', { indexed: false }));
  await writeRedirects(deps, root, listings, siteBasePath, written, write);
  await writeSearch(root, siteBasePath, input.outDir, write);
  return { pages, files, ms: Math.round(performance.now() - started) };
}

/** The site's redirect list and each site space's `.gitbook.yaml` redirects, as pages that send the reader on (never over a page). */
async function writeRedirects(
  deps: Deps,
  root: PublishedPageView,
  listings: Awaited<ReturnType<typeof publishedRevisions>>,
  siteBasePath: string,
  written: Set<string>,
  write: (file: string, body: string) => Promise<void>,
) {
  const stub = async (source: string, target: string) => {
    const file = staticFileOf(source);
    if (written.has(file)) return;
    written.add(file);
    await write(file, redirectStubHtml(relativeLink(target, siteBasePath, file)));
  };
  for (const source of (await siteRedirectsBySource(deps.db, root.place.site.id)).keys()) {
    // A wildcard source is every path it starts: a folder of files can't answer them all.
    if (source.endsWith('*')) continue;
    const found = await redirectOfSource(deps, root.place.site, source);
    if (found) await stub(source.split('/').filter(Boolean).map(encodeURIComponent).join('/'), 'url' in found ? found.url : `${siteBasePath}${found.segments.map(encodeURIComponent).join('/')}`);
  }
  for (const { siteSpace, revision } of listings) {
    const byFile = pagesByFile(revision);
    for (const [from, file] of revision.redirects) {
      const page = byFile.get(file);
      if (page && page.kind !== 'link') await stub(`${siteSpace.path}${from.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`, pagePath(`${siteBasePath}${siteSpace.path}`, page));
    }
  }
}

/** Pagefind's index of the pages written, and the search page that uses it. */
async function writeSearch(root: PublishedPageView, siteBasePath: string, outDir: string, write: (file: string, body: string) => Promise<void>) {
  const { index, errors } = await pagefind.createIndex();
  if (!index) throw new SiteExportError(`Pagefind could not start: ${errors.join('; ')}`);
  try {
    const indexed = await index.addDirectory({ path: outDir });
    if (indexed.errors.length) throw new SiteExportError(`Pagefind could not index the pages: ${indexed.errors.join('; ')}`);
    const wrote = await index.writeFiles({ outputPath: path.join(outDir, 'pagefind') });
    if (wrote.errors.length) throw new SiteExportError(`Pagefind could not write its index: ${wrote.errors.join('; ')}`);
  } finally {
    await pagefind.close();
  }
  const file = 'search/index.html';
  await write('search/search.js', staticSearchScript);
  await write(
    file,
    staticHtml(searchResultsHtml(root, '', []), siteBasePath, file, {
      indexed: false,
      extraHead: [
        headElement('link', { rel: 'stylesheet', href: '../pagefind/pagefind-ui.css' }),
        headElement('script', { src: '../pagefind/pagefind-ui.js' }),
        headElement('script', { src: 'search.js' }),
      ],
    }),
  );
}

/** Where a file of the export goes on disk: its URL path decoded, segment by segment, never above the folder. */
function diskPath(outDir: string, file: string): string {
  const segments = file.split('/').map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // a stray % is part of the name
    }
    decoded = decoded.replace(/[/\\\0]/g, '_');
    return decoded === '.' || decoded === '..' || decoded === '' ? '_' : decoded;
  });
  return path.join(outDir, ...segments);
}
