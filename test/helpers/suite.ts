import type { Test } from 'uvu';
import { organizationWithMembers, type OrganizationFixture } from './fixtures.js';
import { startTestServer, type TestServer } from './server.js';

/** uvu reports a failing hook only as failed tests, without its error: this prints it. */
export function reportingErrors(hook: () => Promise<void>): () => Promise<void> {
  return async () => {
    try {
      await hook();
    } catch (error) {
      console.error('suite hook failed:', error);
      throw error;
    }
  };
}

/**
 * Registers the usual hooks of an API suite: before the tests, the real server and an
 * organization fixture (handed to `ready`); after them, the server stopped and its data removed.
 * `worker`: the server runs the Temporal worker too, for suites whose requests start jobs.
 */
export function withOrganization(test: Test, ready: (setup: { t: TestServer; fx: OrganizationFixture }) => void, options: { worker?: boolean } = {}): void {
  let server: TestServer | undefined;
  test.before(
    reportingErrors(async () => {
      server = await startTestServer({}, options);
      ready({ t: server, fx: await organizationWithMembers(server) });
    }),
  );
  test.after(async () => server?.close());
}
