import { allPages, convertMarkdownToDocument, Lru, readBranch, type Revision } from '../../engine/index.js';
import { findChangeRequest } from '../../storage/changeRequests.js';
import { loadSiteStructureCached } from '../../storage/siteStructure.js';
import type { ContentDeps } from '../common/deps.js';
import { readSpaceRevision } from '../spaces/index.js';
import { openapiRefs } from './publishedPages.js';
import { siteOfToken, visibleStructure, type SiteToken } from './siteTokens.js';

type Deps = Pick<ContentDeps, 'db' | 'repositories'>;

/**
 * Whether the pages a site token reads name this OpenAPI specification in a block (by its slug,
 * or by the URL it was registered from): the token then reads the spec, private or not. GitBook
 * renders a private spec on the published pages that use it; `public` only gives it a public link.
 * The token's site spaces (as its claims see them) are looked at in their published revisions,
 * and its own space in the revision or change request it was minted to preview.
 */
export async function siteTokenShowsSpec(deps: Deps, token: SiteToken, spec: { slug: string; sourceUrl?: string | null }): Promise<boolean> {
  const site = await siteOfToken(deps, token);
  const loaded = site && (await loadSiteStructureCached(deps.db, site.id));
  if (!loaded) return false;
  const wanted = [`slug:${spec.slug.toLowerCase()}`, ...(spec.sourceUrl ? [`url:${spec.sourceUrl}`] : [])];
  const spaces = new Set(visibleStructure(loaded, token.claims ?? {}).siteSpaces.map((siteSpace) => siteSpace.spaceId));
  const revisions = [...spaces].map((spaceId) => () => readSpaceRevision(deps, spaceId));
  const previewed = spaces.has(token.space) ? await previewedRef(deps, token) : undefined;
  if (previewed) revisions.unshift(() => readSpaceRevision(deps, token.space, previewed));
  for (const read of revisions) {
    const named = await specsNamedIn(await read());
    if (wanted.some((key) => named.has(key))) return true;
  }
  return false;
}

async function previewedRef(deps: Deps, token: SiteToken): Promise<string | undefined> {
  if (token.revision !== undefined) return token.revision;
  if (token.changeRequest === undefined) return undefined;
  const changeRequest = await findChangeRequest(deps.db, token.space, token.changeRequest);
  return (changeRequest && (await readBranch(deps.repositories.open(token.space), changeRequest.branch))) ?? undefined;
}

/** The specifications a revision's pages and reusable contents name, as openapiSpecKey writes them; by commit, as a commit never changes. */
const namedByCommit = new Lru<string, Promise<Set<string>>>(256);

function specsNamedIn(revision: Revision): Promise<Set<string>> {
  let named = namedByCommit.get(revision.commit);
  if (!named) {
    named = collectSpecNames(revision);
    named.catch(() => namedByCommit.delete(revision.commit));
    namedByCommit.set(revision.commit, named);
  }
  return named;
}

/** Only markdown that mentions a block's tag is converted: a 1,000-page space without OpenAPI blocks costs a text scan. */
const mayNameSpec = /openapi|swagger/i;

async function collectSpecNames(revision: Revision): Promise<Set<string>> {
  const markdowns = [...allPages(revision.pages).map((page) => page.markdown ?? ''), ...revision.reusableContents.map((content) => content.markdown)].filter((markdown) => mayNameSpec.test(markdown));
  const named = new Set<string>();
  for (const markdown of markdowns) openapiRefs((await convertMarkdownToDocument(markdown, 'A published page')).nodes, named);
  return named;
}
