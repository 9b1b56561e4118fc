import { ESLint } from 'eslint';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from '../helpers/processes.js';

const test = suite('the lint rules that keep workflow code deterministic');
const eslint = new ESLint({ cwd: projectRoot });
const problems = async (code: string, file = 'workflows/example.workflow.ts') => (await eslint.lintText(code, { filePath: `${projectRoot}${file}` }))[0]!.messages.map((message) => message.message);

test('a workflow may not import Node builtins, nor activities, storage or the engine as values', async () => {
  assert.ok((await problems("import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n")).some((m) => m.includes('sandbox')));
  assert.ok((await problems("import path from 'path';\nexport const join = path.join;\n")).some((m) => m.includes('sandbox')));
  assert.ok((await problems("import { createActivities } from './activities/index.js';\nexport const make = createActivities;\n")).some((m) => m.includes('types only')));
  assert.ok((await problems("import { openDatabase } from '../storage/db.js';\nexport const open = openDatabase;\n")).some((m) => m.includes('types only')));
  assert.ok((await problems('export const env = () => process.env.HOME;\n')).some((m) => m.includes('sandbox')));
});

test('activities imported as types, and the workflow API, are fine', async () => {
  const clean = "import { sleep } from '@temporalio/workflow';\nimport type { Activities } from './activities/index.js';\nexport type A = Activities;\nexport const wait = () => sleep(1);\n";
  assert.equal(await problems(clean), []);
});

test('the same imports outside workflow files are not flagged', async () => {
  assert.equal(await problems("import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n", 'workflows/activities/example.ts'), []);
});

test.run();
