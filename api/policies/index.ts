/**
 * What each route declares it needs (api/routes: one line per operation), split by what it guards:
 * who the caller is comes from api/auth; these check their roles.
 */
export { anyone, signedIn, signedInOverGit, type Policy } from './policy.js';
export { inOrganization, inSite, type OrganizationRule } from './organization.js';
export { onCustomHostname } from './customHostname.js';
export { callerReadsSpace, inSpace, inSpaceOrSignedDownload } from './space.js';
export { inCollection } from './collection.js';
