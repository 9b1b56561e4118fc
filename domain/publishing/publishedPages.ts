import { type Document, type DocumentNode, findPageByPath, lastChangeOf, primaryBranch, readBranch, type Revision, type RevisionPage } from '../../engine/index.js';
import { findChangeRequest } from '../../storage/changeRequests.js';
import { loadSiteStructureCached, type SiteStructure } from '../../storage/siteStructure.js';
import { findSpaceCached } from '../../storage/spaces.js';
import type { ContentDeps } from '../common/deps.js';
import { imageSizesOf, type ImageSize } from './imageSizes.js';
import { openapiSpecKey } from '../documents/index.js';
import { processedOpenAPIVersions, readProcessedSpec, type OpenAPIProcessedVersion } from '../openapi/index.js';
import { mergeCustomization, siteSpaceCustomization, type Customization } from '../sites/index.js';
import { dereferenceReusableContents, readPageDocument, readSpaceRevision } from '../spaces/index.js';
import { resolvePublishedUrl, type PublishedPlace, type PublishedRedirect, type PublishedVisitor } from './resolvePublishedUrl.js';
import { visibleStructure } from './siteTokens.js';

type Deps = Pick<ContentDeps, 'db' | 'repositories' | 'dataDir'>;

/** A site space the visitor sees, with its space's title: what section tabs and the variant switcher list. */
export interface VisibleSiteSpace {
  id: string;
  spaceId: string;
  sectionId: string | null;
  title: string;
  /** Its URL path below the site's (ends with '/', '' for the default of the default section). */
  path: string;
}

/** Everything a published page is rendered from. */
export interface PublishedPageView {
  place: PublishedPlace;
  /** The site's structure as the visitor sees it. */
  structure: SiteStructure;
  siteSpaces: VisibleSiteSpace[];
  customization: Customization;
  revision: Revision;
  /** The page at the URL (a group page's first document page); undefined when there is none. */
  page?: RevisionPage;
  /** When the page's file last changed in the revision's history (its "Last updated"). */
  updatedAt?: Date;
  /** The organization's processed OpenAPI specifications, which OpenAPI blocks are rendered from. */
  openapi: OpenAPIProcessedVersion[];
}

/** A published page's Document, with the OpenAPI documents its blocks show, by `slug:<slug>` and `url:<source URL>`, and its images' sizes by blob id. */
export interface PublishedDocument {
  document: Document;
  specs: Map<string, unknown>;
  imageSizes: Map<string, ImageSize>;
}

export interface PublishedPageRequest {
  url: string;
  publicBase: string;
  visitor?: PublishedVisitor;
  mayPreview?: (spaceId: string) => Promise<boolean>;
}

/**
 * The published page a URL shows (its Document: readPublishedDocument) (resolvePublishedUrl's rules: visibility, share links, visitor
 * auth, conditions, previews, redirects) with what its site shows around it. Hidden pages are
 * served at their URL but, like every page, only from the published (or previewed) revision.
 */
export async function readPublishedPage(deps: Deps, request: PublishedPageRequest): Promise<PublishedPageView | PublishedRedirect> {
  const place = await resolvePublishedUrl(deps, request);
  if ('redirect' in place) return place;
  const revision = await readSpaceRevision(deps, place.siteSpace.spaceId, await previewedRef(deps, place));
  const found = findPageByPath(revision, place.pathname);
  const page = found?.kind === 'group' ? firstDocument(found.pages) : found?.kind === 'document' ? found : undefined;
  // A history that can't be read (a repository being repacked, say) costs the page its date, not the page.
  const changedAt = page?.file ? await lastChangeOf(deps.repositories.open(place.siteSpace.spaceId), revision.commit, page.file).catch(() => undefined) : undefined;
  const updatedAt = changedAt ? new Date(changedAt * 1000) : undefined;
  const [around, openapi] = await Promise.all([siteAround(deps, place), processedOpenAPIVersions(deps, place.site.organizationId)]);
  return { ...around, revision, openapi, ...(page ? { page } : {}), ...(updatedAt ? { updatedAt } : {}) };
}

/**
 * A published page's Document, reusable content inlined, and the specifications its OpenAPI
 * blocks name (by slug, or by the URL a spec was registered from): read apart, as a page rendered
 * before needs none of it.
 */
