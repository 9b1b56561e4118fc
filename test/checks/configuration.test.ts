import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, definitions, readSettings, type SettingName } from '../../config/index.js';
import { configurationDoc } from '../../scripts/configuration-doc.js';
import { projectRoot } from '../helpers/processes.js';

// One configuration, read once: every setting parsed at start, a bad value refused naming its
// variable and what it accepts (QUIRE_CACHE_MB=48MB once made every cache comparison false, so
// nothing was ever evicted), and docs/configuration.md written from the same table.
const test = suite('configuration: read once, refused when wrong');
const scratch = mkdtempSync(path.join(tmpdir(), 'quire-config-'));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    readSettings(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
};

test('docs/configuration.md is the settings table’s own (npm run docs:configuration)', () => {
  assert.is(readFileSync(path.join(projectRoot, 'docs/configuration.md'), 'utf8'), configurationDoc());
});

test('unset, every setting takes its default; an empty variable is an unset one', () => {
  const settings = readSettings({});
  assert.equal([settings.PORT, settings.QUIRE_CACHE_MB, settings.QUIRE_SPACE_RETENTION, settings.QUIRE_RATE_LIMIT], [3000, 48, 7 * 86_400_000, { requests: 6000, windowMs: 60_000 }]);
  assert.is(readSettings({ QUIRE_CACHE_MB: '' }).QUIRE_CACHE_MB, 48);
  assert.is(readSettings({ QUIRE_BOOTSTRAP_TOKEN: '' }).QUIRE_BOOTSTRAP_TOKEN, undefined);
});

test('each number, duration, choice, URL and secret set to garbage is refused, naming the variable and what it accepts', () => {
  const garbage: Array<[SettingName, string]> = [];
  for (const [name, definition] of Object.entries(definitions) as Array<[SettingName, (typeof definitions)[SettingName]]>) {
    if (definition.parser.accepts === 'any text') continue;
    garbage.push([name, '48MB of garbage']);
  }
  assert.ok(garbage.length >= 30, `${garbage.length} settings checked`);
  for (const [name, value] of garbage) {
    const message = refusal({ [name]: value });
    assert.ok(message.includes(`${name}="${value}": it must be ${definitions[name].parser.accepts}`), `${name}: ${message}`);
  }
  // All at once: every one of them named in the one refusal.
  const all = refusal(Object.fromEntries(garbage));
  for (const [name] of garbage) assert.ok(all.includes(`${name}=`), `${name} is named among the others`);
});

test('settings that only go together are refused apart', () => {
  assert.match(refusal({ QUIRE_STORAGE: 's1' }), 'QUIRE_STORAGE needs QUIRE_DATABASE_URL');
  assert.match(refusal({ QUIRE_RENDERER_URL: 'http://renderer.internal' }), 'QUIRE_RENDERER_URL and QUIRE_RENDERER_SECRET go together');
  assert.match(refusal({ QUIRE_TRANSLATOR: 'libretranslate' }), 'QUIRE_TRANSLATOR=libretranslate needs QUIRE_LIBRETRANSLATE_URL');
  assert.match(refusal({ QUIRE_TRANSLATOR: 'openai' }), 'QUIRE_TRANSLATOR=openai needs QUIRE_OPENAI_URL');
  assert.match(refusal({ QUIRE_OIDC_ISSUER: 'https://id.example.com', QUIRE_OIDC_CLIENT_ID: 'quire' }), 'QUIRE_OIDC_ISSUER, QUIRE_OIDC_CLIENT_ID and QUIRE_OIDC_CLIENT_SECRET go together');
  assert.is(refusal({ QUIRE_RENDERER_URL: 'http://renderer.internal', QUIRE_RENDERER_SECRET: 'shared' }), '');
});

test('QUIRE_CACHE_MB=48MB npm start is refused at start, naming it; nothing is served', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(scratch, 'data'), PORT: '0', HOST: '127.0.0.1', QUIRE_CACHE_MB: '48MB', QUIRE_TEMPORAL_PORT: '0', QUIRE_TEMPORAL_UI_PORT: '0' };
  delete env.QUIRE_WORKFLOW_BUNDLE;
  const child = spawn('npm', ['start'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.is.not(code, 0, output);
  assert.match(output, 'QUIRE_CACHE_MB=\\"48MB\\": it must be a whole number of megabytes (0 or more)');
  assert.not.match(output, 'Quire is ready');
});

test.run();
