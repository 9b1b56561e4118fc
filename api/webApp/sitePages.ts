import type { Element } from 'hast';
import { customizationThemes, type CustomizationDraft } from '../../domain/sites/index.js';
import { el, type Child } from '../../domain/documents/index.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import { siteVisibilities, type ShareLinkRecord, type SiteRecord } from '../../storage/sites.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { AppContext } from '../context.js';
import { csrfField, breadcrumbs } from './layout.js';
import { organizationPath, sitePath, sitesPath } from './paths.js';
import type { InsightsSummary } from '../../domain/insights/index.js';
import type { SiteQuestionView } from '../../domain/answers/index.js';
import { siteInsightsSection, siteQuestionsSection } from './siteInsightsSection.js';

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

export interface SitePage {
  organization: OrganizationRecord;
  site: SiteRecord;
  publishedUrl: string;
  shareLinks: Array<{ link: ShareLinkRecord; url: string }>;
  /** The site's sections and site spaces, in order: what readers navigate. */
  structure: Array<{ section?: { id: string; title: string }; siteSpaces: Array<{ id: string; title: string; path: string }> }>;
  /** Spaces of the organization the person may add. */
  addable: SpaceRecord[];
  draft: CustomizationDraft;
  /** A preview URL (an hour) showing the draft. */
  previewUrl: string;
  may: { admin: boolean; edit: boolean };
  /** What readers did lately. */
  insights: InsightsSummary;
  /** The questions asked most over the insights' days. */
  questions: SiteQuestionView[];
  notice?: string;
  problem?: string;
}

