/** Organizations: creating and updating them, members, invitations, teams, SAML checks, the operator's commands, and who reaches which space or collection. */
export * from './access.js';
export * from './bootstrap.js';
export * from './changeMembership.js';
export * from './createOrganization.js';
export * from './inviteLinks.js';
export * from './inviteUsers.js';
export * from './operatorCommands.js';
export * from './samlProviderChecks.js';
export * from './samlProviders.js';
export * from './spaceRoles.js';
export * from './teams.js';
export * from './updateOrganization.js';
export * from './readableSpace.js';
export * from './subdomains.js';
