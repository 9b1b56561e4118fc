import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { configFromEnv } from '../../api/config.js';
import { pinnedCliVersion } from '../../workflows/runtime/temporalCli.js';
import { projectRoot } from '../helpers/processes.js';
import { definitions } from '../../config/index.js';

// deploy/scale-out.yml and deploy/Dockerfile can't be run here (no Docker): what they say is
// checked against the code instead — every setting is one Quire reads and docs/configuration.md documents,
// the services name each other as the settings need, and each node's settings are accepted by
// the same configuration parser `npm start` runs.
const test = suite('deploy/scale-out.yml agrees with the code and docs/configuration.md');

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}
const compose = parse(read('deploy/scale-out.yml')) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const quireNodes = Object.entries(services).filter(([, service]) => service.image === 'quire:local');
const dockerfile = read('deploy/Dockerfile');
const dataDir = /^ENV .*\bDATA_DIR=(\S+)/m.exec(dockerfile)?.[1];
const port = /^ENV .*\bPORT=(\d+)/m.exec(dockerfile)?.[1];

/** The settings the code reads from the environment (api/config.ts, workflows/settings.ts). */
const settingsRead = new Set(Object.keys(definitions));

test('the nodes: one image built from the Dockerfile, storages s1 and s2 on volumes of their own at its DATA_DIR, one router', () => {
  assert.equal(
    quireNodes.map(([name]) => name),
    ['node-a', 'node-b', 'router'],
  );
  assert.equal(services['node-a']!.build, { context: '..', dockerfile: 'deploy/Dockerfile' });
  assert.ok(dataDir && port, 'the Dockerfile sets DATA_DIR and PORT');
  const storages = quireNodes.map(([, service]) => service.environment!.QUIRE_STORAGE);
  assert.equal(storages, ['s1', 's2', 'none']);
  for (const [name, service] of quireNodes.filter(([, service]) => service.environment!.QUIRE_STORAGE !== 'none')) {
    const volume = service.volumes?.find((mount) => mount.endsWith(`:${dataDir}`))?.split(':')[0];
    assert.ok(volume && volume in compose.volumes, `${name} keeps its storage on a named volume at ${dataDir}`);
  }
  const volumes = quireNodes.flatMap(([, service]) => service.volumes ?? []);
  assert.is(new Set(volumes).size, volumes.length, 'no two nodes share a volume');
  assert.ok(
    services.router!.ports?.some((mapping) => mapping.endsWith(`:${port}`)),
    'the router is the address clients use',
  );
});

test('every node setting is one Quire reads and docs/configuration.md documents, and each node’s settings start Quire', () => {
  const configuration = read('docs/configuration.md');
  for (const [name, service] of quireNodes) {
    for (const setting of Object.keys(service.environment ?? {})) {
      assert.ok(settingsRead.has(setting), `${name}: ${setting} is read by the code`);
      assert.ok(configuration.includes(`| \`${setting}\``), `${name}: ${setting} is in docs/configuration.md`);
    }
    const env = Object.fromEntries(Object.entries(service.environment!).map(([key, value]) => [key, value.replace(/^\$\{\w+:-\}$/, '')]));
    const config = configFromEnv({ ...env, DATA_DIR: dataDir, PORT: port });
    assert.is(config.port, Number(port));
    assert.is(new URL(env.QUIRE_NODE_URL!).host, `${name}:${port}`, `${name} names itself as the others reach it`);
  }
  const publicUrls = new Set(quireNodes.map(([, service]) => service.environment!.QUIRE_PUBLIC_URL));
  assert.is(publicUrls.size, 1, 'one public address for the instance');
});

test('the database and Temporal are the services named', () => {
  const postgres = services.postgres!;
  assert.match(postgres.image!, /^postgres:15/);
  const temporal = services.temporal!;
  assert.is(temporal.image, `temporalio/temporal:${pinnedCliVersion.slice(1)}`, 'the Temporal version the project builds');
  const devCompose = parse(read('temporal-dev.yml')) as { services: { temporal: Service } };
  assert.equal(temporal.command, devCompose.services.temporal.command, 'the dev server as temporal-dev.yml runs it (its arguments are tested there)');
  for (const [name, service] of quireNodes) {
    const url = new URL(service.environment!.QUIRE_DATABASE_URL!);
    assert.is(url.hostname, 'postgres', name);
    assert.equal(
      [url.username, url.password, url.pathname.slice(1)],
      [postgres.environment!.POSTGRES_USER, postgres.environment!.POSTGRES_PASSWORD, postgres.environment!.POSTGRES_DB],
      `${name} signs in as the database service is set up`,
    );
    assert.is(service.environment!.TEMPORAL_ADDRESS, 'temporal:7233', name);
  }
});

test('the Dockerfile: Node 20, Debian’s git and Chromium, npm ci, built, started as npm start', () => {
  assert.match(dockerfile, /^FROM node:20-/m);
  assert.match(dockerfile, /apt-get install[^\n]* git chromium/);
  assert.match(dockerfile, /PUPPETEER_EXECUTABLE_PATH=\/usr\/bin\/chromium/);
  assert.match(dockerfile, /^RUN npm ci$/m);
  assert.match(dockerfile, /^CMD \["npm", "start"\]$/m);
  const ignored = read('.dockerignore').split('\n');
  for (const folder of ['node_modules/', 'dist/', 'data/']) assert.ok(ignored.includes(folder), `${folder} stays out of the image`);
});

test.run();
