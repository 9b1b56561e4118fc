/** The ids a swept route's path is filled with; any other parameter gets a made-up id. */
export interface PathIds {
  organizationId: string;
  spaceId: string;
  revisionId: string;
  collectionId: string;
  /** A custom hostname set on a site of the organization. */
  hostname?: string;
}

/** A route's path (`/spaces/:spaceId/...`) made concrete with a fixture's ids, under `/v1`. */
export function concretePath(path: string, ids: PathIds): string {
  return (
    '/v1' +
    path
      .replace(':organizationId', ids.organizationId)
      .replace(':spaceId', ids.spaceId)
      .replace(':revisionId', ids.revisionId)
      .replace(':collectionId', ids.collectionId)
      .replace(':hostname', ids.hostname ?? 'someId')
      .replace(/[:*][A-Za-z]+/g, 'someId')
      .replace(/\/$/, '')
  );
}

/** A site of the organization with a custom hostname, for the sweeps' `/custom-hostnames/:hostname` routes. */
export async function siteWithHostname(
  t: { call: (method: string, path: string, options: { token: string; body?: unknown }) => Promise<{ status: number; body: { id: string } }> },
  organizationId: string,
  adminToken: string,
  hostname: string,
): Promise<string> {
  const site = await t.call('POST', `/v1/orgs/${organizationId}/sites`, { token: adminToken, body: { title: 'Swept' } });
  const updated = await t.call('PATCH', `/v1/orgs/${organizationId}/sites/${site.body.id}`, { token: adminToken, body: { hostname } });
  if (updated.status !== 200) throw new Error(`the sweep's site could not take the hostname ${hostname}: ${updated.status}`);
  return hostname;
}
