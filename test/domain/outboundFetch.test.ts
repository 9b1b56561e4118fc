import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isPublicAddress, outboundFetch, OutboundFetchError } from '../../domain/common/outboundFetch.js';

const test = suite('outbound fetch guard');
const servers: Server[] = [];

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function refusal(promise: Promise<unknown>): Promise<OutboundFetchError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, OutboundFetchError);
    return error as OutboundFetchError;
  }
  throw new Error('the fetch was expected to be refused');
}

test('addresses: only public unicast passes', () => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '224.0.0.1']) {
    assert.not.ok(isPublicAddress(address), address);
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) assert.ok(isPublicAddress(address), address);
});

test('a loopback URL is refused without the opt-in, fetched with it', async () => {
  const base = await serve((_req, res) => res.end('hello'));
  const error = await refusal(outboundFetch(`${base}/x`, { allowPrivate: false }));
  assert.is(error.code, 'address');
  assert.is(error.message, `${new URL(base).host} is not a public address (loopback, private, link-local or otherwise non-public): refused (QUIRE_ALLOW_PRIVATE_FETCH=1 lifts this)`);
  const answer = await outboundFetch(`${base}/x`, { allowPrivate: true });
  assert.is(answer.body.toString(), 'hello');
  assert.is(answer.status, 200);
});

test('a host name that resolves to loopback is refused after DNS resolution', async () => {
  const base = await serve((_req, res) => res.end('hello'));
  const port = new URL(base).port;
  const error = await refusal(outboundFetch(`http://localhost:${port}/`, { allowPrivate: false }));
  assert.is(error.code, 'address');
  assert.match(error.message, /^localhost:\d+ is not a public address \(loopback/);
  assert.not.match(error.message, /127\.0\.0\.1|::1/, 'what the name resolved to stays on the server');
});

test('a failed connection is said without system details: refused, or unreachable', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const error = await refusal(outboundFetch(`http://127.0.0.1:${port}/`, { allowPrivate: true }));
  assert.is(error.code, 'network');
  assert.is(error.message, `127.0.0.1:${port} refused the connection`);
});

test('a redirect to a private address is refused; redirects are followed up to 5', async () => {
  const target = await serve((_req, res) => res.end('secret'));
  const redirector = await serve((req, res) => {
    const n = Number(req.url?.slice(1));
    if (req.url === '/private') res.writeHead(302, { location: 'http://10.0.0.1/metadata' }).end();
    else if (req.url === '/metadata') res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (req.url === '/loopback6') res.writeHead(307, { location: `http://[::1]:${new URL(target).port}/` }).end();
    else if (n > 0) res.writeHead(302, { location: `/${n - 1}` }).end();
    else res.writeHead(302, { location: `${target}/` }).end();
  });
  // The rule stays on; only the test's own redirector (127.0.0.1) is let through, so each refusal
  // happens on the redirect hop.
  const onlyRedirector = { allowPrivate: false, allowAddress: (address: string) => address === '127.0.0.1' };
  for (const [path, address] of [
    ['/private', '10.0.0.1'],
    ['/metadata', '169.254.169.254'],
    ['/loopback6', '::1'],
  ] as const) {
    const error = await refusal(outboundFetch(`${redirector}${path}`, onlyRedirector));
    assert.is(error.code, 'address', path);
    assert.match(error.message, ` is not a public address (loopback, private, link-local or otherwise non-public): refused`);
    assert.ok(error.message.startsWith(address === '::1' ? '[::1]:' : address), `the redirect's own host is named: ${error.message}`);
  }
  assert.is((await outboundFetch(`${redirector}/0`, onlyRedirector)).body.toString(), 'secret');
  const followed = await outboundFetch(`${redirector}/4`, { allowPrivate: true });
  assert.is(followed.body.toString(), 'secret');
  assert.is(followed.url, `${target}/`);
  const tooMany = await refusal(outboundFetch(`${redirector}/5`, { allowPrivate: true }));
  assert.is(tooMany.code, 'redirects');
  assert.is(tooMany.message, `${redirector}/5 redirected more than 5 times`);
});

test('a slow server is timed out', async () => {
  const base = await serve((_req, res) => {
    res.writeHead(200);
    res.write('partial');
    // never ends
  });
  const error = await refusal(outboundFetch(`${base}/slow`, { allowPrivate: true, totalTimeoutMs: 300 }));
  assert.is(error.code, 'timeout');
  assert.is(error.message, `Fetching ${base}/slow took more than 300 ms`);
});

test('an oversized body is cut, declared or streamed', async () => {
  const base = await serve((req, res) => {
    if (req.url === '/declared') res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
    else {
      res.writeHead(200);
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
      res.end();
    }
  });
  for (const path of ['/declared', '/streamed']) {
    const error = await refusal(outboundFetch(`${base}${path}`, { allowPrivate: true, maxBytes: 2000 }));
    assert.is(error.code, 'too_large');
    assert.is(error.message, `${base}${path} is larger than 2000 bytes`);
  }
});

test('a non-http scheme is refused, as is a non-2xx answer', async () => {
  for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/']) {
    const error = await refusal(outboundFetch(url, { allowPrivate: true }));
    assert.is(error.code, 'scheme');
    assert.is(error.message, `Only http and https URLs can be fetched, not ${new URL(url).protocol.slice(0, -1)} (${url})`);
  }
  const base = await serve((_req, res) => res.writeHead(404).end('nope'));
  const error = await refusal(outboundFetch(`${base}/missing`, { allowPrivate: true }));
  assert.is(error.code, 'status');
  assert.is(error.status, 404);
  assert.is(error.message, `${base}/missing answered HTTP 404`);
});

test('a connection that never gets going (TLS never answered) hits the connect timeout, not the total one', async () => {
  const sockets: Socket[] = [];
  const silent = createTcpServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/spec.yaml`;
  try {
    const error = await refusal(outboundFetch(url, { allowPrivate: true, connectTimeoutMs: 200, totalTimeoutMs: 10_000 }));
    assert.is(error.code, 'timeout');
    assert.is(error.message, `Connecting to ${new URL(url).host} took more than 200 ms`);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test.run();
