import type { DownloadSigner } from './downloadSigner.js';

/** Absolute URLs of resources, for the `urls` objects of API shapes. */
export class Urls {
  constructor(
    readonly base: string,
    readonly downloads?: DownloadSigner,
  ) {}
  api = (path: string) => `${this.base}/v1${path}`;
  app = (path: string) => `${this.base}/app${path}`;
  user = (userId: string) => this.api(`/users/${userId}`);
  organization = (organizationId: string) => this.api(`/orgs/${organizationId}`);
  organizationApp = (organizationId: string) => this.app(`/o/${organizationId}`);
  samlProvider = (organizationId: string, providerId: string) => this.api(`/orgs/${organizationId}/saml/${providerId}`);
  samlAcs = (organizationId: string, providerId: string) => this.app(`/sign-in/saml/${organizationId}/${providerId}/acs`);
  samlStart = (organizationId: string, providerId: string) => this.app(`/sign-in/saml/${organizationId}/${providerId}/start`);
  samlEntity = (organizationId: string, providerId: string) => this.app(`/sign-in/saml/${organizationId}/${providerId}`);
  auditEvent = (organizationId: string, eventId: string) => this.api(`/orgs/${organizationId}/audit-events/${eventId}`);
  agentInstructions = (organizationId: string) => this.api(`/orgs/${organizationId}/agent-instructions`);
  space = (spaceId: string) => this.api(`/spaces/${spaceId}`);
  spaceApp = (spaceId: string) => this.app(`/s/${spaceId}`);
  pageApp = (spaceId: string, pageId: string) => this.app(`/s/${spaceId}/p/${pageId}`);
  revisionApp = (spaceId: string, revisionId: string) => this.app(`/s/${spaceId}/r/${revisionId}`);
  /** A file's bytes, by a signed URL that needs no token (see DownloadSigner). */
  fileDownload = (spaceId: string, revisionId: string, fileId: string) => this.signedApi(`/spaces/${spaceId}/revisions/${revisionId}/files/${fileId}/download`);
  /** Where the bytes of an upload are sent (PUT), signed: a presigned URL, as a storage service gives (api/uploads.ts). */
  upload = (key: string) => {
    const path = `/uploads/${key}`;
    return `${this.base}${path}${this.downloads ? `?${this.downloads.sign(path)}` : ''}`;
  };
  /** An API path that answers without a token: signed (see DownloadSigner). */
  signedApi = (path: string) => {
    const apiPath = `/v1${path}`;
    return `${this.base}${apiPath}${this.downloads ? `?${this.downloads.sign(apiPath)}` : ''}`;
  };
  changeRequestApp = (spaceId: string, number: number) => this.app(`/s/${spaceId}/~/changes/${number}`);
  /** A space as a git remote (clone, pull, push). */
  gitRemote = (spaceId: string) => `${this.base}/git/${spaceId}.git`;
  collection = (collectionId: string) => this.api(`/collections/${collectionId}`);
  collectionApp = (collectionId: string) => this.app(`/c/${collectionId}`);
}
