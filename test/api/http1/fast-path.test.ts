/**
 * The HTTP/1.1 fast path as a transport, over raw sockets on loopback: a node:http server with
 * the fast path installed in front of an app that echoes what it was given and says which
 * layer parsed it (`fast` through `serve`, `node` through `handle`). What bourse answers
 * through it is covered by every end-to-end test, which run with the fast path on.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { closeServer, listenOnLoopback } from '../../support/http.ts';
import { nodeEdge, type App, type EdgeRequest, type EdgeReply } from '../../../src/api/app.ts';
import { installFastPath, type FastPath } from '../../../src/api/http1/fast-path.ts';

const MAX_BODY_BYTES = 4096;
const KEEP_ALIVE_MS = 300;

interface Echo {
  via: 'fast' | 'node';
  method: string;
  url: string;
  body: string | null;
  headers: Record<string, unknown>;
}

/** Echoes the request; an `x-delay` header (ms) holds the answer back that long. */
function echo(request: EdgeRequest, via: Echo['via'], reply: EdgeReply): void {
  const delayMs = Number(request.headers['x-delay'] ?? 0);
  void Promise.resolve(request.body).then((body) => {
    const answer = () =>
      reply.send(
        200,
        JSON.stringify({ via, method: request.method, url: request.url, body, headers: request.headers }),
      );
    if (request.headers['x-abort'] !== undefined) reply.abort();
    else if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
}

const app: App = {
  serve: (request, reply) => echo(request, 'fast', reply),
  handle(request, response) {
    const edge = nodeEdge(request, response, MAX_BODY_BYTES);
    echo(edge.request, 'node', edge.reply);
  },
};

let server: Server;
let fastPath: FastPath;
let port = 0;

before(async () => {
  server = createServer({ keepAlive: true }, (request, response) => app.handle(request, response));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  fastPath = installFastPath(server, app, MAX_BODY_BYTES);
  server.on('upgrade', (request, socket) =>
    socket.end(`HTTP/1.1 101 Switching Protocols\r\nx-upgraded: ${request.url}\r\n\r\n`),
  );
  port = await listenOnLoopback(server);
});

after(async () => {
  fastPath.closeAllConnections();
  await closeServer(server);
});

interface Answer {
  status: number;
  /** Header lines as sent, in order. */
  lines: string[];
  body: string;
}

/** A raw connection that collects whole answers as they arrive (Content-Length framed). */
class Conversation {
  readonly socket: Socket;
  readonly answers: Answer[] = [];
  closed = false;
  private buffered = Buffer.alloc(0);

  constructor() {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => undefined);
  }

  private parse(): void {
    for (;;) {
      const text = this.buffered.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const lengthLine = lines.find((line) => /^content-length:/i.test(line));
      const length = lengthLine ? Number(lengthLine.slice(lengthLine.indexOf(':') + 1)) : 0;
      if (this.buffered.length < split + 4 + length) return;
      const body = this.buffered.subarray(split + 4, split + 4 + length).toString('utf8');
      this.answers.push({ status: Number(statusLine.split(' ')[1]), lines, body });
      this.buffered = this.buffered.subarray(split + 4 + length);
    }
  }

  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve) => this.socket.write(bytes, () => resolve()));
  }

  /** Waits (bounded) until `count` answers arrived, or the connection closed. */
  async waitFor(count: number, timeoutMs = 5000): Promise<Answer[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.answers.length < count && !this.closed && Date.now() < deadline) await pause(5);
    return this.answers;
  }

  async waitClosed(timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await pause(5);
    return this.closed;
  }

  end(): void {
    this.socket.destroy();
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function get(path: string, ...headers: string[]): string {
  return [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');
}

function post(path: string, body: string, ...headers: string[]): string {
  return [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...headers,
    '',
    body,
  ].join('\r\n');
}

function echoed(answer: Answer | undefined): Echo {
  assert.ok(answer, 'an answer arrived');
  return JSON.parse(answer.body) as Echo;
}

test('fast path when a plain request arrives answers it with node:http`s bytes, Date included', async () => {
  const fast = new Conversation();
  await fast.write(post('/a?b=1', '{"x":"é"}', 'ACCESS-KEY: k'));
  const [answer] = await fast.waitFor(1);
  fast.end();
  const request = echoed(answer);
  assert.deepEqual(
    [request.via, request.method, request.url, request.body],
    ['fast', 'POST', '/a?b=1', '{"x":"é"}'],
  );
  assert.equal(request.headers['access-key'], 'k');
  const node = new Conversation();
  await node.write(get('/b', 'Transfer-Encoding: chunked') + '0\r\n\r\n');
  const [nodeAnswer] = await node.waitFor(1);
  node.end();
  assert.equal(echoed(nodeAnswer).via, 'node');
  const names = (lines: string[]) => lines.map((line) => line.slice(0, line.indexOf(':')));
  assert.deepEqual(names(answer?.lines ?? []), names(nodeAnswer?.lines ?? []));
  const without = (lines: string[]) => lines.filter((line) => !/^(date|content-length):/i.test(line));
  assert.deepEqual(without(answer?.lines ?? []), without(nodeAnswer?.lines ?? []));
  assert.match(
    answer?.lines.find((line) => line.startsWith('Date:')) ?? '',
    /^Date: \w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT$/,
  );
});

test('fast path when requests are pipelined answers them in request order, however they finish', async () => {
  const conversation = new Conversation();
  await conversation.write(
    get('/slow', 'X-Delay: 60') + get('/quick') + post('/body', '{"n":3}', 'X-Delay: 20'),
  );
  const answers = await conversation.waitFor(3);
  conversation.end();
  assert.deepEqual(
    answers.map((answer) => echoed(answer).url),
    ['/slow', '/quick', '/body'],
  );
});

test('fast path when many requests are pipelined at once answers every one, in order', async () => {
  const conversation = new Conversation();
  const count = 50;
  let bytes = '';
  for (let index = 0; index < count; index += 1) bytes += get(`/n/${index}`, `X-Delay: ${(index * 7) % 5}`);
  await conversation.write(bytes);
  const answers = await conversation.waitFor(count);
  conversation.end();
  assert.deepEqual(
    answers.map((answer) => echoed(answer).url),
    Array.from({ length: count }, (_, index) => `/n/${index}`),
  );
});

test('fast path when a request arrives a byte at a time answers it once it is whole', async () => {
  const conversation = new Conversation();
  conversation.socket.setNoDelay(true);
  const bytes = Buffer.from(post('/split', '{"split":true}'));
  for (let index = 0; index < bytes.length; index += 1) {
    await conversation.write(bytes.subarray(index, index + 1));
    if (index % 16 === 0) await pause(1);
  }
  const [answer] = await conversation.waitFor(1);
  conversation.end();
  assert.deepEqual([echoed(answer).via, echoed(answer).body], ['fast', '{"split":true}']);
});

test('fast path when a request is not plain hands the connection to node:http after the answers before it', async () => {
  const conversation = new Conversation();
  await conversation.write(
    get('/first', 'X-Delay: 40') +
      'POST /second HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n' +
      get('/third'),
  );
  const answers = await conversation.waitFor(3);
  conversation.end();
  assert.deepEqual(
    answers.map((answer) => [echoed(answer).via, echoed(answer).url, echoed(answer).body]),
    [
      ['fast', '/first', ''],
      ['node', '/second', 'abc'],
      ['node', '/third', ''],
    ],
  );
  assert.equal(fastPath.connectionCount, 0);
});

test('fast path when a request is not plain hands it over with every byte, even split mid-head', async () => {
  const conversation = new Conversation();
  await conversation.write('GET /ten HTTP/1.0\r\nHo');
  await pause(20);
  await conversation.write('st: x\r\n\r\n');
  const [answer] = await conversation.waitFor(1);
  conversation.end();
  assert.deepEqual([echoed(answer).via, echoed(answer).url], ['node', '/ten']);
});

test('fast path when the request upgrades the connection leaves the upgrade to node:http', async () => {
  const conversation = new Conversation();
  await conversation.write(get('/ws', 'Upgrade: websocket', 'Connection: Upgrade'));
  const [answer] = await conversation.waitFor(1);
  conversation.end();
  assert.equal(answer?.status, 101);
  assert.ok(answer?.lines.includes('x-upgraded: /ws'));
});

test('fast path when the head or the body is over its limit lets node:http refuse it', async () => {
  const big = new Conversation();
  await big.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  const [tooBigHead] = await big.waitFor(1);
  big.end();
  assert.equal(tooBigHead?.status, 431);
  const long = new Conversation();
  await long.write(post('/long', 'b'.repeat(MAX_BODY_BYTES + 1)));
  const [tooLong] = await long.waitFor(1);
  long.end();
  assert.deepEqual([echoed(tooLong).via, echoed(tooLong).body], ['node', null]);
});

test('fast path when the client half-closes after its request still answers, then closes', async () => {
  const conversation = new Conversation();
  conversation.socket.end(get('/last', 'X-Delay: 20'));
  const [answer] = await conversation.waitFor(1);
  assert.equal(echoed(answer).url, '/last');
  assert.equal(await conversation.waitClosed(), true);
});

test('fast path when a connection stays idle closes it after the server`s keepAliveTimeout', async () => {
  const conversation = new Conversation();
  await conversation.write(get('/idle'));
  await conversation.waitFor(1);
  assert.equal(fastPath.connectionCount, 1);
  const started = Date.now();
  assert.equal(await conversation.waitClosed(), true);
  assert.ok(Date.now() - started >= KEEP_ALIVE_MS / 2, 'not closed before the timeout');
  assert.equal(fastPath.connectionCount, 0);
});

test('fast path when a slow request outlasts the keepAliveTimeout keeps the connection for its answer', async () => {
  const conversation = new Conversation();
  await conversation.write(get('/slow', `X-Delay: ${KEEP_ALIVE_MS * 2}`));
  const [answer] = await conversation.waitFor(1);
  conversation.end();
  assert.equal(echoed(answer).url, '/slow');
});

test('fast path when the app drops a request closes the connection without an answer', async () => {
  const conversation = new Conversation();
  await conversation.write(get('/drop', 'X-Abort: 1'));
  assert.equal(await conversation.waitClosed(), true);
  assert.equal(conversation.answers.length, 0);
});

test('fast path closeAllConnections closes the connections it holds', async () => {
  const conversation = new Conversation();
  await conversation.write(get('/held'));
  await conversation.waitFor(1);
  fastPath.closeAllConnections();
  assert.equal(await conversation.waitClosed(), true);
});
