// The baseline for throughput figures: Koa answering a fixed JSON body, nothing else. The body is
// the file named as the first argument (the bench passes the same document Quire answers with),
// or a small object.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const app = new Koa();
const body: unknown = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : { object: 'organization', id: 'baseline', title: 'Bare Koa' };
app.use(async (ctx) => {
  ctx.body = body;
});
const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
  process.stderr.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