export async function readPublishedDocument(deps: Pick<Deps, 'db' | 'repositories'>, view: Pick<PublishedPageView, 'revision' | 'openapi' | 'place'>, page: RevisionPage): Promise<PublishedDocument> {
  const document = await dereferenceReusableContents(view.revision, page.file ?? '', await readPageDocument(page));
  const specs = new Map<string, unknown>();
  const wanted = openapiRefs(document.nodes);
  for (const version of view.openapi) {
    const keys = [`slug:${version.slug}`, ...(version.sourceUrl ? [`url:${version.sourceUrl}`] : [])].filter((key) => wanted.has(key)); // as openapiSpecKey writes them
    if (keys.length === 0) continue;
    const spec = await readProcessedSpec(deps, version.versionId);
    for (const key of keys) specs.set(key, spec);
  }
  const imageSizes = await imageSizesOf(deps, view.place.siteSpace.spaceId, view.revision, page.file ?? '', document.nodes);
  return { document, specs, imageSizes };
}

/** The specifications OpenAPI blocks anywhere in the nodes name. */
export function openapiRefs(nodes: readonly DocumentNode[], found = new Set<string>()): Set<string> {
  for (const node of nodes) {
    const key = openapiSpecKey(node);
    if (key) found.add(key);
    if (Array.isArray(node.nodes)) openapiRefs(node.nodes as DocumentNode[], found);
    if (Array.isArray(node.fragments)) openapiRefs(node.fragments as DocumentNode[], found);
  }
  return found;
}

/** The site around a place: its visible structure, site spaces with titles, and the customization of the place's site space. */
async function siteAround(deps: Deps, place: PublishedPlace): Promise<Pick<PublishedPageView, 'place' | 'structure' | 'siteSpaces' | 'customization'>> {
  const structure = visibleStructure((await loadSiteStructureCached(deps.db, place.site.id))!, place.claims);
  const siteSpaces = await visibleSiteSpaces(deps, structure);
  const saved = await siteSpaceCustomization(deps, place.site, place.siteSpace.id);
  // A preview made by the app's customization form shows its unsaved settings over the saved ones.
  const customization = place.sitePreview?.customization ? mergeCustomization(saved, place.sitePreview.customization) : saved;
  return { place, structure, siteSpaces, customization };
}

/** The published revision of each visible site space of the site, for listings (llms.txt, sitemap.xml). */
export async function publishedRevisions(deps: Deps, view: Pick<PublishedPageView, 'siteSpaces'>): Promise<Array<{ siteSpace: VisibleSiteSpace; revision: Revision }>> {
  return Promise.all(view.siteSpaces.map(async (siteSpace) => ({ siteSpace, revision: await readSpaceRevision(deps, siteSpace.spaceId) })));
}

/** Where each space of the site is published, below the site's URL (its visible site space's path), for links to its pages. */
export async function siteSpacePaths(deps: Deps, siteId: string): Promise<Map<string, string>> {
  const structure = await loadSiteStructureCached(deps.db, siteId);
  const siteSpaces = structure ? await visibleSiteSpaces(deps, structure) : [];
  return new Map([...siteSpaces].reverse().map((siteSpace) => [siteSpace.spaceId, siteSpace.path]));
}

async function visibleSiteSpaces(deps: Deps, structure: SiteStructure): Promise<VisibleSiteSpace[]> {
  const sectionPath = new Map(structure.sections.map((section) => [section.id, section.isDefault ? '' : `${encodeURIComponent(section.path)}/`]));
  const shown = structure.siteSpaces.filter((siteSpace) => !siteSpace.hidden);
  const spaces = await Promise.all(shown.map((siteSpace) => findSpaceCached(deps.db, siteSpace.spaceId)));
  return shown.flatMap((siteSpace, index) => {
    const space = spaces[index];
    if (!space) return [];
    const own = siteSpace.isDefault ? '' : `${encodeURIComponent(siteSpace.path)}/`;
    return [
      { id: siteSpace.id, spaceId: siteSpace.spaceId, sectionId: siteSpace.sectionId, title: space.title, path: `${siteSpace.sectionId ? (sectionPath.get(siteSpace.sectionId) ?? '') : ''}${own}` },
    ];
  });
}

async function previewedRef(deps: Deps, place: PublishedPlace): Promise<string> {
  if (!place.preview) return primaryBranch;
  if ('revision' in place.preview) return place.preview.revision;
  const changeRequest = await findChangeRequest(deps.db, place.siteSpace.spaceId, place.preview.changeRequest);
  const commit = changeRequest && (await readBranch(deps.repositories.open(place.siteSpace.spaceId), changeRequest.branch));
  return commit ?? primaryBranch;
}

function firstDocument(pages: RevisionPage[]): RevisionPage | undefined {
  for (const page of pages) {
    if (page.kind === 'document') return page;
    const inner = page.kind === 'group' ? firstDocument(page.pages) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
