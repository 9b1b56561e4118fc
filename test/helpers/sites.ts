import * as assert from 'uvu/assert';
import type { OrganizationFixture } from './fixtures.js';
import type { TestServer } from './server.js';

/** Creating spaces and published sites through the API, as an organization's admin. */
export function siteMaker(setup: () => { t: TestServer; fx: OrganizationFixture }) {
  return {
    /** A space made from a built-in template (the getting-started guide unless named). */
    async space(title: string, template = 'getting-started') {
      const { t, fx } = setup();
      const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: template } } });
      assert.is(created.status, 201);
      return created.body as { id: string; revision: string };
    },
    /** A site showing the spaces, published. */
    async publishedSite(title: string, spaceIds: string[], visibility = 'public') {
      const { t, fx } = setup();
      const sites = `/v1/orgs/${fx.org.id}/sites`;
      const created = await t.call('POST', sites, { token: fx.admin.token, body: { title, spaces: spaceIds, visibility } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      const published = await t.call('POST', `${sites}/${created.body.id}/publish`, { token: fx.admin.token });
      assert.is(published.status, 200, JSON.stringify(published.body));
      return published.body as { id: string; urls: { published: string } };
    },
  };
}
