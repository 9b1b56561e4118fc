// Upstream's own shapes, closed and bounded (scripts/upstreamSchemas.mjs): the site's whole
// settings for PUT, the fields a site space overrides (null resets one) for PATCH.
export const replaceCustomization = { $ref: 'upstream-customization.json#/definitions/SiteCustomizationSettings' } as const;
export const overrideCustomization = { $ref: 'upstream-customization.json#/definitions/SiteSpaceCustomizationOverride' } as const;
