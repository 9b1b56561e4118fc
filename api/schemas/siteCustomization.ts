// Upstream's own shapes, closed and bounded (scripts/upstreamSchemas.mjs): the site's whole
// settings for PUT, the fields a site space overrides (null resets one) for PATCH. Both bodies
// are required, as upstream's are (`required: []` says so to api/validate.ts).
export const replaceCustomization = { type: 'object', required: [], allOf: [{ $ref: 'upstream-customization.json#/definitions/SiteCustomizationSettings' }] } as const;
export const overrideCustomization = { type: 'object', required: [], allOf: [{ $ref: 'upstream-customization.json#/definitions/SiteSpaceCustomizationOverride' }] } as const;
/** `unmasked` (upstream: show secrets unmasked) changes nothing: a customization holds no secret. */
export const customizationQuery = { type: 'object', properties: { unmasked: { type: 'boolean' } }, additionalProperties: false } as const;
