import { createHash } from 'node:crypto';
import { defaultCustomization, sectionSiblings, type Customization, type SiteSpacesView } from '../../domain/sites/index.js';
import type { SiteSectionGroupRecord, SiteSectionRecord, SiteSpaceRecord } from '../../storage/siteStructure.js';
import type { SiteRecord } from '../../storage/sites.js';
import type { AppContext } from '../context.js';
import { presentSite, publishedUrl, siteReaderOf } from './site.js';
import { presentSiteCustomization } from './siteCustomization.js';
import { presentSpace } from './space.js';

/** A site with its structure and the spaces it shows (domain/sites: readSiteSpaces), for every presenter below. */
export interface SiteView extends SiteSpacesView {
  ctx: AppContext;
  site: SiteRecord;
  /** Only an active key of one of the site's links. */
  shareKey: string | undefined;
  /** The site's customization and each site space's, for a published profile. */
  customizations?: { site: Customization; siteSpaces: Map<string, Customization> };
}

export function siteView(ctx: AppContext, site: SiteRecord, { structure, spaces }: SiteSpacesView, shareKey?: string, customizations?: SiteView['customizations']): SiteView {
  return { ctx, site, structure, spaces, shareKey, ...(customizations ? { customizations } : {}) };
}

/**
 * What a presentation of the view depends on, hashed: the site, its structure, each space with
 * its revision and the caller's role on it, the share key and the public URL. Equal keys present
 * equally, so a presented profile can be kept under its key.
 */
export function siteViewKey(view: SiteView): string {
  const spaces = [...view.spaces.values()].map((shown) => [shown.space, shown.revision, shown.role ?? null]);
  return createHash('sha256')
    .update(
      JSON.stringify([view.site, view.structure, spaces, view.shareKey ?? null, view.ctx.urls.base, view.customizations ? [view.customizations.site, [...view.customizations.siteSpaces]] : null]),
    )
    .digest('base64url');
}

function sectionSegments(view: SiteView, section: SiteSectionRecord | undefined): string[] {
  return section && !section.isDefault ? [section.path] : [];
}

export function presentSiteSpace(view: SiteView, siteSpace: SiteSpaceRecord) {
  const shown = view.spaces.get(siteSpace.spaceId)!;
  const section = siteSpace.sectionId ? view.structure.sections.find((candidate) => candidate.id === siteSpace.sectionId) : undefined;
  const published = publishedUrl(view.ctx.urls, view.site, view.shareKey, [...sectionSegments(view, section), ...(siteSpace.isDefault ? [] : [siteSpace.path])]);
  return {
    object: 'site-space' as const,
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.sectionId ? { section: siteSpace.sectionId } : {}),
    space: presentSpace(shown.space, shown.revision, shown.role, view.ctx.urls),
    title: shown.space.title,
    default: siteSpace.isDefault,
    // 0.202.0: Quire has no draft site spaces or sections.
    draft: false,
    ...(siteSpace.condition !== null ? { condition: siteSpace.condition } : {}),
    hasAdvancedCustomizationFeature: false,
    urls: published ? { published } : {},
    hidden: siteSpace.hidden,
  };
}

export function presentSection(view: SiteView, section: SiteSectionRecord) {
  const published = publishedUrl(view.ctx.urls, view.site, view.shareKey, sectionSegments(view, section));
  return {
    object: 'site-section' as const,
    id: section.id,
    title: section.title,
    ...(section.description !== null ? { description: section.description } : {}),
    default: section.isDefault,
    draft: false,
    path: section.path,
    ...(section.condition !== null ? { condition: section.condition } : {}),
    ...(section.groupId ? { sectionGroup: section.groupId } : {}),
    siteSpaces: view.structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === section.id).map((siteSpace) => presentSiteSpace(view, siteSpace)),
    urls: published ? { published } : {},
    ...(section.icon !== null ? { icon: section.icon } : {}),
  };
}

type PresentedSection = ReturnType<typeof presentSection>;
interface PresentedGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  sections: PresentedSection[];
  sectionGroup?: string;
  children: Array<PresentedSection | PresentedGroup>;
  icon?: string;
}

/** Sections and groups under a group (null: the root), in order, presented. */
function presentChildren(view: SiteView, groupId: string | null, depth: number): Array<PresentedSection | PresentedGroup> {
  return sectionSiblings(view.structure, groupId).flatMap((sibling): Array<PresentedSection | PresentedGroup> => {
    if (sibling.kind === 'site-section')
      return [
        presentSection(
          view,
          view.structure.sections.find((section) => section.id === sibling.id)!,
        ),
      ];
    return depth < 32
      ? [
          presentGroup(
            view,
            view.structure.groups.find((group) => group.id === sibling.id)!,
            depth + 1,
          ),
        ]
      : [];
  });
}

export function presentGroup(view: SiteView, group: SiteSectionGroupRecord, depth = 0): PresentedGroup {
  const children = presentChildren(view, group.id, depth);
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    sections: children.filter((child): child is PresentedSection => child.object === 'site-section'),
    ...(group.parentId ? { sectionGroup: group.parentId } : {}),
    children,
    ...(group.icon !== null ? { icon: group.icon } : {}),
  };
}

/** Sections (with their groups) when the site has any; otherwise its root site spaces. */
export function presentStructure(view: SiteView) {
  if (view.structure.sections.length > 0) return { type: 'sections' as const, structure: presentChildren(view, null, 0) };
  return { type: 'siteSpaces' as const, structure: view.structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === null).map((siteSpace) => presentSiteSpace(view, siteSpace)) };
}

export function presentPublishedSite(view: SiteView) {
  return {
    object: 'published-content-site' as const,
    site: presentSite(view.site, view.ctx.urls, siteReaderOf(view.ctx)),
    structure: presentStructure(view),
    customizations: {
      site: presentSiteCustomization(view.customizations?.site ?? defaultCustomization(view.site.title)),
      siteSpaces: Object.fromEntries(
        view.structure.siteSpaces.map((siteSpace) => [siteSpace.id, presentSiteCustomization(view.customizations?.siteSpaces.get(siteSpace.id) ?? defaultCustomization(view.site.title))]),
      ),
    },
    scripts: [],
  };
}
