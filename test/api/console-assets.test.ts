/**
 * Serving the console's files (src/api/console-assets.ts) through a real server: content
 * types, caching (hashed names immutable, the page revalidated by ETag), gzip, and no way out
 * of the built files, whatever the path says. Raw sockets where a client would normalise the
 * path first.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { sendRaw } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let host: string;

before(async () => {
  server = await startTestServer();
  host = new URL(server.url).host;
});

after(() => server.close());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(
  path: string,
  headers: Record<string, string> = {},
  agent?: Agent,
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${server.url}${path}`,
      { method, headers, agent, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.end();
  });
}

async function page(): Promise<{ html: string; script: string; style: string }> {
  const answer = await get('/console');
  const html = answer.body.toString('utf8');
  const script = /src="(\/console\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
  const style = /href="(\/console\/assets\/main-[A-Z0-9]+\.css)"/.exec(html)?.[1];
  assert.ok(script && style, html);
  return { html, script, style };
}

test('GET /console answers the page when asked', async () => {
  const answer = await get('/console');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(answer.headers['cache-control'], 'no-cache');
  assert.match(answer.headers.etag ?? '', /^"[\w-]{22}"$/);
  assert.match(String(answer.headers['content-security-policy']), /script-src 'self';/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.match(answer.body.toString('utf8'), /<div id="app">/);
  assert.equal((await get('/console/')).body.toString('utf8'), answer.body.toString('utf8'));
  assert.equal((await get('/console?x=1')).status, 200);
});

test('GET /console assets are typed, immutable and gzipped when the client accepts gzip', async () => {
  const { script, style } = await page();
  const plain = await get(script);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(Number(plain.headers['content-length']), plain.body.length);
  const zipped = await get(script, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(zipped.headers.vary, 'accept-encoding');
  assert.ok(zipped.body.length < plain.body.length / 2, `${zipped.body.length} of ${plain.body.length}`);
  assert.deepEqual(gunzipSync(zipped.body), plain.body);
  assert.equal((await get(style)).headers['content-type'], 'text/css; charset=utf-8');
});

test('GET /console answers 304 when the ETag matches', async () => {
  const { script } = await page();
  const first = await get('/console');
  const again = await get('/console', { 'if-none-match': first.headers.etag ?? '' });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  const asset = await get(script);
  assert.equal((await get(script, { 'if-none-match': asset.headers.etag ?? '' })).status, 304);
  assert.equal((await get(script, { 'if-none-match': '"other"' })).status, 200);
});

test('HEAD /console answers the headers without the body', async () => {
  const answer = await get('/console', {}, undefined, 'HEAD');
  assert.equal(answer.status, 200);
  assert.ok(Number(answer.headers['content-length']) > 0);
  assert.equal(answer.body.length, 0);
});

test('GET /console refuses with the venue 404 when the path leaves the built files', async () => {
  const paths = [
    '/console/../package.json',
    '/console/assets/../../package.json',
    '/console/assets/..%2f..%2fpackage.json',
    '/console/%2e%2e/%2e%2e/package.json',
    '/console/assets/%2e%2e%2f%2e%2e%2fsrc%2fmain.ts',
    '/console/assets/main.js%00.png',
    '/console/index.html',
    '/console/src/main.tsx',
    '/console/assets/',
    '/console//etc/passwd',
  ];
  for (const path of paths) {
    const answer = await sendRaw(
      server.url,
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(answer.status, 404, path);
    assert.equal(JSON.parse(answer.body).code, '40404', path);
    assert.doesNotMatch(answer.body, /"name"|import |<html/, path);
  }
});

test('POST /console answers the venue 404 when the method is not GET or HEAD', async () => {
  const answer = await sendRaw(
    server.url,
    `POST /console HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 2\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{}`,
  );
  assert.equal(answer.status, 404);
  assert.equal(JSON.parse(answer.body).code, '40404');
});

test('GET /console is served when a keep-alive connection asked the API before', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const time = await get('/api/v2/public/time', {}, agent);
    assert.equal(time.status, 200);
    const console = await get('/console', {}, agent);
    assert.equal(console.status, 200);
    assert.equal(console.headers['content-type'], 'text/html; charset=utf-8');
    const after = await get('/api/v2/public/time', {}, agent);
    assert.equal(JSON.parse(after.body.toString('utf8')).code, '00000');
  } finally {
    agent.destroy();
  }
});
