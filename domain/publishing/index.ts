/** Published content: which site content a URL shows, and the site tokens that read it. */
export { looksLikeShareKey, resolvePublishedUrl, shareKeyInPath, siteOfPublishedUrl, type PublishedPlace, type PublishedRedirect, type PublishedVisitor } from './resolvePublishedUrl.js';
export {
  isPublishedRevision,
  looksLikeJwt,
  mintSiteToken,
  readSiteToken,
  siteOfToken,
  siteTokenReadsRevision,
  spaceReadableBySiteToken,
  tokenPreviewsChangeRequest,
  visibleStructure,
  type SiteToken,
} from './siteTokens.js';
export { answerOnSite, searchPublishedSite, siteSpaceIdsForReader, siteSpacesInScope, type FoundPage, type SiteReader, type SiteSearchScope } from './siteSearch.js';
export {
  publishedRevisions,
  siteSpacePaths,
  readPublishedDocument,
  readPublishedPage,
  type PublishedDocument,
  type PublishedPageRequest,
  type PublishedPageView,
  type VisibleSiteSpace,
} from './publishedPages.js';
export {
  changeSiteRedirect,
  createSiteRedirect,
  redirectOfSource,
  removeSiteRedirect,
  siteRedirectOf,
  upsertSiteRedirects,
  type BulkOutcome,
  type BulkRedirect,
  type RedirectInputDestination,
} from './siteRedirects.js';
export { notifyRenderer, revalidationTags } from './revalidation.js';
export { changePublishingAuth, publishingAuthOf, regeneratePublishingKey } from './visitorAuth.js';
export { siteTokenShowsSpec } from './siteSpecs.js';
export { mintSitePreview, previewLifetimeSeconds } from './sitePreview.js';
export { revisionShape } from './revisionShape.js';
