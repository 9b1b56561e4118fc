/** Docs sites: their structure (sections, groups, site spaces), positions, conditions and adaptive schema. */
export * from './siteAdaptiveSchema.js';
export * from './siteStructure.js';
export * from './sites.js';
export * from './siteSpaces.js';
export * from './siteCustomization.js';
export * from './shareLinks.js';
export * from './customHostnames.js';
