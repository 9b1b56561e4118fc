// The routes of a custom hostname (`/custom-hostnames/:hostname`): the site it is set on decides.
import type { MemberRole } from '../../storage/members.js';
import { findSiteByHostname } from '../../storage/sites.js';
import { authenticate } from '../auth/index.js';
import { HttpError, notFound } from '../errors.js';
import { inSite } from './organization.js';
import type { Policy } from './policy.js';

/**
 * The role `role` on the site the path's hostname is set on (as `inSite` on that site's own
 * path). A hostname no site has, or a site the caller is no member of, is the same 404.
 */
export function onCustomHostname(role: MemberRole): Policy {
  const onSite = inSite(role);
  return {
    rule: `${onSite.rule}, on the site the hostname is set on`,
    ...(onSite.scope ? { scope: onSite.scope } : {}),
    check: async (ctx, next) => {
      // Who calls first: without a token, a 401 whatever the hostname.
      await authenticate(ctx);
      const hostname = String(ctx.params.hostname ?? '').toLowerCase();
      const unknown = () => notFound(`No site has the custom hostname "${hostname}"`);
      const site = await findSiteByHostname(ctx.db, hostname);
      if (!site) throw unknown();
      ctx.params.organizationId = site.organizationId;
      ctx.params.siteId = site.id;
      try {
        return await onSite.check(ctx, next);
      } catch (error) {
        // Not a member: the hostname's site stays unknown to them, its organization unnamed.
        if (error instanceof HttpError && error.status === 404 && !ctx.state.role) throw unknown();
        throw error;
      }
    },
  };
}
