/** Starting out: a new organization and what it asks to begin with. */
export * from './newOrganization.js';
