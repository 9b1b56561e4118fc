import type { Customization } from '../../domain/sites/index.js';

/** Upstream's SiteCustomizationSettings (a site's, or a site space's with its overrides merged): stored in its shape, so presented as it is. */
export const presentSiteCustomization = (settings: Customization) => settings;
