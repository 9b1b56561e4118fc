/** OpenAPI specifications: registration, versions, and bundling a source into one document. */
export * from './openapi.js';
export * from './openapiBundle.js';
export * from './bundleInPool.js';
export * from './processedSpecs.js';
export * from './computedDocument.js';
export * from './computedRevision.js';
