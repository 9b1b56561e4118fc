import { identity } from './001-identity.js';
import { content } from './002-content.js';
import { search } from './003-search.js';
import { spacePurges } from './004-space-purges.js';
import { invitations } from './005-invitations.js';
import { tokenExpiry } from './006-token-expiry.js';
import { organizationDeletion } from './007-organization-deletion.js';
import { contentGrants } from './008-content-grants.js';
import { sites } from './010-sites.js';
import { changeRequests } from './011-change-requests.js';
import { comments } from './012-comments.js';
import { openapi } from './013-openapi.js';
import { translations } from './014-translations.js';
import { conversations } from './015-conversations.js';
import { gitSync } from './016-git-sync.js';
import { siteRedirects } from './017-site-redirects.js';
import { sitePublishingAuth } from './018-site-publishing-auth.js';
import { siteCustomization } from './019-site-customization.js';
import { sharedState } from './020-shared-state.js';
import { storagePlacement } from './021-storage-placement.js';
import { searchBySpace } from './022-search-by-space.js';
import { siblingPositions } from './023-sibling-positions.js';
import { lookupIndexes } from './024-lookup-indexes.js';
import { transferLeftovers } from './025-transfer-leftovers.js';
import { appSessions } from './026-app-sessions.js';
import { signInFlows } from './027-sign-in-flows.js';
import { teamGrants } from './028-team-grants.js';
import { auditEvents } from './029-audit-events.js';
import { siteInsights } from './030-site-insights.js';
import { redirectRules } from './031-redirect-rules.js';
import { imports } from './032-imports.js';
import { siteQuestions } from './033-site-questions.js';
import { customHostnameChecks } from './034-custom-hostname-checks.js';
import { openapiRawText } from './035-openapi-raw-text.js';
import { glossary } from './036-glossary.js';
import { aiUsage } from './037-ai-usage.js';
import { visitorSegments } from './038-visitor-segments.js';
import { unaccentQualified } from './039-unaccent-qualified.js';

export interface Migration {
  version: number;
  name: string;
  /** SQLite's DDL; PostgreSQL runs it through dialect.ts's postgresSchema unless `postgres` is given. */
  sql: string;
  postgres?: string;
}

/** Numbered, append-only: never edit a migration that has shipped; add the next number. */
export const migrations: Migration[] = [
  identity,
  content,
  search,
  spacePurges,
  invitations,
  tokenExpiry,
  organizationDeletion,
  contentGrants,
  sites,
  changeRequests,
  comments,
  openapi,
  translations,
  conversations,
  gitSync,
  siteRedirects,
  sitePublishingAuth,
  siteCustomization,
  sharedState,
  storagePlacement,
  searchBySpace,
  siblingPositions,
  lookupIndexes,
  transferLeftovers,
  appSessions,
  signInFlows,
  teamGrants,
  auditEvents,
  siteInsights,
  redirectRules,
  imports,
  siteQuestions,
  customHostnameChecks,
  openapiRawText,
  glossary,
  aiUsage,
  visitorSegments,
  unaccentQualified,
];
