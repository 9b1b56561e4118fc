import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { upsertConversation } from '../../storage/conversations.js';
import { corpusCounts } from '../../storage/issueClusters.js';
import { markSpaceDeleted } from '../../storage/spaceDeletion.js';
import { createActivities } from '../../workflows/activities/index.js';
import type { conversationProcessing } from '../../workflows/conversationProcessing.workflow.js';
import { spaceRestored } from '../../workflows/signals.js';
import type { spaceDeletion } from '../../workflows/spaceDeletion.workflow.js';
import { installRuntime, workflowBundle } from '../../workflows/worker.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { projectRoot } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * The workflows' timers as production sets them, in days, on Temporal's test server whose clock
 * skips forward whenever every job waits (@temporalio/testing; the server is the Java SDK's,
 * scripts/temporal-test-server.sh). The jobs run their real activities against a real server's
 * database and repositories. The integration with a real dev server (restarts, crashes, short
 * retentions) is spaceDeletion.test.ts's and resilience.test.ts's.
 */
const test = suite('workflow timers in days, on a clock that skips');
const taskQueue = 'timers';
const day = 86_400_000;
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let t: TestServer;
let fx: OrganizationFixture;

test.before(
  reportingErrors(async () => {
    // npm test fetches it first and names it; run alone, the suite asks the script.
    let path = process.env.QUIRE_TEMPORAL_TEST_SERVER;
    if (!path) {
      const launcher = spawnSync('bash', ['scripts/temporal-test-server.sh'], { cwd: projectRoot, encoding: 'utf8' });
      assert.is(launcher.status, 0, launcher.stderr);
      path = launcher.stdout.trim();
    }
    installRuntime();
    env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ db: t.server.db, repositories: t.server.repositories, dataDir: t.dataDir, jobs: t.server.jobs }),
    });
    running = worker.run();
  }),
);
test.after(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await t?.close();
});

/** A space deleted now, as the API records it (without the API's own job on the dev server). */
async function deletedSpace(title: string): Promise<{ id: string; deletedAt: string }> {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body;
  const deletedAt = new Date(await env.currentTimeMs()).toISOString();
  assert.ok(await markSpaceDeleted(t.server.db, space.id, deletedAt));
  return { id: space.id, deletedAt };
}

test('a deleted space is kept for the 7 days of its retention, then purged', async () => {
  const space = await deletedSpace('Retained');
  const handle = await env.client.workflow.start<typeof spaceDeletion>('spaceDeletion', {
    taskQueue,
    workflowId: `space-deletion:${space.id}`,
    args: [{ spaceId: space.id, deletedAt: space.deletedAt, retentionMs: 7 * day }],
  });
  await env.sleep(7 * day - 3_600_000);
  assert.is((await handle.describe()).status.name, 'RUNNING', 'still waiting an hour before the end of its retention');
  assert.ok(existsSync(spaceGitdir(t.dataDir, space.id)), 'its repository is kept meanwhile');
  assert.ok(await t.server.db.get('SELECT id FROM spaces WHERE id = ? AND deleted_at IS NOT NULL', [space.id]), 'and its row, marked deleted');
  assert.is(await handle.result(), 'purged');
  assert.ok((await env.currentTimeMs()) - Date.parse(space.deletedAt) >= 7 * day, 'purged once the 7 days were over');
  assert.not.ok(existsSync(spaceGitdir(t.dataDir, space.id)), 'its repository is gone');
  assert.is(await t.server.db.get('SELECT id FROM spaces WHERE id = ?', [space.id]), undefined, 'and its row');
});

test('a space restored on its third day ends its job without a purge, and outlives the 7 days', async () => {
  const space = await deletedSpace('Restored');
  const handle = await env.client.workflow.start<typeof spaceDeletion>('spaceDeletion', {
    taskQueue,
    workflowId: `space-deletion:${space.id}`,
    args: [{ spaceId: space.id, deletedAt: space.deletedAt, retentionMs: 7 * day }],
  });
  await env.sleep(3 * day);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: fx.admin.token })).status, 200);
  await handle.signal(spaceRestored, space.deletedAt);
  assert.is(await handle.result(), 'restored');
  await env.sleep(8 * day);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).status, 200);
  assert.ok(existsSync(spaceGitdir(t.dataDir, space.id)));
});

test("an organization's posts, once quiet for the production 10 seconds, are consolidated; the job then ends", async () => {
  const organizationId = fx.org.id;
  await t.server.db.transaction(async (tx) => {
    for (const [index, body] of ['The custom domain never verifies', 'Our custom domain shows a certificate error', 'SSO with Okta loops back to the sign-in page'].entries()) {
      await upsertConversation(tx, organizationId, {
        id: `quiet-${index}`,
        source: 'test',
        subject: body,
        parts: [{ type: 'message', role: 'user', body: `${body}. What should we do?` }],
        metadata: {},
      });
    }
  });
  const handle = await env.client.workflow.start<typeof conversationProcessing>('conversationProcessing', {
    taskQueue,
    workflowId: `conversations:${organizationId}`,
    args: [{ organizationId, consolidateWhenQuietMs: 10_000 }],
  });
  await handle.result();
  const corpus = await corpusCounts(t.server.db, organizationId, []);
  assert.ok(corpus.version > 0, 'the posts were processed');
  assert.is(corpus.consolidatedVersion, corpus.version, 'and consolidated once quiet');
});

test.run();
