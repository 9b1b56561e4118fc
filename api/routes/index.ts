import { inviteLinkRoutes } from './inviteLinks.js';
import { memberRoutes } from './members.js';
import { metaRoutes } from './meta.js';
import { organizationRoutes } from './organizations.js';
import { samlRoutes } from './saml.js';
import type { Route } from './table.js';
import { teamRoutes } from './teams.js';
import { spaceRoutes } from './spaces.js';
import { contentRoutes } from './content.js';
import { collectionRoutes } from './collections.js';
import { searchRoutes } from './search.js';
import { linkRoutes } from './links.js';
import { siteRoutes } from './sites.js';
import { siteStructureRoutes } from './siteStructure.js';
import { commentRoutes } from './comments.js';
import { commentReplyRoutes } from './commentReplies.js';
import { changeRequestRoutes } from './changeRequests.js';
import { changeRequestContentRoutes } from './changeRequestContent.js';
import { changeRequestLinkRoutes } from './changeRequestLinks.js';
import { changeRequestMergeRoutes } from './changeRequestMerge.js';
import { changeRequestReviewRoutes } from './changeRequestReviews.js';
import { openAPIRoutes } from './openapi.js';
import { translationRoutes } from './translations.js';
import { pdfRoutes } from './pdf.js';
import { conversationRoutes } from './conversations.js';
import { gitSyncRoutes } from './gitSync.js';
import { publishedUrlRoutes } from './publishedUrls.js';
import { siteRedirectRoutes } from './siteRedirects.js';
import { sitePublishingRoutes } from './sitePublishing.js';
import { embedRoutes } from './embeds.js';
import { siteCustomizationRoutes } from './siteCustomization.js';
import { permissionRoutes } from './permissions.js';
import { auditRoutes } from './audit.js';
import { askRoutes } from './ask.js';
import { insightRoutes } from './insights.js';
import { siteQuestionRoutes } from './siteQuestions.js';
import { customHostnameRoutes } from './customHostnames.js';
import { glossaryRoutes } from './glossary.js';
import { contentUrlRoutes } from './contentUrls.js';
import { aiUsageRoutes } from './aiUsage.js';
import { importRoutes } from './imports.js';

/** Every route of the API, area by area. */
export const allRoutes: Route[] = [
  metaRoutes,
  organizationRoutes,
  memberRoutes,
  teamRoutes,
  samlRoutes,
  inviteLinkRoutes,
  spaceRoutes,
  contentRoutes,
  collectionRoutes,
  searchRoutes,
  linkRoutes,
  siteRoutes,
  siteStructureRoutes,
  changeRequestRoutes,
  changeRequestContentRoutes,
  changeRequestLinkRoutes,
  changeRequestMergeRoutes,
  changeRequestReviewRoutes,
  pdfRoutes,
  commentRoutes,
  commentReplyRoutes,
  openAPIRoutes,
  translationRoutes,
  conversationRoutes,
  gitSyncRoutes,
  publishedUrlRoutes,
  siteRedirectRoutes,
  sitePublishingRoutes,
  embedRoutes,
  siteCustomizationRoutes,
  permissionRoutes,
  auditRoutes,
  askRoutes,
  insightRoutes,
  siteQuestionRoutes,
  customHostnameRoutes,
  glossaryRoutes,
  contentUrlRoutes,
  aiUsageRoutes,
  importRoutes,
].flatMap((table) => table.routes);
