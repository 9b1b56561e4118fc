import { el, type Child } from '../../domain/documents/index.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SiteRecord } from '../../storage/sites.js';
import type { AppContext } from '../context.js';
import { csrfField, breadcrumbs } from './layout.js';
import { organizationPath, sitePath, sitesPath } from './paths.js';

const state = (site: SiteRecord) => `${site.published ? 'Published' : 'Not published'} · ${site.visibility}`;

/** An organization's docs sites. */
export function sitesContent(organization: OrganizationRecord, sites: SiteRecord[]): Child[] {
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title)),
    el('h1', {}, 'Docs sites'),
    sites.length === 0
      ? el('p', { className: ['muted'] }, 'No site yet: the API makes them (createSite).')
      : el(
          'ul',
          { className: ['list'] },
          sites.map((site) => el('li', {}, el('a', { href: sitePath(organization.id, site.id) }, site.title || 'Untitled site'), el('span', { className: ['muted'] }, ` · ${state(site)}`))),
        ),
  ];
}

/** One site: its state, where it is published, and Publish or Unpublish for those whose role may. */
export function siteContent(ctx: AppContext, input: { organization: OrganizationRecord; site: SiteRecord; publishedUrl: string; mayPublish: boolean }): Child[] {
  const { organization, site } = input;
  const action = `${sitePath(organization.id, site.id)}/${site.published ? 'unpublish' : 'publish'}`;
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title), el('a', { href: sitesPath(organization.id) }, 'Docs sites')),
    el('h1', {}, site.title || 'Untitled site'),
    el('p', {}, state(site)),
    site.published ? el('p', {}, 'Read it at ', el('a', { href: input.publishedUrl }, input.publishedUrl)) : null,
    input.mayPublish
      ? el('form', { method: 'post', action }, csrfField(ctx), el('button', { type: 'submit', className: site.published ? [] : ['primary'] }, site.published ? 'Unpublish' : 'Publish'))
      : null,
  ];
}
