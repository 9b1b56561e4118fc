import type { Migration } from './index.js';

export const transferLeftovers: Migration = {
  version: 25,
  name: 'transfer-leftovers',
  // A space transferred to another organization before this version kept its places on the old
  // organization's sites, and the grants given there on it (or on a transferred collection) kept
  // raising the role of people who belong to both. They go now, as a transfer removes them: a
  // default site space whose space left hands over to the first one left beside it.
  sql: `
UPDATE site_spaces SET is_default = 1 WHERE id IN (
  SELECT (
    SELECT kept.id FROM site_spaces kept
      JOIN spaces kept_space ON kept_space.id = kept.space_id
      JOIN sites kept_site ON kept_site.id = kept.site_id
    WHERE kept.site_id = gone.site_id AND COALESCE(kept.section_id, '') = COALESCE(gone.section_id, '')
      AND kept_space.organization_id = kept_site.organization_id
    ORDER BY kept.position, kept.id LIMIT 1
  )
  FROM site_spaces gone
    JOIN spaces gone_space ON gone_space.id = gone.space_id
    JOIN sites gone_site ON gone_site.id = gone.site_id
  WHERE gone.is_default = 1 AND gone_space.organization_id <> gone_site.organization_id
);
DELETE FROM site_spaces WHERE id IN (
  SELECT site_spaces.id FROM site_spaces
    JOIN spaces ON spaces.id = site_spaces.space_id
    JOIN sites ON sites.id = site_spaces.site_id
  WHERE spaces.organization_id <> sites.organization_id
);
DELETE FROM content_grants WHERE target_kind = 'space'
  AND organization_id <> (SELECT organization_id FROM spaces WHERE spaces.id = content_grants.target_id);
DELETE FROM content_grants WHERE target_kind = 'collection'
  AND organization_id <> (SELECT organization_id FROM collections WHERE collections.id = content_grants.target_id);
`,
};
