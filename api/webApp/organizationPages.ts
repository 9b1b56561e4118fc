import { el, type Child } from '../../domain/documents/index.js';
import type { PageHits } from '../../domain/spaces/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { IssueClusterRecord } from '../../storage/issueClusters.js';
import type { OpenAPISpecRecord, OpenAPIVersionRecord } from '../../storage/openapi.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { breadcrumbs } from './layout.js';
import { changeRequestPath, organizationPath, pagePath, spacePath } from './paths.js';

/** The search box of an organization: a GET form, so its results have an address. */
export function searchForm(organization: OrganizationRecord, query = ''): Child {
  const id = `search-${organization.id}`;
  return el(
    'form',
    { method: 'get', action: `${organizationPath(organization.id)}/search`, className: ['inline', 'search'], role: 'search' },
    el('label', { htmlFor: id }, `Search ${organization.title}`),
    el('input', { id, name: 'q', type: 'search', value: query, required: true, maxLength: 512 }),
    el('button', { type: 'submit' }, 'Search'),
  );
}

/** The open change requests of spaces the person can read, newest first, each under its space. */
export function recentChangeRequests(items: Array<{ changeRequest: ChangeRequestRecord; space: SpaceRecord; creator: UserRecord }>): Child {
  if (items.length === 0) return null;
  return el(
    'section',
    { ariaLabelledBy: 'recent-title' },
    el('h2', { id: 'recent-title' }, 'Recent change requests'),
    el(
      'ul',
      { className: ['list'] },
      items.map(({ changeRequest, space, creator }) =>
        el(
          'li',
          {},
          el('a', { href: changeRequestPath(space.id, changeRequest.number) }, changeRequest.subject || `Change request #${changeRequest.number}`),
          el('span', { className: ['muted'] }, ` in ${space.title || 'Untitled space'} · by ${creator.displayName || creator.email} · ${changeRequest.updatedAt.slice(0, 10)}`),
        ),
      ),
    ),
  );
}

/** An organization's search results: pages of the spaces the person can read, best first, with the sections that matched. */
export function searchContent(organization: OrganizationRecord, query: string, pages: PageHits[], spaceTitle: (spaceId: string) => string): Child[] {
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title), 'Search'),
    el('h1', {}, query ? `Search: ${query}` : 'Search'),
    searchForm(organization, query),
    query && pages.length === 0 ? el('p', { className: ['muted'] }, 'No page matches every word.') : null,
    el(
      'ol',
      { className: ['results'] },
      pages.map((page) => {
        const first = page.hits[0]!;
        return el(
          'li',
          {},
          el('a', { href: pagePath(page.spaceId, page.pageId) }, first.pageTitle || first.pagePath),
          el('span', { className: ['muted'] }, ` in `, el('a', { href: spacePath(page.spaceId) }, spaceTitle(page.spaceId))),
          el(
            'ul',
            {},
            page.hits.slice(0, 3).map((hit) => el('li', {}, hit.sectionTitle ? el('strong', {}, `${hit.sectionTitle}: `) : null, hit.excerpt())),
          ),
        );
      }),
    ),
  ];
}

/** An OpenAPI specification of the organization (its `urls.app`): where it comes from, how its processing went, its versions. */
export function openAPISpecContent(organization: OrganizationRecord, spec: OpenAPISpecRecord, versions: OpenAPIVersionRecord[]): Child[] {
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title), 'OpenAPI'),
    el('h1', {}, spec.slug),
    el(
      'dl',
      { className: ['service'] },
      el('dt', {}, 'Source'),
      el('dd', {}, spec.sourceUrl ?? 'uploaded text'),
      el('dt', {}, 'Processing'),
      el('dd', {}, `${spec.processingState}${spec.lastProcessedAt ? `, last ${spec.lastProcessedAt.slice(0, 16).replace('T', ' ')}` : ''}`),
      el('dt', {}, 'Visibility'),
      el('dd', {}, spec.visibility),
    ),
    spec.lastErrors?.length
      ? el(
          'section',
          { className: ['problem'], ariaLabelledBy: 'errors-title' },
          el('h2', { id: 'errors-title' }, `Problems (${spec.lastErrorCount})`),
          el(
            'ul',
            {},
            spec.lastErrors.map((problem) => el('li', {}, problem.message)),
          ),
        )
      : null,
    el(
      'section',
      { ariaLabelledBy: 'versions-title' },
      el('h2', { id: 'versions-title' }, 'Versions'),
      versions.length === 0
        ? el('p', { className: ['muted'] }, 'None processed yet.')
        : el(
            'ul',
            {},
            versions.map((version) =>
              el(
                'li',
                {},
                `${version.createdAt.slice(0, 16).replace('T', ' ')} · ${version.digest.slice(0, 12)}`,
                version.sourceUrl ? [' · ', el('a', { href: version.sourceUrl, rel: 'noopener noreferrer' }, 'source')] : null,
              ),
            ),
          ),
    ),
  ];
}

/** A cluster of issues found in the organization's conversations (its `urls.app`). */
export function issueClusterContent(organization: OrganizationRecord, cluster: IssueClusterRecord): Child[] {
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title), 'Conversations'),
    el('h1', {}, `${cluster.icon} ${cluster.label}`.trim()),
    el('p', {}, cluster.summary),
    el(
      'p',
      { className: ['muted'] },
      `${cluster.issues} issue${cluster.issues === 1 ? '' : 's'} from ${cluster.conversations} conversation${cluster.conversations === 1 ? '' : 's'} · updated ${cluster.updatedAt.slice(0, 10)}`,
    ),
  ];
}
