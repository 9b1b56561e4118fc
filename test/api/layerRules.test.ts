import { ESLint } from 'eslint';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../helpers/processes.js';

const test = suite('the lint rules that keep the layers apart');
const eslint = new ESLint({ cwd: projectRoot });
const problems = async (code: string, file: string) => (await eslint.lintText(code, { filePath: `${projectRoot}${file}` }))[0]!.messages.map((message) => message.message);

test('a route file may not import another route file, nor write through the engine', async () => {
  assert.equal(await problems("import { spaceRoutes } from './spaces.js';\nexport const s = spaceRoutes;\n", 'api/routes/example.ts'), [
    "'./spaces.js' import is restricted from being used by a pattern. route files don’t import each other: shared reads belong in presenters, domain or storage",
  ]);
  assert.equal(await problems("import { commitChanges } from '../../engine/commitChanges.js';\nexport const c = commitChanges;\n", 'api/routes/example.ts'), [
    "'../../engine/commitChanges.js' import is restricted from being used by a pattern. routes write content through domain commands (domain/spaces: writeContent), never through the engine",
  ]);
});

test('a route file may use its table, domain commands and engine reads', async () => {
  const clean =
    "import { RouteTable } from './table.js';\nimport { writeContent } from '../../domain/spaces/index.js';\nimport { findPageById } from '../../engine/findPage.js';\nexport const all = [RouteTable, writeContent, findPageById];\n";
  assert.equal(await problems(clean, 'api/routes/example.ts'), []);
});

test('domain commands know nothing of the API', async () => {
  assert.equal(await problems("import { badRequest } from '../api/errors.js';\nexport const b = badRequest;\n", 'domain/example.ts'), [
    "'../api/errors.js' import is restricted from being used by a pattern.",
  ]);
});

test.run();
