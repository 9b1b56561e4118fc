import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/postgresCluster.js';
import { assertErrorIs } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

// A PostgreSQL server of this suite's own, stopped as a crash would stop it (`pg_ctl stop -m
// immediate`) while writes are under way, then started again: requests answer 503 meanwhile,
// every write answered 2xx is there afterwards, and Quire serves again without a restart.
const test = suite('the database goes away and comes back');
let cluster: PostgresCluster;
let t: TestServer;
let admin: { token: string };
let orgId: string;

test.before(
  reportingErrors(async () => {
    cluster = await startPostgresCluster();
    await cluster.createDatabase('quire');
    t = await startTestServer({ databaseUrl: cluster.url('quire') });
    admin = await t.user();
    orgId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Outage' } })).body.id;
  }),
);
test.after(async () => {
  await t?.close();
  await cluster?.stop();
});

const unavailable = 'The database is unavailable: try again shortly';

test('a crash of PostgreSQL under writes: 503 while it is down, every acknowledged write kept, service resumes', async () => {
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let writing = true;
  const writers = Array.from({ length: 6 }, async (_, writer) => {
    for (let round = 0; writing; round += 1) {
      const answer = await t.call('POST', `/v1/orgs/${orgId}/collections`, { token: admin.token, body: { title: `w${writer}-${round}` } });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 201) acknowledged.push(answer.body.id);
      else assertErrorIs(answer, 503, unavailable);
      if (answer.status !== 201) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  await until('some writes to land', async () => acknowledged.length >= 20, 10_000);
  cluster.crash();
  const down = await t.call('GET', `/v1/orgs/${orgId}/collections`, { token: admin.token });
  assertErrorIs(down, 503, unavailable);
  await until('writers to meet the outage', async () => (statuses.get(503) ?? 0) >= 6, 10_000);
  cluster.start();
  await until('the service to answer again', async () => (await t.call('GET', `/v1/orgs/${orgId}/collections`, { token: admin.token })).status === 200, 15_000);
  const before = acknowledged.length;
  await until('writes to land again', async () => acknowledged.length >= before + 12, 10_000);
  writing = false;
  await Promise.all(writers);
  assert.equal([...statuses.keys()].sort(), [201, 503], `only 201 and 503 answered: ${JSON.stringify([...statuses])}`);

  const listed = new Set<string>();
  let page: string | undefined;
  do {
    const answer = await t.call('GET', `/v1/orgs/${orgId}/collections?limit=100${page ? `&page=${page}` : ''}`, { token: admin.token });
    assert.is(answer.status, 200);
    for (const item of answer.body.items as Array<{ id: string }>) listed.add(item.id);
    page = answer.body.next?.page;
  } while (page);
  const missing = acknowledged.filter((id) => !listed.has(id));
  assert.equal(missing, [], `${missing.length} of ${acknowledged.length} acknowledged collections lost`);
});

test.run();
