/**
 * The fast path applies the server's head and request timeouts, as node:http does: a head or
 * a body that trickles in a byte at a time is answered 408 and its connection closed, however
 * often its bytes arrive (bytes no longer keep it alive). The server refuses connections over
 * BOURSE_HTTP_MAX_CONNECTIONS. Only closes and status codes are asserted, never durations.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { nodeEdge, type App } from '../../../src/api/app.ts';
import { installFastPath } from '../../../src/api/http1/fast-path.ts';
import { parseHttpLimits } from '../../../src/api/http1/timeouts.ts';
import { closeServer, listenOnLoopback } from '../../support/http.ts';
import { serverFor } from '../../support/server.ts';

const app: App = {
  serve: (_request, reply) => reply.send(200, '{"via":"fast"}'),
  handle(request, response) {
    nodeEdge(request, response).reply.send(200, '{"via":"node"}');
  },
};

/** A node:http server with the fast path, short timeouts, and a keep-alive longer than a byte's gap. */
async function shortTimeouts(t: TestContext): Promise<number> {
  const server: Server = createServer({ keepAlive: true }, (request, response) =>
    app.handle(request, response),
  );
  server.keepAliveTimeout = 1_000;
  server.headersTimeout = 300;
  server.requestTimeout = 600;
  const fastPath = installFastPath(server, app, 4096);
  const port = await listenOnLoopback(server);
  t.after(async () => {
    fastPath.closeAllConnections();
    await closeServer(server);
  });
  return port;
}

interface Trickle {
  closed: boolean;
  received: string;
}

/** Writes `bytes` one at a time, 40 ms apart, until they are all sent or the server closes. */
async function trickle(port: number, prefix: string, bytes: string): Promise<Trickle> {
  const socket: Socket = connect({ host: '127.0.0.1', port });
  const state: Trickle = { closed: false, received: '' };
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(prefix);
  for (const byte of bytes) {
    if (state.closed) break;
    socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  for (let wait = 0; wait < 100 && !state.closed; wait += 1) await new Promise((r) => setTimeout(r, 20));
  socket.destroy();
  return state;
}

test('fast path when a head trickles in past headersTimeout answers 408 and closes', async (t) => {
  const port = await shortTimeouts(t);
  // 150 bytes at 40 ms would take 6 s; each byte came well within the keep-alive timeout.
  const state = await trickle(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n', `X-Pad: ${'a'.repeat(150)}\r\n\r\n`);
  assert.equal(state.closed, true, 'the connection was closed');
  assert.match(state.received, /^HTTP\/1\.1 408 /);
  assert.doesNotMatch(state.received, /"via"/, 'the trickled request was never served');
});

test('fast path when a body trickles in past requestTimeout answers 408 and closes', async (t) => {
  const port = await shortTimeouts(t);
  const body = `{"pad":"${'b'.repeat(150)}"}`;
  const head = `POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const state = await trickle(port, head, body);
  assert.equal(state.closed, true);
  assert.match(state.received, /^HTTP\/1\.1 408 /);
  assert.doesNotMatch(state.received, /"via"/);
});

test('fast path when a request arrives whole is served as before', async (t) => {
  const port = await shortTimeouts(t);
  const state = await trickle(port, 'GET /whole HTTP/1.1\r\nHost: x\r\n\r\n', '');
  assert.match(state.received, /^HTTP\/1\.1 200 [\s\S]*"via":"fast"/);
});

test('server when more connections than BOURSE_HTTP_MAX_CONNECTIONS are open refuses the extra ones', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_HTTP_MAX_CONNECTIONS: '3' } });
  const { port } = new URL(server.url);
  const ask = async (): Promise<{ socket: Socket; answered: boolean }> => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    socket.on('error', () => undefined);
    const answered = await new Promise<boolean>((resolve) => {
      socket.once('data', () => resolve(true));
      socket.once('close', () => resolve(false));
      socket.write('GET /api/v2/public/time HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    t.after(() => socket.destroy());
    return { socket, answered };
  };
  const held = [await ask(), await ask(), await ask()];
  assert.deepEqual(
    held.map((connection) => connection.answered),
    [true, true, true],
  );
  assert.equal((await ask()).answered, false, 'the fourth connection is closed unanswered');
  held[0]?.socket.destroy();
  for (let wait = 0; wait < 100 && server.httpFastPath?.connectionCount !== 2; wait += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal((await ask()).answered, true, 'a place freed is taken again');
});

test('parseHttpLimits when given the environment reads the limits and refuses bad ones', () => {
  assert.deepEqual(parseHttpLimits({}), {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    maxConnections: 2048,
  });
  assert.deepEqual(
    parseHttpLimits({
      BOURSE_HTTP_HEADERS_TIMEOUT_MS: '500',
      BOURSE_HTTP_REQUEST_TIMEOUT_MS: '900',
      BOURSE_HTTP_MAX_CONNECTIONS: '7',
    }),
    { headersTimeoutMs: 500, requestTimeoutMs: 900, maxConnections: 7 },
  );
  assert.throws(() => parseHttpLimits({ BOURSE_HTTP_MAX_CONNECTIONS: '0' }), /BOURSE_HTTP_MAX_CONNECTIONS/);
  assert.throws(
    () => parseHttpLimits({ BOURSE_HTTP_HEADERS_TIMEOUT_MS: '900', BOURSE_HTTP_REQUEST_TIMEOUT_MS: '500' }),
    /BOURSE_HTTP_HEADERS_TIMEOUT_MS/,
  );
});
