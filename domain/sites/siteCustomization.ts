import { loadSiteStructure, loadSiteStructureCached } from '../../storage/siteStructure.js';
import { deleteSiteSpaceOverrides, findSiteSpaceOverrides, loadSiteCustomizations, saveSiteCustomization, saveSiteSpaceOverrides, type CustomizationJson } from '../../storage/siteCustomization.js';
import type { SiteRecord } from '../../storage/sites.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { announceSiteChange } from './sites.js';

type Deps = Pick<ContentDeps, 'db' | 'jobs'>;

/** Upstream's customization settings: what a site shows before anyone customizes it is defaultCustomization's. */
export type Customization = CustomizationJson;

/** What a site shows before anyone customizes it (upstream's defaults), titled after the site. */
export function defaultCustomization(title: string): Customization {
  const color = (light: string, dark: string) => ({ light, dark });
  return {
    ...(title.length >= 2 ? { title: title.slice(0, 128) } : {}),
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB', '#346DDB'),
      infoColor: color('#787878', '#787878'),
      successColor: color('#00C950', '#00C950'),
      warningColor: color('#FE9A00', '#FE9A00'),
      dangerColor: color('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    // Quire has no assistant: 'search' (upstream's default) makes GitBook's renderer ask for recommended questions Quire can't answer.
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Values that are one of several shapes replace the base's whole: a favicon (an icon, an emoji or
 * none) and content references (`{kind, …}`): two shapes merged field by field would be neither.
 */
const replacedWhole = (name: string, value: Record<string, unknown>) => name === 'favicon' || 'kind' in value;

/**
 * `patch` merged over `base`: objects field by field (but for replacedWhole's), anything else (lists included) replaced,
 * and a null removing the field, as upstream's override body means "reset the override". An
 * object the patch emptied by resets goes too, so overrides all reset are no overrides.
 */
export function mergeCustomization(base: Customization, patch: Customization): Customization {
  const merged: Customization = { ...base };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else if (isPlainObject(value) && !replacedWhole(name, value)) {
      // Into an object of the base, or a new one: either way the patch's nulls are resets, never values.
      const inner = mergeCustomization(isPlainObject(merged[name]) ? (merged[name] as Customization) : {}, value);
      if (Object.keys(inner).length === 0 && Object.keys(value).length > 0) delete merged[name];
      else merged[name] = inner;
    } else merged[name] = value;
  }
  return merged;
}

export async function siteCustomization(deps: Pick<Deps, 'db'>, site: SiteRecord): Promise<Customization> {
  return (await loadSiteCustomizations(deps.db, site.id)).site ?? defaultCustomization(site.title);
}

/** Replaces the site's settings whole (the body is upstream's full settings object). */
export async function replaceSiteCustomization(deps: Deps, site: SiteRecord, settings: Customization): Promise<Customization> {
  await saveSiteCustomization(deps.db, site.id, settings);
  announceSiteChange(deps, site.id);
  return settings;
}

async function assertSiteSpace(deps: Pick<Deps, 'db'>, site: SiteRecord, siteSpaceId: string): Promise<void> {
  const structure = (await loadSiteStructureCached(deps.db, site.id))!;
  if (!structure.siteSpaces.some((siteSpace) => siteSpace.id === siteSpaceId)) throw missing(`Site space ${siteSpaceId} not found`);
}

/** A site space's settings: the site's, with the site space's overrides merged over them. */
export async function siteSpaceCustomization(deps: Pick<Deps, 'db'>, site: SiteRecord, siteSpaceId: string): Promise<Customization> {
  await assertSiteSpace(deps, site, siteSpaceId);
  const stored = await loadSiteCustomizations(deps.db, site.id);
  const overrides = stored.overrides.get(siteSpaceId);
  const base = stored.site ?? defaultCustomization(site.title);
  return overrides ? mergeCustomization(base, overrides) : base;
}

