/** The app's addresses: the same as `urls.app` hands out (api/urls.ts), as paths. */
export const organizationPath = (organizationId: string) => `/app/o/${organizationId}`;
export const spacePath = (spaceId: string) => `/app/s/${spaceId}`;
export const pagePath = (spaceId: string, pageId: string) => `/app/s/${spaceId}/p/${pageId}`;
export const changeRequestsPath = (spaceId: string) => `/app/s/${spaceId}/~/changes`;
export const changeRequestPath = (spaceId: string, number: number) => `/app/s/${spaceId}/~/changes/${number}`;
export const historyPath = (spaceId: string) => `/app/s/${spaceId}/history`;
export const revisionPath = (spaceId: string, revisionId: string) => `/app/s/${spaceId}/r/${revisionId}`;
export const sitesPath = (organizationId: string) => `/app/o/${organizationId}/sites`;
export const sitePath = (organizationId: string, siteId: string) => `/app/o/${organizationId}/sites/${siteId}`;
export const collectionPath = (collectionId: string) => `/app/c/${collectionId}`;
export const pageHistoryPath = (spaceId: string, pageId: string) => `/app/s/${spaceId}/p/${pageId}/history`;
/** A live space's own pages, edited directly (its edit mode `live`). */
export const livePagesPath = (spaceId: string) => `/app/s/${spaceId}/pages`;
export const liveEditPath = (spaceId: string, pageId: string) => `/app/s/${spaceId}/p/${pageId}/edit`;
