/**
 * What one client can make the WebSocket endpoint do is bounded: a message carries at most
 * BOURSE_WS_MAX_ARGS_PER_MESSAGE args (more is one error, not a reply per arg), args count
 * against the connection's subscription requests per hour, nesting in a message is refused
 * with an answer (not a stack overflow and silence), and connections are capped per IP and in
 * total (HTTP 429 on the upgrade). Frames are counted, never timed: a "ping" sent after a
 * message is answered after everything that message caused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { WebsocketClientV2 } from 'bitget-api';
import { jsonNestingExceeds } from '../../../src/api/ws/limits.ts';
import { serverFor, type TestServer } from '../../support/server.ts';
import { WsTestClient, type Frame } from './ws-client.ts';

/** Sends `message`, then "ping"; returns the JSON frames that arrived before the "pong". */
async function answersTo(client: WsTestClient, message: string): Promise<Frame[]> {
  const from = client.frames.length;
  client.send(message);
  client.send('ping');
  const deadline = Date.now() + 10_000;
  while (!client.frames.slice(from).includes('pong')) {
    if (client.closeCode !== null) throw new Error(`closed ${client.closeCode} ${client.closeReason}`);
    if (Date.now() > deadline) throw new Error(`no pong; ${client.frames.length - from} frames`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const frames = client.frames.slice(from);
  return frames.slice(0, frames.indexOf('pong')).filter((frame): frame is Frame => typeof frame !== 'string');
}

function upgradeStatus(server: TestServer, headers: Record<string, string> = {}): Promise<number> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v2/ws/public`, { headers });
  return new Promise<number>((resolve) => {
    socket.once('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => resolve(-1));
  });
}

const BOOKS = (channel: string) => ({ instType: 'SPOT', channel, instId: 'BTCUSDT' });

test('subscribe when one message carries 30 000 args answers one error, not one per arg', async (t) => {
  const server = await serverFor(t);
  const client = await WsTestClient.open(server.url, '/v2/ws/public', t);
  const answers = await answersTo(
    client,
    JSON.stringify({ op: 'subscribe', args: new Array(30_000).fill(0) }),
  );
  assert.equal(answers.length, 1);
  assert.equal(answers[0]?.code, 30016);
  assert.match(String(answers[0]?.msg), /at most 50 args/);
  const ok = await answersTo(client, JSON.stringify({ op: 'subscribe', args: [BOOKS('books1')] }));
  assert.equal(ok[0]?.event, 'subscribe', 'the connection is still served');
});

test('subscribe when the args of a connection pass its hourly budget is refused with one 30006', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_WS_SUBSCRIPTION_REQUESTS_PER_HOUR: '5' } });
  const client = await WsTestClient.open(server.url, '/v2/ws/public', t);
  const first = await answersTo(
    client,
    JSON.stringify({ op: 'subscribe', args: [BOOKS('books1'), BOOKS('books5'), BOOKS('books15')] }),
  );
  assert.deepEqual(first.filter((frame) => frame.event === 'subscribe').length, 3);
  const second = await answersTo(
    client,
    JSON.stringify({ op: 'unsubscribe', args: [BOOKS('books1'), BOOKS('books5'), BOOKS('books15')] }),
  );
  assert.deepEqual(
    second.map((frame) => frame.code),
    [30006],
  );
  const third = await answersTo(
    client,
    JSON.stringify({ op: 'unsubscribe', args: [BOOKS('books1'), BOOKS('books5')] }),
  );
  assert.deepEqual(
    third.map((frame) => frame.event),
    ['unsubscribe', 'unsubscribe'],
    'what is left of the budget is still served',
  );
});

test('subscribe when args are nested 30 000 deep answers 30016 instead of overflowing the stack', async (t) => {
  const server = await serverFor(t);
  const client = await WsTestClient.open(server.url, '/v2/ws/public', t);
  const depth = 30_000;
  const answers = await answersTo(
    client,
    `{"op":"subscribe","args":${'['.repeat(depth)}${']'.repeat(depth)}}`,
  );
  assert.deepEqual(
    answers.map((frame) => frame.code),
    [30016],
  );
  const objects = await answersTo(
    client,
    `{"op":"subscribe","args":[${'{"a":'.repeat(100)}1${'}'.repeat(100)}]}`,
  );
  assert.deepEqual(
    objects.map((frame) => frame.code),
    [30016],
  );
});

test('jsonNestingExceeds when brackets sit inside strings does not count them', () => {
  assert.equal(jsonNestingExceeds('{"op":"subscribe","args":[{"instId":"[[[[[[[[[["}]}', 4), false);
  assert.equal(jsonNestingExceeds('{"a":"\\"[[[[[[","b":[[[[[1]]]]]}', 4), true);
  assert.equal(jsonNestingExceeds('[[[[]]]]', 4), false);
  assert.equal(jsonNestingExceeds('[[[[[]]]]]', 4), true);
});

test('connect when the IP holds its limit of connections is refused with 429 until one closes', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_WS_MAX_CONNECTIONS_PER_IP: '2' } });
  const first = await WsTestClient.open(server.url, '/v2/ws/public', t);
  await WsTestClient.open(server.url, '/v2/ws/public', t);
  assert.equal(await upgradeStatus(server), 429);
  first.close();
  await first.waitClosed();
  let status = 0;
  for (let attempt = 0; attempt < 50 && status !== 101; attempt += 1) {
    status = await upgradeStatus(server);
    if (status !== 101) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(status, 101, 'the place freed is taken again');
});

test('connect when the server holds its total of connections is refused with 429 from any IP', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_WS_MAX_CONNECTIONS: '2', BOURSE_TRUST_PROXY: 'true' },
  });
  const open = (ip: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v2/ws/public`, {
        headers: { 'x-forwarded-for': ip },
      });
      t.after(() => socket.terminate());
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
  await open('10.0.0.1');
  await open('10.0.0.2');
  assert.equal(await upgradeStatus(server, { 'x-forwarded-for': '10.0.0.3' }), 429);
});

test('bitget-api WebsocketClientV2 at the defaults subscribes 40 topics at once, all acknowledged', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } });
  const client = new WebsocketClientV2(
    { wsUrl: `${server.url.replace(/^http/, 'ws')}/v2/ws/public` },
    { trace: () => undefined, info: () => undefined, error: () => undefined },
  );
  t.after(() => client.closeAll(true));
  const acks: unknown[] = [];
  const errors: unknown[] = [];
  client.on('response', (event: { event?: string }) => {
    if (event.event === 'subscribe') acks.push(event);
  });
  client.on('exception', (event: unknown) => errors.push(event));
  const markets = [
    ['SPOT', 'BTCUSDT'],
    ['SPOT', 'ETHUSDT'],
    ['USDT-FUTURES', 'BTCUSDT'],
    ['USDT-FUTURES', 'ETHUSDT'],
  ] as const;
  const channels = [
    'books1',
    'books5',
    'books15',
    'books',
    'trade',
    'ticker',
    'candle1m',
    'candle5m',
    'candle1H',
    'candle1D',
  ] as const;
  for (const [instType, symbol] of markets)
    for (const channel of channels) client.subscribeTopic(instType, channel, symbol);
  const deadline = Date.now() + 10_000;
  while (acks.length < markets.length * channels.length && errors.length === 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(errors, []);
  assert.equal(acks.length, 40);
});
