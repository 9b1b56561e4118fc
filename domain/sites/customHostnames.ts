import { Resolver, lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Queryable } from '../../storage/db.js';
import { findHostnameCheck, findSiteByHostname, saveHostnameCheck, updateSite, type SiteRecord } from '../../storage/sites.js';
import { missing } from '../common/errors.js';
import type { ContentDeps } from '../common/deps.js';
import { integrations } from '../common/integrations.js';
import { log } from '../common/log.js';
import { announceSiteChange } from './sites.js';

/**
 * Where a custom hostname points, as 0.202.0's `CustomHostnameStatus` says it: `live` when DNS
 * sends it to this Quire (a CNAME to Quire's own host, or an address Quire's host has), then
 * Quire serves the site there; `dns_wrong_cname` when it points elsewhere; `dns_no_cname` when
 * DNS knows no record of it; `internal_error` when DNS could not be asked. Certificates are the
 * operator's reverse proxy's, never Quire's (docs/sites.md, "Custom hostnames").
 */
export type HostnameStatus = 'live' | 'dns_wrong_cname' | 'dns_no_cname' | 'internal_error';

export interface CustomHostname {
  hostname: string;
  site: SiteRecord;
  status: HostnameStatus;
  checkedAt: string;
}

const sameHost = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');
const absent = (error: unknown) => ['ENODATA', 'ENOTFOUND', 'NODATA', 'NOTFOUND'].includes((error as { code?: string }).code ?? '');

/** Records of one type, none when DNS has none. */
async function records(ask: () => Promise<string[]>): Promise<string[]> {
  try {
    return await ask();
  } catch (error) {
    if (absent(error)) return [];
    throw error;
  }
}

/** Asks DNS (QUIRE_DNS_SERVERS, or the system's name servers) where `hostname` points, against where `quireHost` is. */
export async function checkHostnameTarget(hostname: string, quireHost: string): Promise<HostnameStatus> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  const servers = integrations().dnsServers;
  if (servers) resolver.setServers(servers);
  try {
    const aliases = await records(() => resolver.resolveCname(hostname));
    if (aliases.some((alias) => sameHost(alias, quireHost))) return 'live';
    const addresses = [...(await records(() => resolver.resolve4(hostname))), ...(await records(() => resolver.resolve6(hostname)))];
    if (addresses.length === 0) return aliases.length > 0 ? 'dns_wrong_cname' : 'dns_no_cname';
    const ours = isIP(quireHost) ? [quireHost] : (await lookup(quireHost, { all: true })).map((found) => found.address);
    return addresses.some((address) => ours.includes(address)) ? 'live' : 'dns_wrong_cname';
  } catch (error) {
    log.warn('DNS could not say where a custom hostname points', { hostname, error: (error as Error).message });
    return 'internal_error';
  }
}

/** The site a custom hostname is set on, or 404. */
export async function siteOfHostname(db: Queryable, hostname: string): Promise<SiteRecord> {
  const site = await findSiteByHostname(db, hostname.toLowerCase());
  if (!site) throw missing(`No site has the custom hostname "${hostname}"`);
  return site;
}

/** A site's custom hostname with where it points: as DNS said when last asked, asked now the first time. */
export async function readCustomHostname(db: Queryable, site: SiteRecord, quireHost: string): Promise<CustomHostname> {
  const hostname = site.hostname!;
  const checked = await findHostnameCheck(db, site.id, hostname);
  if (checked) return { hostname, site, status: checked.status as HostnameStatus, checkedAt: checked.checkedAt };
  return revalidateCustomHostname(db, site, quireHost);
}

/** Asks DNS again where the site's custom hostname points, and keeps the answer. */
export async function revalidateCustomHostname(db: Queryable, site: SiteRecord, quireHost: string): Promise<CustomHostname> {
  const hostname = site.hostname!;
  const status = await checkHostnameTarget(hostname, quireHost);
  await saveHostnameCheck(db, site.id, hostname, status);
  const checked = (await findHostnameCheck(db, site.id, hostname))!;
  return { hostname, site, status, checkedAt: checked.checkedAt };
}

/** Takes the custom hostname off its site: the site is read at this server's own address again. */
export async function removeCustomHostname(deps: Pick<ContentDeps, 'db' | 'jobs'>, site: SiteRecord): Promise<void> {
  await updateSite(deps.db, site.id, { hostname: null });
  announceSiteChange(deps, site.id);
}
