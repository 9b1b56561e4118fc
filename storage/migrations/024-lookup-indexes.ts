import type { Migration } from './index.js';

export const lookupIndexes: Migration = {
  version: 24,
  name: 'lookup-indexes',
  // A custom domain's site was found by reading every site (findSiteByHostname, on each URL
  // lookup by hostname: 15 ms at 100,000 sites on PostgreSQL). The site tables' foreign keys had no
  // index of their own, so deleting a section, group or site read all the rows that could point at
  // it (48 ms to delete a site among 300,000 site spaces). A space's own comments (outside change
  // requests) are found by IS NULL, which PostgreSQL's btree matches but doesn't count as an
  // equality for the order after it: it sorted every comment of the space for each page listed
  // (11.3 → 5.7 ms a page of 20 among 10,000, the rest its count).
  sql: `
CREATE INDEX sites_by_hostname ON sites (hostname, created_at, id) WHERE hostname IS NOT NULL;
CREATE INDEX site_spaces_by_section ON site_spaces (section_id) WHERE section_id IS NOT NULL;
CREATE INDEX site_sections_by_group ON site_sections (group_id) WHERE group_id IS NOT NULL;
CREATE INDEX site_section_groups_by_parent ON site_section_groups (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX comments_of_space ON comments (space_id, posted_at, id) WHERE change_request_id IS NULL;
`,
};