/** Every site space's settings, by id, for a published site's profile. */
export async function siteSpaceCustomizations(deps: Pick<Deps, 'db'>, site: SiteRecord, siteSpaceIds: string[]): Promise<{ site: Customization; siteSpaces: Map<string, Customization> }> {
  const stored = await loadSiteCustomizations(deps.db, site.id);
  const base = stored.site ?? defaultCustomization(site.title);
  return { site: base, siteSpaces: new Map(siteSpaceIds.map((id) => [id, stored.overrides.has(id) ? mergeCustomization(base, stored.overrides.get(id)!) : base])) };
}

/**
 * Merges the override body into the site space's overrides (a null resets that override), in one
 * transaction; overrides all reset are removed.
 */
export async function overrideSiteSpaceCustomization(deps: Deps, site: SiteRecord, siteSpaceId: string, patch: Customization): Promise<Customization> {
  await deps.db.transaction(async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    if (!structure.siteSpaces.some((siteSpace) => siteSpace.id === siteSpaceId)) throw missing(`Site space ${siteSpaceId} not found`);
    const current = (await findSiteSpaceOverrides(tx, siteSpaceId)) ?? {};
    const overrides = mergeCustomization(current, patch);
    if (Object.keys(overrides).length > 0) await saveSiteSpaceOverrides(tx, site.id, siteSpaceId, overrides);
    else await deleteSiteSpaceOverrides(tx, site.id, siteSpaceId);
  });
  announceSiteChange(deps, site.id);
  return siteSpaceCustomization(deps, site, siteSpaceId);
}

/** Whether the site space had overrides to remove. */
export async function removeSiteSpaceCustomization(deps: Deps, site: SiteRecord, siteSpaceId: string): Promise<boolean> {
  await assertSiteSpace(deps, site, siteSpaceId);
  const removed = await deleteSiteSpaceOverrides(deps.db, site.id, siteSpaceId);
  if (removed) announceSiteChange(deps, site.id);
  return removed;
}

/** What the app's customization form edits: the site's title, its theme, its primary colour in each mode, the mode it opens in. */
export interface CustomizationDraft {
  title: string;
  theme: string;
  primaryLight: string;
  primaryDark: string;
  defaultMode: string;
}

export const customizationThemes = ['clean', 'muted', 'bold', 'gradient'] as const;
const color = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** The draft as a customization patch (upstream's shapes), each field checked and named when it is wrong. */
export function customizationOfDraft(draft: CustomizationDraft): Customization {
  const title = draft.title.trim();
  if (title.length < 2 || title.length > 128) throw invalidInput('"title" has 2 to 128 characters');
  if (!(customizationThemes as readonly string[]).includes(draft.theme)) throw invalidInput(`"theme" is one of ${customizationThemes.join(', ')}`);
  for (const [name, value] of [
    ['primary colour (light)', draft.primaryLight],
    ['primary colour (dark)', draft.primaryDark],
  ] as const) {
    if (!color.test(value)) throw invalidInput(`The ${name} is a colour like #346DDB, not ${JSON.stringify(value)}`);
  }
  if (draft.defaultMode !== 'light' && draft.defaultMode !== 'dark') throw invalidInput('"mode" is light or dark');
  return { title, styling: { theme: draft.theme, primaryColor: { light: draft.primaryLight, dark: draft.primaryDark } }, themes: { default: draft.defaultMode } };
}

/** The form's fields read back from a customization. */
export function draftOfCustomization(customization: Customization, siteTitle: string): CustomizationDraft {
  const styling = (customization.styling ?? {}) as { theme?: string; primaryColor?: { light?: string; dark?: string } };
  const themes = (customization.themes ?? {}) as { default?: string };
  return {
    title: typeof customization.title === 'string' ? customization.title : siteTitle,
    theme: styling.theme ?? 'clean',
    primaryLight: styling.primaryColor?.light ?? '#346DDB',
    primaryDark: styling.primaryColor?.dark ?? '#346DDB',
    defaultMode: themes.default ?? 'light',
  };
}

/** Saves the draft over the site's customization (what the API's replace would store), and says so to the renderers. */
export async function saveCustomizationDraft(deps: Deps, site: SiteRecord, draft: CustomizationDraft): Promise<Customization> {
  return replaceSiteCustomization(deps, site, mergeCustomization(await siteCustomization(deps, site), customizationOfDraft(draft)));
}
