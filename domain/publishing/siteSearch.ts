import type { SiteStructure, SiteSpaceRecord } from '../../storage/siteStructure.js';
import { invalidInput } from '../common/errors.js';

/** Where a site search looks (upstream's SiteSearchScope, and the deprecated `mode` forms it replaced). */
export type SiteSearchScope =
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' }
  | { mode: 'specific'; siteSpaceIds: string[] }
  | { mode: 'all' };

/**
 * The site spaces a search covers, in the site's order, from the structure the caller sees:
 * `default`, each section's default site space (the root's without sections), plus
 * `currentSiteSpace` (with GitBook's renderer's `restrictTo`, which no spec has yet: that site
 * space alone, or the others); `specific`, those named (each must be a site space the caller
 * sees: a 400 otherwise); `all`, every one.
 */
export function siteSpacesInScope(structure: SiteStructure, scope: SiteSearchScope): SiteSpaceRecord[] {
  const known = new Map(structure.siteSpaces.map((siteSpace) => [siteSpace.id, siteSpace]));
  const wanted = (ids: string[], field: string) => {
    for (const id of ids) if (!known.has(id)) throw invalidInput(`"${field}" names ${id}, which is not a site space of this site`);
    return new Set(ids);
  };
  if (scope.mode === 'all') return structure.siteSpaces;
  if (scope.mode === 'specific') {
    const ids = wanted(scope.siteSpaceIds, 'siteSpaceIds');
    return structure.siteSpaces.filter((siteSpace) => ids.has(siteSpace.id));
  }
  const current = scope.currentSiteSpace === undefined ? new Set<string>() : wanted([scope.currentSiteSpace], 'currentSiteSpace');
  if (scope.restrictTo === 'currentSiteSpace') return structure.siteSpaces.filter((siteSpace) => current.has(siteSpace.id));
  const others = scope.restrictTo === 'otherSiteSpaces';
  return structure.siteSpaces.filter((siteSpace) => (siteSpace.isDefault || current.has(siteSpace.id)) && !(others && current.has(siteSpace.id)));
}
