/**
 * The node:http edge of src/server.ts: a request node:http cannot parse gets the venue's
 * envelope and the connection closes, but only after every request pipelined before it, which
 * was executed, has been answered in order.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { OperatorClient } from './support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from './support/server.ts';

interface Answer {
  status: number;
  body: { code: string; data: unknown } | null;
}

/** Writes `bytes` as they are, reads until the server closes, and splits the answers. */
function pipeline(
  baseUrl: string,
  bytes: string,
  halfClose = false,
): Promise<{ answers: Answer[]; closed: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answers: parseAnswers(Buffer.concat(chunks).toString('utf8')), closed: false });
    }, 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answers: parseAnswers(Buffer.concat(chunks).toString('utf8')), closed: true });
    });
    socket.write(bytes);
    if (halfClose) socket.end();
  });
}

function parseAnswers(text: string): Answer[] {
  const answers: Answer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    answers.push({ status: Number(head.slice(9, 12)), body: JSON.parse(body) as Answer['body'] });
    rest = rest.slice(headEnd + 4 + length);
  }
  return answers;
}

function deposit(uid: string, amount: string, chunked: boolean): string {
  const body = JSON.stringify({ coin: 'USDT', amount });
  const framing = chunked
    ? `transfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
    : `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return (
    `POST /admin/v1/accounts/${uid}/deposits HTTP/1.1\r\nhost: x\r\n` +
    `authorization: Bearer ${TEST_OPERATOR_TOKEN}\r\ncontent-type: application/json\r\n${framing}`
  );
}

// Chunked bodies are not plain: node:http parses them even when the fast path is on; plain
// requests go through the fast path, which hands the connection to node:http at the bad one.
for (const [fastPath, chunked] of [
  ['off', false],
  ['off', true],
  ['on', true],
  ['on', false],
] as const) {
  test(`pipelined requests when a malformed one follows executed ones answer each in order, then close (fast path ${fastPath}, ${chunked ? 'chunked' : 'plain'})`, async (t) => {
    // The fast path's plain case runs at the server's defaults (feed and liquidity provider on).
    const defaults: Record<string, string> =
      fastPath === 'on' && !chunked ? { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } : {};
    const server = await serverFor(t, { env: { BOURSE_HTTP_FAST_PATH: fastPath, ...defaults } });
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    const { uid } = await operator.createAccount();
    const bytes = deposit(uid, '1', chunked) + deposit(uid, '2', chunked) + 'NOT HTTP AT ALL\r\n\r\n';
    const { answers, closed } = await pipeline(server.url, bytes);
    assert.equal(closed, true, 'the connection closes after the malformed request');
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.body?.code]),
      [
        [200, '00000'],
        [200, '00000'],
        [400, '40017'],
      ],
    );
    const account = await operator.getAccount(uid);
    assert.equal(account.wallets.spot?.USDT?.available, '3');
  });
}

test('request when its head is over 16 KiB answers 431 with the envelope and closes', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_HTTP_FAST_PATH: 'off' } });
  const bytes = `GET /api/v2/public/time HTTP/1.1\r\nhost: x\r\nx-filler: ${'a'.repeat(20_000)}\r\n\r\n`;
  const { answers, closed } = await pipeline(server.url, bytes);
  assert.equal(closed, true);
  assert.deepEqual(
    answers.map((answer) => [answer.status, answer.body?.code]),
    [[431, '40017']],
  );
});

test('pipelined requests when the client stops mid-body after an executed one answer that one, then close', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_HTTP_FAST_PATH: 'off' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  const cut = deposit(uid, '2', true).replace(/0\r\n\r\n$/, '');
  const { answers, closed } = await pipeline(server.url, deposit(uid, '1', true) + cut.slice(0, -12), true);
  assert.equal(closed, true);
  assert.deepEqual(
    answers.map((answer) => [answer.status, answer.body?.code]),
    [
      [200, '00000'],
      [400, '40017'],
    ],
  );
  assert.equal((await operator.getAccount(uid)).wallets.spot?.USDT?.available, '1');
});
