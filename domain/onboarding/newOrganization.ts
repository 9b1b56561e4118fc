import { createOrganization, normalizeEmailDomains } from '../organizations/index.js';
import { createOpenAPISpec } from '../openapi/index.js';
import { createSite } from '../sites/index.js';
import { builtInTemplate, createSpace } from '../spaces/index.js';
import type { JobDeps } from '../common/deps.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { UserRecord } from '../../storage/users.js';

export interface NewOrganization {
  title: string;
  owner: UserRecord;
  emailDomains?: string[];
  /** Also a docs site (unpublished) showing a space made from the getting-started template. */
  withDefaultSite?: boolean;
  /** With the default site: an OpenAPI specification fetched from this URL (slug `api`), processed by its job. */
  openapiUrl?: string;
}

/**
 * A new organization with its creator as admin (createOrganization of 0.202.0), and what it asks
 * to start with. The organization is made first, in one transaction; the default site and the
 * specification after it, each as its own operation makes it.
 */
export async function startOrganization(deps: JobDeps, input: NewOrganization): Promise<{ organization: OrganizationRecord; siteId?: string }> {
  const organization = await createOrganization(deps.db, { title: input.title, ownerId: input.owner.id, emailDomains: input.emailDomains && normalizeEmailDomains(input.emailDomains) });
  if (!input.withDefaultSite) return { organization };
  const space = await createSpace(deps, {
    organizationId: organization.id,
    collectionId: null,
    title: 'Documentation',
    emoji: null,
    language: null,
    createdBy: input.owner.id,
    creator: input.owner,
    template: builtInTemplate('getting-started'),
  });
  const siteId = await createSite(deps.db, { organizationId: organization.id, type: 'basic', title: input.title, visibility: 'public', spaceIds: [space.id] }, input.owner.id);
  if (input.openapiUrl) await createOpenAPISpec(deps, organization.id, 'api', { url: input.openapiUrl });
  return { organization, siteId };
}
