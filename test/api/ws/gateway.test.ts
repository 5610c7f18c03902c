/**
 * The WebSocket protocol as the venue speaks it: paths, "ping"/"pong", login codes (30005,
 * 30011–30015; seconds and milliseconds), private channels needing a login (30004) and the
 * key's permissions, unknown channels (30001), invalid op (30003), the per-second message
 * limit (30006, then a close), the per-connection subscription limit (30006), idle close,
 * and a slow consumer cut with a reason instead of being buffered without bound.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { accountWithKey, OperatorClient } from '../../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { DEFAULT_WS_CONFIG } from '../../../src/api/ws/config.ts';
import { Connection } from '../../../src/api/ws/connection.ts';
import { WsTestClient } from './ws-client.ts';

async function setup(t: Parameters<typeof serverFor>[0], env: Record<string, string> = {}) {
  const server = await serverFor(t, { env });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  return { server, operator };
}

test('connect when the path is not a venue WebSocket path is refused with 404', async (t) => {
  const { server } = await setup(t);
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v2/ws/nowhere`);
  const status = await new Promise<number>((resolve) => {
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => resolve(-1));
  });
  assert.equal(status, 404);
});

test('ping when sent as text is answered pong on every path', async (t) => {
  const { server } = await setup(t);
  for (const path of ['/v2/ws/public', '/v2/ws/private', '/v3/ws/public', '/v3/ws/private']) {
    const client = await WsTestClient.open(server.url, path, t);
    client.send('ping');
    const deadline = Date.now() + 2000;
    while (!client.frames.includes('pong') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    assert.ok(client.frames.includes('pong'), path);
  }
});

test('login when the signature is right answers code 0 (seconds and milliseconds)', async (t) => {
  const { server, operator } = await setup(t);
  const { key } = await accountWithKey(operator);
  const seconds = await WsTestClient.open(server.url, '/v2/ws/private', t);
  assert.deepEqual(await seconds.login(key), { event: 'login', code: 0, msg: '' });
  const millis = await WsTestClient.open(server.url, '/v3/ws/private', t);
  assert.equal((await millis.login(key, String(Date.now()))).code, 0);
});

test('login when a field is wrong answers its 300xx code and closes the connection', async (t) => {
  const { server, operator } = await setup(t);
  const { key } = await accountWithKey(operator);
  const cases: [string, Partial<typeof key>, string | undefined, number][] = [
    ['unknown key', { apiKey: 'bg_unknown' }, undefined, 30011],
    ['wrong passphrase', { passphrase: 'not-it' }, undefined, 30012],
    ['bad timestamp', {}, 'yesterday', 30013],
    ['expired timestamp', {}, String(Math.round(Date.now() / 1000) - 60), 30014],
    ['wrong secret', { secretKey: 'wrong-secret' }, undefined, 30015],
  ];
  for (const [name, change, timestamp, code] of cases) {
    const client = await WsTestClient.open(server.url, '/v2/ws/private', t);
    const answer = await client.login({ ...key, ...change }, timestamp);
    assert.equal(answer.event, 'error', name);
    assert.equal(answer.code, code, name);
    assert.equal(await client.waitClosed(), 4004, name);
  }
});

test('login when the key is bound to other IPs fails with 30005', async (t) => {
  const { server, operator } = await setup(t);
  const { key } = await accountWithKey(operator, { ipList: ['10.1.2.3'] });
  const client = await WsTestClient.open(server.url, '/v2/ws/private', t);
  const answer = await client.login(key);
  assert.equal(answer.code, 30005);
  assert.match(String(answer.msg), /whitelist/);
});

test('subscribe when private without login is 30004, and unknown channels are 30001', async (t) => {
  const { server } = await setup(t);
  const client = await WsTestClient.open(server.url, '/v2/ws/private', t);
  const [orders, unknown, symbol] = await client.subscribe([
    { instType: 'SPOT', channel: 'orders', instId: 'default' },
    { instType: 'SPOT', channel: 'candleundefined', instId: 'BTCUSDT' },
    { instType: 'SPOT', channel: 'ticker', instId: 'NOPEUSDT' },
  ]);
  assert.equal(orders?.code, 30004);
  assert.deepEqual(orders?.arg, { instType: 'SPOT', channel: 'orders', instId: 'default' });
  assert.equal(unknown?.code, 30001);
  assert.equal(unknown?.msg, "instType:SPOT,channel:candleundefined,instId:BTCUSDT doesn't exist");
  assert.equal(symbol?.code, 30001);
  client.send({ op: 'trade', args: [] });
  assert.equal((await client.waitFor((frame) => frame.code === 30003)).event, 'error');
});

test('subscribe when the key lacks the read permission of the channel is refused', async (t) => {
  const { server, operator } = await setup(t);
  const { key } = await accountWithKey(operator, { permissions: ['spot_trade'] });
  const client = await WsTestClient.open(server.url, '/v2/ws/private', t);
  await client.login(key);
  const [spot, futures] = await client.subscribe([
    { instType: 'SPOT', channel: 'orders', instId: 'default' },
    { instType: 'USDT-FUTURES', channel: 'positions', instId: 'default' },
  ]);
  assert.equal(spot?.event, 'subscribe');
  assert.equal(futures?.code, 30002);
});

test('messages when over the per-second limit get 30006, and far over it close the connection', async (t) => {
  const { server } = await setup(t, { BOURSE_WS_MESSAGES_PER_SECOND: '5' });
  const client = await WsTestClient.open(server.url, '/v2/ws/public', t);
  for (let index = 0; index < 7; index += 1) client.send('ping');
  await client.waitFor((frame) => frame.code === 30006);
  for (let index = 0; index < 20; index += 1) client.send('ping');
  assert.equal(await client.waitClosed(), 4003);
  assert.ok(client.json.some((frame) => frame.code === 30007));
});

test('subscribe when over the per-connection limit answers 30006', async (t) => {
  const { server } = await setup(t, { BOURSE_WS_MAX_SUBSCRIPTIONS: '2' });
  const client = await WsTestClient.open(server.url, '/v2/ws/public', t);
  const answers = await client.subscribe([
    { instType: 'SPOT', channel: 'books5', instId: 'BTCUSDT' },
    { instType: 'SPOT', channel: 'books1', instId: 'BTCUSDT' },
    { instType: 'SPOT', channel: 'books15', instId: 'BTCUSDT' },
  ]);
  assert.deepEqual(
    answers.map((answer) => answer.event === 'subscribe' || answer.code),
    [true, true, 30006],
  );
});

test('a connection when idle past the timeout is closed', async (t) => {
  const { server } = await setup(t, { BOURSE_WS_IDLE_MS: '200' });
  const client = await WsTestClient.open(server.url, '/v2/ws/public', t);
  assert.equal(await client.waitClosed(2000), 4002);
});

test('a slow consumer when its unsent bytes pass the limit is cut with a reason', () => {
  const closed: [number, string][] = [];
  const socket = {
    bufferedAmount: 0,
    sent: [] as string[],
    send(text: string) {
      this.sent.push(text);
    },
    close(code: number, reason: string) {
      closed.push([code, reason]);
    },
    terminate() {},
    once() {},
  };
  const connection = new Connection(socket as never, 'v2', '127.0.0.1', {
    ...DEFAULT_WS_CONFIG,
    maxBufferedBytes: 1000,
  });
  assert.equal(connection.send('first'), true);
  socket.bufferedAmount = 1001;
  assert.equal(connection.send('second'), false);
  assert.deepEqual(socket.sent, ['first']);
  assert.deepEqual(closed, [[4001, 'slow consumer: more than 1000 bytes unsent']]);
  assert.equal(connection.send('third'), false);
  connection.stopTimers();
});
