// The baseline for throughput figures: Koa answering fixed bytes, nothing else. The bytes are the
// file named as the first argument (the bench passes the very document Quire answers with), or a
// small object, encoded once at start: Quire serves its cached answers pre-encoded too, so neither
// side pays for JSON.stringify per request.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const app = new Koa();
const bytes = process.argv[2] ? readFileSync(process.argv[2]) : Buffer.from(JSON.stringify({ object: 'organization', id: 'baseline', title: 'Bare Koa' }));
app.use(async (ctx) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = bytes;
});
const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
  process.stderr.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
