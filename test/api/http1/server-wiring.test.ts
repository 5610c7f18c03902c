/**
 * The server serves plain requests through the HTTP/1.1 fast path unless
 * BOURSE_HTTP_FAST_PATH is off, and the answers are the same either way.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import test from 'node:test';
import { serverFor, type TestServer } from '../../support/server.ts';

/** Sends one plain keep-alive request and reads its answer; the connection stays open until `close`. */
async function plainRequest(server: TestServer, path: string): Promise<{ text: string; close(): void }> {
  const { port } = new URL(server.url);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  const text = await new Promise<string>((resolve, reject) => {
    let received = '';
    const timer = setTimeout(() => reject(new Error('no answer')), 5000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const split = received.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? -1);
      if (split >= 0 && received.length >= split + 4 + length) {
        clearTimeout(timer);
        resolve(received);
      }
    });
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
  return { text, close: () => socket.destroy() };
}

/** The answer without what changes from one request to the next (Date, requestTime). */
function stable(text: string): string {
  return text.replace(/^Date: .*$/m, 'Date: -').replace(/"requestTime":\d+/, '"requestTime":0');
}

test('server when the fast path is on serves a plain request through it, with node:http`s answer', async (t) => {
  const fast = await serverFor(t);
  const node = await serverFor(t, { env: { BOURSE_HTTP_FAST_PATH: 'false' } });
  assert.equal(node.httpFastPath, null);
  const viaFast = await plainRequest(fast, '/api/v2/public/no-such-path');
  assert.equal(fast.httpFastPath?.connectionCount, 1);
  viaFast.close();
  const viaNode = await plainRequest(node, '/api/v2/public/no-such-path');
  viaNode.close();
  assert.match(viaFast.text, /^HTTP\/1\.1 404 Not Found\r\n/);
  assert.equal(stable(viaFast.text), stable(viaNode.text));
});

test('server when clients send as fetch and node:http`s agent do serves them through the fast path', async (t) => {
  const server = await serverFor(t);
  const viaFetch = await fetch(`${server.url}/api/v2/public/time`, { signal: AbortSignal.timeout(5000) });
  assert.equal(viaFetch.status, 200);
  await viaFetch.text();
  assert.equal(
    server.httpFastPath?.connectionCount,
    1,
    'fetch (undici) keeps its connection on the fast path',
  );
  const agent = new Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  const status = await new Promise<number>((resolve, reject) => {
    const request = httpRequest(`${server.url}/api/v2/public/time`, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
  assert.equal(status, 200);
  assert.equal(server.httpFastPath?.connectionCount, 2, 'node:http`s keep-alive agent too');
});
