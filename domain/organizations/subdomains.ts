import type { Queryable } from '../../storage/db.js';
import { findOrganizationByHostname, type OrganizationRecord } from '../../storage/organizations.js';
import { invalidInput, missing } from '../common/errors.js';

/** An organization's `hostname`: 3–32 lower-case letters, digits and dashes, neither first nor last a dash. */
export const subdomainPattern = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;

/** The organization holding a subdomain (its `hostname`), or 404: a subdomain nobody holds is free to take. */
export async function organizationOfSubdomain(db: Queryable, subdomain: string): Promise<OrganizationRecord> {
  if (!subdomainPattern.test(subdomain)) throw invalidInput(`"${subdomain}" is no subdomain: 3 to 32 lower-case letters, digits and dashes, not starting or ending with a dash`);
  const organization = await findOrganizationByHostname(db, subdomain);
  if (!organization) throw missing(`No organization holds the subdomain "${subdomain}"`);
  return organization;
}
