import type { ElementContent } from 'hast';
import { codeHighlighting, documentTree, el, safeHref, type Child } from '../../domain/documents/index.js';
import { resolveWrittenRef, type Revision, type RevisionPage, type Document } from '../../engine/index.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { CollectionRecord } from '../../storage/collections.js';
import type { AppContext } from '../context.js';
import { changeRequestsPath, collectionPath, historyPath, liveEditPath, livePagesPath, organizationPath, pageHistoryPath, pagePath, sitesPath, spacePath } from './paths.js';
import { breadcrumbs, csrfField } from './layout.js';
import { recentChangeRequests, searchForm } from './organizationPages.js';

/** Another way to sign in: an identity provider's start, back to where the visit began. */
export interface SignInProvider {
  label: string;
  href: string;
}

/** The sign-in form: email and password, posted with the sign-in cookie's token; the identity providers offered beside it. */
export function signInContent(input: { token: string; next: string; providers: SignInProvider[]; email?: string; problem?: string }): Child[] {
  return [
    el(
      'section',
      { className: ['sign-in'], ariaLabelledBy: 'sign-in-title' },
      el('h1', { id: 'sign-in-title' }, 'Sign in to Quire'),
      input.problem ? el('p', { className: ['problem'], role: 'alert' }, input.problem) : null,
      el(
        'form',
        { method: 'post', action: '/app/sign-in' },
        el('input', { type: 'hidden', name: 'csrf', value: input.token }),
        el('input', { type: 'hidden', name: 'next', value: input.next }),
        el('label', { htmlFor: 'email' }, 'Email'),
        el('input', { id: 'email', name: 'email', type: 'email', autoComplete: 'username', required: true, value: input.email ?? '', autoFocus: !input.email }),
        el('label', { htmlFor: 'password' }, 'Password'),
        el('input', { id: 'password', name: 'password', type: 'password', autoComplete: 'current-password', required: true, autoFocus: Boolean(input.email) }),
        el('button', { type: 'submit', className: ['primary'] }, 'Sign in'),
      ),
      input.providers.length
        ? el(
            'ul',
            { className: ['providers'], ariaLabel: 'Other ways to sign in' },
            input.providers.map((provider) => el('li', {}, el('a', { href: provider.href, className: ['button'] }, `Sign in with ${provider.label}`))),
          )
        : null,
    ),
  ];
}

/** What a person can read of an organization: its spaces and collections, each placed in its collection. */
export interface ReadableContent {
  spaces: SpaceRecord[];
  collections: CollectionRecord[];
}

export interface OrganizationSpaces {
  organization: OrganizationRecord;
  content: ReadableContent;
}

/** The home page: each organization the person belongs to, with the spaces they can read. */
export function homeContent(ctx: AppContext, organizations: OrganizationSpaces[], invitations: OrganizationRecord[], recent: Parameters<typeof recentChangeRequests>[0]): Child[] {
  return [
    el('h1', {}, 'Your documentation'),
    invitations.length
      ? el(
          'section',
          { className: ['notice'], ariaLabelledBy: 'invitations-title' },
          el('h2', { id: 'invitations-title' }, 'Invitations'),
          el(
            'ul',
            { className: ['list'] },
            invitations.map((organization) =>
              el(
                'li',
                {},
                `${organization.title} invited you. `,
                el(
                  'form',
                  { method: 'post', action: `/app/invitations/${organization.id}/accept`, className: ['inline'] },
                  csrfField(ctx),
                  el('button', { type: 'submit', className: ['primary'], ariaLabel: `Accept the invitation to ${organization.title}` }, 'Accept'),
                ),
                el(
                  'form',
                  { method: 'post', action: `/app/invitations/${organization.id}/decline`, className: ['inline'] },
                  csrfField(ctx),
                  el('button', { type: 'submit', ariaLabel: `Decline the invitation to ${organization.title}` }, 'Decline'),
                ),
              ),
            ),
          ),
        )
      : null,
    organizations.length === 0 ? el('p', { className: ['muted'] }, 'You belong to no organization yet: an invitation or an operator adds you to one.') : null,
    recentChangeRequests(recent),
    organizations.map(({ organization, content }) =>
      el(
        'section',
        { ariaLabelledBy: `org-${organization.id}` },
        el('h2', { id: `org-${organization.id}` }, el('a', { href: organizationPath(organization.id) }, organization.title)),
        searchForm(organization),
        contentTree(content, null),
      ),
    ),
  ];
}

export function organizationContent(organization: OrganizationRecord, content: ReadableContent, isAdmin: boolean): Child[] {
  return [
    breadcrumbs(' · ', el('a', { href: sitesPath(organization.id) }, 'Docs sites'), isAdmin ? [' · ', el('a', { href: `${organizationPath(organization.id)}/admin` }, 'Administration')] : null),
    el('h1', {}, organization.title),
    searchForm(organization),
    contentTree(content, null),
  ];
}

