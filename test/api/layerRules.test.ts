import { ESLint } from 'eslint';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../helpers/processes.js';

const test = suite('the lint rules that keep the layers apart');
const eslint = new ESLint({ cwd: projectRoot });
const problems = async (code: string, file: string) => (await eslint.lintText(code, { filePath: `${projectRoot}${file}` }))[0]!.messages.map((message) => message.message);

const engineTypesProblem =
  "'../../engine/index.js' import is restricted from being used by a pattern. routes read content through the domain (domain/spaces: revisionPage, revisionLinks, …): from the engine they import types only";
const engineFaceProblem = (path: string) => `'${path}' import is restricted from being used by a pattern. the engine is used through engine/index.js: its internals and threads are its own business`;

test('a route file may not import another route file, nor use the engine beyond its types', async () => {
  assert.equal(await problems("import { spaceRoutes } from './spaces.js';\nexport const s = spaceRoutes;\n", 'api/routes/example.ts'), [
    "'./spaces.js' import is restricted from being used by a pattern. route files don’t import each other: shared reads belong in presenters, domain or storage",
  ]);
  assert.equal(await problems("import { commitChanges } from '../../engine/index.js';\nexport const c = commitChanges;\n", 'api/routes/example.ts'), [engineTypesProblem]);
  assert.equal(await problems("import { allPages } from '../../engine/index.js';\nexport const a = allPages;\n", 'api/routes/example.ts'), [engineTypesProblem]);
});

test('a route file reads storage but writes through domain commands', async () => {
  assert.equal(await problems("import { insertCollection } from '../../storage/collections.js';\nexport const i = insertCollection;\n", 'api/routes/example.ts'), [
    "'insertCollection' import from '../../storage/collections.js' is restricted from being used by a pattern. routes write through domain commands: from storage they only read",
  ]);
  for (const [name, module] of [
    ['updateSpace', 'spaces'],
    ['createToken', 'tokens'],
    ['requestReviewers', 'changeRequestReviews'],
    ['renumber', 'siteStructure'],
  ]) {
    assert.equal((await problems(`import { ${name} } from '../../storage/${module}.js';\nexport const w = ${name};\n`, 'api/routes/example.ts')).length, 1, name);
  }
  assert.equal(
    await problems(
      "import { findCollection, listCollectionsOfOrganization, type CollectionRecord } from '../../storage/collections.js';\nimport { recordedSpaceHeads } from '../../storage/spaceHeads.js';\nexport const r: unknown[] = [findCollection, listCollectionsOfOrganization, recordedSpaceHeads];\nexport type C = CollectionRecord;\n",
      'api/routes/example.ts',
    ),
    [],
  );
});

test('the admin commands read storage and the engine but write through domain commands', async () => {
  assert.equal(await problems("import { createToken } from '../../storage/tokens.js';\nexport const c = createToken;\n", 'api/cli/example.ts'), [
    "'createToken' import from '../../storage/tokens.js' is restricted from being used by a pattern. admin commands write through domain commands: from storage they only read",
  ]);
  assert.equal(await problems("import { commitChanges } from '../../engine/index.js';\nexport const c = commitChanges;\n", 'api/cli/example.ts'), [
    "'commitChanges' import from '../../engine/index.js' is restricted from being used by a pattern. admin commands write content through domain commands (domain/spaces: writeContent), never through the engine",
  ]);
  assert.equal(await problems("import { localSpaceRepositories } from '../../engine/index.js';\nexport const l = localSpaceRepositories;\n", 'api/cli/example.ts'), []);
  assert.equal(
    await problems(
      "import { listTokens } from '../../storage/tokens.js';\nimport { issueTokenByOperator } from '../../domain/organizations/index.js';\nexport const r = [listTokens, issueTokenByOperator];\n",
      'api/cli/example.ts',
    ),
    [],
  );
});

test('a project module is imported statically, where the layer rules see it', async () => {
  const message = "import this project's modules statically: the layer rules check static imports only";
  assert.equal(await problems("export const load = () => import('../../storage/collections.js');\n", 'api/routes/example.ts'), [message]);
  assert.equal(await problems('export const load = (name: string) => import(`../../engine/${name}.js`);\n', 'domain/spaces/example.ts'), [`${message}, and a computed module name escapes them all`]);
  // Packages may be loaded lazily; so may the worker, by the entry point that starts it.
  assert.equal(await problems("export const load = () => import('lowlight');\n", 'api/presenters/example.ts'), []);
  assert.equal(await problems("export const load = () => import('../workflows/worker.js');\n", 'api/main.ts'), []);
  assert.equal(await problems("export const load = () => import('./users.js');\n", 'storage/example.ts'), [message]);
});

test("a route file may use its table, domain commands and reads, and the engine's types", async () => {
  const clean =
    "import { RouteTable } from './table.js';\nimport { revisionPage, writeContent } from '../../domain/spaces/index.js';\nimport type { RevisionPage } from '../../engine/index.js';\nexport const all = [RouteTable, writeContent, revisionPage];\nexport type P = RevisionPage;\n";
  assert.equal(await problems(clean, 'api/routes/example.ts'), []);
});