/** One site: its state, settings, share links, content and customization with a live preview, each form to those whose role allows it. */
export function siteContent(ctx: AppContext, page: SitePage): Child[] {
  const { organization, site, may } = page;
  const here = sitePath(organization.id, site.id);
  const form = (action: string, ...children: Child[]): Element => el('form', { method: 'post', action: `${here}/${action}`, className: ['inline'] }, csrfField(ctx), children);
  const hidden = (name: string, value: string) => el('input', { type: 'hidden', name, value });
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title), el('a', { href: sitesPath(organization.id) }, 'Docs sites')),
    el('h1', {}, site.title || 'Untitled site'),
    page.notice ? el('p', { className: ['notice'], role: 'status' }, page.notice) : null,
    page.problem ? el('p', { className: ['problem'], role: 'alert' }, page.problem) : null,
    el('p', {}, state(site)),
    site.published ? el('p', { className: ['url'] }, 'Read it at ', el('a', { href: page.publishedUrl }, page.publishedUrl)) : null,
    may.admin ? form(site.published ? 'unpublish' : 'publish', el('button', { type: 'submit', className: site.published ? [] : ['primary'] }, site.published ? 'Unpublish' : 'Publish')) : null,
    siteInsightsSection(page.insights),
    siteQuestionsSection(page.questions, page.insights.days),

    may.admin
      ? el(
          'section',
          { ariaLabelledBy: 'settings-title' },
          el('h2', { id: 'settings-title' }, 'Settings'),
          el(
            'form',
            { method: 'post', action: `${here}/settings`, className: ['stacked'] },
            csrfField(ctx),
            el('label', { htmlFor: 'site-title' }, 'Title'),
            el('input', { id: 'site-title', name: 'title', value: site.title, required: true, maxLength: 50 }),
            el('label', { htmlFor: 'site-visibility' }, 'Visibility'),
            el(
              'select',
              { id: 'site-visibility', name: 'visibility' },
              siteVisibilities.map((visibility) => el('option', { value: visibility, ...(site.visibility === visibility ? { selected: true } : {}) }, visibility)),
            ),
            el('button', { type: 'submit' }, 'Save settings'),
          ),
        )
      : null,

    may.admin
      ? el(
          'section',
          { ariaLabelledBy: 'share-title' },
          el('h2', { id: 'share-title' }, 'Share links'),
          el('p', { className: ['muted'] }, 'With visibility "share-link", only those holding an active link read the site.'),
          page.shareLinks.length
            ? el(
                'ul',
                {},
                page.shareLinks.map(({ link, url }) =>
                  el(
                    'li',
                    {},
                    `${link.name ?? 'Unnamed'}${link.active ? '' : ' (inactive)'}: `,
                    el('code', { className: ['clone'] }, url),
                    form(
                      'share-links/toggle',
                      hidden('id', link.id),
                      hidden('active', link.active ? 'false' : 'true'),
                      el('button', { type: 'submit', ariaLabel: `${link.active ? 'Deactivate' : 'Activate'} the link ${link.name ?? ''}`.trim() }, link.active ? 'Deactivate' : 'Activate'),
                    ),
                    form('share-links/delete', hidden('id', link.id), el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the link ${link.name ?? ''}`.trim() }, 'Delete')),
                  ),
                ),
              )
            : null,
          form(
            'share-links',
            el('label', { htmlFor: 'share-name' }, 'New link for'),
            el('input', { id: 'share-name', name: 'name', required: true, maxLength: 100, placeholder: 'who gets it' }),
            el('button', { type: 'submit' }, 'Create share link'),
          ),
        )
      : null,

    el(
      'section',
      { ariaLabelledBy: 'content-title' },
      el('h2', { id: 'content-title' }, 'Content'),
      page.structure.map(({ section, siteSpaces }) =>
        el(
          'div',
          { className: ['site-section'] },
          section ? el('h3', {}, `Section: ${section.title}`) : null,
          el(
            'ul',
            {},
            siteSpaces.map((siteSpace) =>
              el(
                'li',
                {},
                `${siteSpace.title} `,
                el('span', { className: ['muted'] }, `/${siteSpace.path}`),
                may.edit
                  ? form('site-spaces/remove', hidden('id', siteSpace.id), el('button', { type: 'submit', className: ['danger'], ariaLabel: `Remove ${siteSpace.title} from the site` }, 'Remove'))
                  : null,
              ),
            ),
          ),
          section && may.edit
            ? form('sections/remove', hidden('id', section.id), el('button', { type: 'submit', className: ['danger'], ariaLabel: `Remove the section ${section.title}` }, 'Remove'))
            : null,
        ),
      ),
      may.edit && page.addable.length
        ? [
            form('site-spaces', ...spacePicker('add-space', 'Add a space', page.addable), el('button', { type: 'submit' }, 'Add space')),
            form('sections', ...spacePicker('add-section', 'Add a section showing', page.addable), el('button', { type: 'submit' }, 'Add section')),
          ]
        : null,
    ),

    el(
      'section',
      { ariaLabelledBy: 'look-title' },
      el('h2', { id: 'look-title' }, 'Look'),
      el('div', { className: ['customize'] }, may.edit ? customizationForm(ctx, here, page.draft) : null, el('iframe', { className: ['preview'], src: page.previewUrl, title: 'Preview of the site' })),
    ),
  ];
}

/** A labelled choice of one of the spaces that can be added, posted as `space`. */
function spacePicker(id: string, label: string, spaces: SpaceRecord[]): Child[] {
  return [
    el('label', { htmlFor: id }, label),
    el(
      'select',
      { id, name: 'space' },
      spaces.map((space) => el('option', { value: space.id }, space.title || 'Untitled space')),
    ),
  ];
}

function customizationForm(ctx: AppContext, here: string, draft: CustomizationDraft): Element {
  return el(
    'form',
    { method: 'post', action: `${here}/customization`, className: ['stacked'], dataPreview: `${here}/preview` },
    csrfField(ctx),
    el('label', { htmlFor: 'look-title-field' }, 'Site title'),
    el('input', { id: 'look-title-field', name: 'title', value: draft.title, required: true, minLength: 2, maxLength: 128 }),
    el('label', { htmlFor: 'look-theme' }, 'Theme'),
    el(
      'select',
      { id: 'look-theme', name: 'theme' },
      customizationThemes.map((theme) => el('option', { value: theme, ...(draft.theme === theme ? { selected: true } : {}) }, theme)),
    ),
    el('label', { htmlFor: 'look-primary-light' }, 'Primary colour, light mode'),
    el('input', { id: 'look-primary-light', name: 'primaryLight', type: 'color', value: draft.primaryLight }),
    el('label', { htmlFor: 'look-primary-dark' }, 'Primary colour, dark mode'),
    el('input', { id: 'look-primary-dark', name: 'primaryDark', type: 'color', value: draft.primaryDark }),
    el('label', { htmlFor: 'look-mode' }, 'Opens in'),
    el(
      'select',
      { id: 'look-mode', name: 'defaultMode' },
      (['light', 'dark'] as const).map((mode) => el('option', { value: mode, ...(draft.defaultMode === mode ? { selected: true } : {}) }, `${mode} mode`)),
    ),
    el(
      'div',
      { className: ['actions'] },
      // Without script, Preview reloads this page showing the draft; with it, the preview follows every change.
      el('button', { type: 'submit', formAction: `${here}/preview` }, 'Preview'),
      el('button', { type: 'submit', className: ['primary'] }, 'Save look'),
    ),
  );
}
