/** Permissions: who is given which role on a space, a collection or a site, and who reaches each. */
export * from './grants.js';
export * from './whoReaches.js';