test('outside the engine, code imports its face; inside, modules import each other', async () => {
  const inner = "import { buildTree } from '../../engine/internal/buildTree.js';\nexport const b = buildTree;\n";
  for (const file of ['domain/spaces/example.ts', 'workflows/activities/example.ts', 'api/cli/example.ts', 'api/presenters/example.ts']) {
    assert.equal(await problems(inner, file), [engineFaceProblem('../../engine/internal/buildTree.js')], file);
  }
  assert.equal(await problems("import { runInPool } from '../engine/runtime/workerPool.js';\nexport const r = runInPool;\n", 'scripts/example.ts'), [
    engineFaceProblem('../engine/runtime/workerPool.js'),
  ]);
  assert.equal(await problems("import { readRevision } from '../../engine/index.js';\nexport const r = readRevision;\n", 'domain/spaces/example.ts'), []);
  // Tests and benchmarks may reach the engine's internals.
  assert.equal(await problems(inner, 'test/engine/example.ts'), []);
  const face = 'import is restricted from being used by a pattern. inside the engine, import the module itself: engine/index.js is the face it shows the layers above';
  assert.equal(await problems("import { allPages } from './index.js';\nexport const a = allPages;\n", 'engine/example.ts'), [`'./index.js' ${face}`]);
  assert.equal(await problems("import { allPages } from '../index.js';\nexport const a = allPages;\n", 'engine/git/example.ts'), [`'../index.js' ${face}`]);
  assert.equal(await problems("import { allPages } from '../allPages.js';\nexport const a = allPages;\n", 'engine/git/example.ts'), []);
});

test('the domain imports neither the API nor the workflows: it starts jobs through its port', async () => {
  assert.equal(await problems("import { badRequest } from '../../api/errors.js';\nexport const b = badRequest;\n", 'domain/spaces/example.ts'), [
    "'../../api/errors.js' import is restricted from being used by a pattern. the domain knows nothing of HTTP: api/ calls it, not the other way round",
  ]);
  assert.equal(await problems("import type { JobClient } from '../../workflows/client.js';\nexport type J = JobClient;\n", 'domain/spaces/example.ts'), [
    "'../../workflows/client.js' import is restricted from being used by a pattern. the domain starts jobs through its Jobs port (domain/common/ports.ts), never through workflows/",
  ]);
  assert.equal(await problems("import type { Jobs } from '../common/ports.js';\nexport type J = Jobs;\n", 'domain/spaces/example.ts'), []);
});

const sqlProblem = 'SQL lives in storage/: call (or add) a storage function';

test('nothing outside storage/ runs SQL or opens a database driver', async () => {
  const update = "export const gather = (db: { run(sql: string): Promise<void> }) => db.run('UPDATE site_spaces SET section_id = NULL');\n";
  assert.equal(await problems(update, 'domain/sites/example.ts'), [sqlProblem]);
  const select = 'export const read = (db: { all(sql: string): Promise<unknown[]> }, table: string) => db.all(`\n  SELECT id FROM ${table}`);\n';
  assert.equal(await problems(select, 'api/routes/example.ts'), [sqlProblem]);
  assert.equal(await problems("import sqlite3 from 'sqlite3';\nexport const s = sqlite3;\n", 'workflows/example.ts'), [`'sqlite3' import is restricted from being used. ${sqlProblem}`]);
  assert.equal(await problems("import pg from 'pg';\nexport const p = pg;\n", 'domain/sites/example.ts'), [`'pg' import is restricted from being used. ${sqlProblem}`]);
  // Words that merely begin like SQL are prose; storage/ itself is where SQL belongs.
  assert.equal(await problems("export const label = 'DELETE /spaces/{id} (the write plus its job)';\n", 'bench/example.ts'), []);
  assert.equal(await problems(update, 'storage/example.ts'), []);
});

const faceProblem = (path: string) =>
  `'${path}' import is restricted from being used by a pattern. a domain capability is imported through its index.js: what it does not export there is its own business`;

test('code outside a capability reaches it only through its index.ts', async () => {
  const inner = "import { writeContent } from '../../domain/spaces/writeContent.js';\nexport const w = writeContent;\n";
  assert.equal(await problems(inner, 'api/routes/example.ts'), [faceProblem('../../domain/spaces/writeContent.js')]);
  assert.equal(await problems(inner, 'workflows/activities/example.ts'), [faceProblem('../../domain/spaces/writeContent.js')]);
  assert.equal(await problems("import { applyTemplate } from '../spaces/applyTemplate.js';\nexport const a = applyTemplate;\n", 'domain/changeRequests/example.ts'), [
    faceProblem('../spaces/applyTemplate.js'),
  ]);
  // Through the face, from a sibling file of the same capability, or into domain/common: all fine.
  assert.equal(await problems("import { writeContent } from '../../domain/spaces/index.js';\nexport const w = writeContent;\n", 'api/routes/example.ts'), []);
  assert.equal(await problems("import { applyTemplate } from './applyTemplate.js';\nexport const a = applyTemplate;\n", 'domain/spaces/example.ts'), []);
  assert.equal(await problems("import { log } from '../../domain/common/log.js';\nexport const l = log;\n", 'api/routes/example.ts'), []);
});

test('the engine, the domain and storage never read the environment; config/ reads nothing of the project', async () => {
  const settings = "'process.env' is restricted from being used. settings are read once, in config/ (docs/configuration.md): take the value as an argument or from configure…() at start";
  for (const file of ['engine/example.ts', 'domain/spaces/example.ts', 'storage/example.ts']) {
    assert.equal(await problems('export const budget = Number(process.env.QUIRE_CACHE_MB);\n', file), [settings], file);
  }
  assert.equal(await problems('export const budget = 48;\n', 'engine/example.ts'), []);
  assert.equal(await problems("import { readBranch } from '../engine/readBranch.js';\nexport const r = readBranch;\n", 'config/example.ts'), [
    "'../engine/readBranch.js' import is restricted from being used by a pattern. config/ reads the environment and nothing of the project",
  ]);
});

test.run();
