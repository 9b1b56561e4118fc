import type { Customization } from '../../domain/sites/index.js';

/**
 * Upstream's SiteCustomizationSettings (a site's, or a site space's with its overrides merged),
 * stored in 0.146.0's shape and presented with what 0.202.0 requires beside it, as GitBook's
 * renderer reads: `socialAccounts` (none), `styling.codeTheme` (the default themes) and
 * `pageActions.items` (the actions 0.146.0's flags turn on, in upstream's order), unless the
 * settings stored hold them (a body may give them).
 */
export function presentSiteCustomization(settings: Customization) {
  const styling = (settings.styling ?? {}) as Record<string, unknown>;
  const pageActions = (settings.pageActions ?? {}) as { externalAI?: boolean; markdown?: boolean; mcp?: boolean; items?: string[] };
  const pdf = (settings.pdf ?? {}) as { enabled?: boolean };
  const items = [pageActions.markdown && 'markdown', pageActions.externalAI && 'external-ai', pageActions.mcp && 'mcp', pdf.enabled && 'pdf'].filter(
    (item): item is string => typeof item === 'string',
  );
  return {
    ...settings,
    styling: { ...styling, codeTheme: styling.codeTheme ?? { default: defaultCodeTheme, openapi: defaultCodeTheme } },
    pageActions: { ...pageActions, items: pageActions.items ?? items },
    socialAccounts: (settings.socialAccounts as unknown[] | undefined) ?? [],
  };
}

const defaultCodeTheme = { light: 'default-light', dark: 'default-dark' };