/** A collection's page: what it holds that the person can read, nested collections included. */
export function collectionContent(organization: OrganizationRecord, collection: CollectionRecord, content: ReadableContent): Child[] {
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title)),
    el('h1', {}, collection.title || 'Untitled collection'),
    collection.description ? el('p', {}, collection.description) : null,
    contentTree(content, collection.id),
  ];
}

/** The collections and spaces directly in `parentId` (null: the organization's top level), each collection with what it holds. */
function contentTree(content: ReadableContent, parentId: string | null): Child {
  const collections = content.collections.filter((collection) => collection.parentId === parentId).sort((a, b) => a.position - b.position);
  const spaces = content.spaces.filter((space) => space.collectionId === parentId).sort((a, b) => a.position - b.position || a.title.localeCompare(b.title));
  if (collections.length === 0 && spaces.length === 0) return parentId === null ? el('p', { className: ['muted'] }, 'No space you can read here yet.') : null;
  return el(
    'ul',
    { className: ['tree-list'] },
    collections.map((collection) =>
      el('li', {}, el('a', { href: collectionPath(collection.id), className: ['collection'] }, collection.title || 'Untitled collection'), contentTree(content, collection.id)),
    ),
    spaces.map((space) => el('li', {}, el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'))),
  );
}

/**
 * A space: its page tree beside the page being read, drawn by the renderer the published sites
 * use; `editable`: the space is live and the person may edit it (Edit, and its pages to manage).
 */
export async function spaceContent(
  ctx: AppContext,
  input: { space: SpaceRecord; organizationTitle: string; revision: Revision; page?: RevisionPage; document?: Document; editable: boolean },
): Promise<Child[]> {
  const { space, revision, page, document } = input;
  const body = page && document ? await pageBody(ctx, { space, revision, page, document }) : [el('p', { className: ['muted'] }, 'This space has no page yet.')];
  return [
    breadcrumbs(
      el('a', { href: organizationPath(space.organizationId) }, input.organizationTitle),
      space.title || 'Untitled space',
      ' · ',
      el('a', { href: changeRequestsPath(space.id) }, 'Change requests'),
      ' · ',
      el('a', { href: historyPath(space.id) }, 'History'),
      ...(input.editable ? [' · ', el('a', { href: livePagesPath(space.id) }, 'Pages')] : []),
    ),
    el(
      'div',
      { className: ['layout'] },
      el('nav', { className: ['tree'], ariaLabel: 'Pages' }, el('ul', {}, pageTree(space.id, revision.pages, page))),
      el(
        'div',
        {},
        el('article', { ariaLabelledBy: 'page-title' }, el('h1', { id: 'page-title' }, page?.title ?? space.title), body),
        page?.kind === 'document'
          ? el(
              'p',
              { className: ['muted'] },
              input.editable ? [el('a', { href: liveEditPath(space.id, page.id), className: ['button', 'edit-page'] }, 'Edit'), ' · '] : [],
              el('a', { href: pageHistoryPath(space.id, page.id) }, `History of ${page.title}`),
            )
          : null,
        el(
          'section',
          { ariaLabelledBy: 'clone-title' },
          el('h2', { id: 'clone-title' }, 'Clone with git'),
          el('p', { className: ['clone'] }, `git clone ${ctx.urls.gitRemote(space.id)}`),
          el('p', { className: ['muted'] }, 'git asks for a user name and a password: any user name, and one of your API tokens as the password.'),
        ),
      ),
    ),
  ];
}

function pageTree(spaceId: string, pages: RevisionPage[], current: RevisionPage | undefined): Child[] {
  return pages
    .filter((page) => page.meta.hidden !== true)
    .map((page) => {
      const children = page.pages.length ? el('ul', {}, pageTree(spaceId, page.pages, current)) : null;
      if (page.kind === 'group') return el('li', {}, el('p', { className: ['group'] }, page.title), children);
      if (page.kind === 'link') {
        const href = page.href ? safeHref(page.href) : undefined;
        return el('li', {}, href ? el('a', { href, rel: 'noopener' }, page.title) : page.title, children);
      }
      return el('li', {}, el('a', { href: pagePath(spaceId, page.id), ...(current?.id === page.id ? { ariaCurrent: 'page' } : {}) }, page.title), children);
    });
}

export function messageContent(title: string, message: string): Child[] {
  return [el('h1', {}, title), el('p', {}, message), el('p', {}, el('a', { href: '/app/' }, 'Back to the home page'))];
}

/** A page's Document drawn for the app: its links to the space's pages and files, at `revision`. */
export async function pageBody(ctx: AppContext, input: { space: SpaceRecord; revision: Revision; page: RevisionPage; document: Document }): Promise<ElementContent[]> {
  const { space, revision, page } = input;
  await codeHighlighting();
  return documentTree(input.document, {
    resolve: (ref) => resolveWrittenRef(revision, page.file ?? '', ref),
    page: (pageId) => pagePath(space.id, pageId),
    file: (fileId) => {
      const file = revision.files.find((candidate) => candidate.id === fileId);
      if (!file) return undefined;
      const url = new URL(ctx.urls.fileDownload(space.id, revision.commit, file.id));
      return { url: url.pathname + url.search, name: file.name };
    },
    spec: () => undefined,
  }).content;
}
