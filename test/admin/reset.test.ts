/**
 * POST /admin/v1/reset against a running server, on SQLite and on PostgreSQL: the venue is
 * back to its first-start state (one demo account with its funds, a new key, nothing else),
 * credentials.json says so, WebSocket sessions are closed, a restart recovers the new state;
 * a store that fails changes nothing; requests in flight finish first and new ones get 40015.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import WebSocket from 'ws';
import { stateHash } from '../../src/engine/state-hash.ts';
import { postgresTests, databaseFor } from '../persistence/postgres-test-database.ts';
import { OperatorClient } from '../support/operator.ts';
import { data, type Row } from '../support/scenario.ts';
import { serverFor, startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient, type ApiCredentials } from '../support/signing.ts';

interface ResetAnswer {
  demo: (ApiCredentials & { uid: string; fixed: boolean }) | null;
  liquidityProviderUid: string | null;
  closedWebSockets: number;
  journalEntries: number;
}

const operatorOf = (server: TestServer) => new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
const reset = async (server: TestServer) =>
  data<ResetAnswer>(await operatorOf(server).call('POST', '/admin/v1/reset'));
const spotAssets = (server: TestServer, key: ApiCredentials) =>
  new SigningClient(server.url, key).get<Row[]>('/api/v2/spot/account/assets');

/** Accounts, a key, funds and a resting order: what a reset must take away. */
async function activity(server: TestServer): Promise<{ uid: string; key: ApiCredentials }> {
  const operator = operatorOf(server);
  const { uid } = await operator.createAccount({ label: 'before' });
  await operator.deposit(uid, { coin: 'USDT', amount: '500' });
  const key = await operator.createApiKey(uid);
  const placed = await new SigningClient(server.url, key).post('/api/v2/spot/trade/place-order', {
    body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '50000', size: '0.001' },
  });
  data(placed);
  return { uid, key };
}

async function firstStartShape(server: TestServer, answer: ResetAnswer): Promise<void> {
  const operator = operatorOf(server);
  const demo = answer.demo;
  assert.ok(demo);
  const accounts = data<{ list: Row[] }>(await operator.call('GET', '/admin/v1/accounts'));
  assert.deepEqual(
    accounts.list.map((row) => [row.uid, row.label]),
    [[demo.uid, 'demo']],
  );
  const assets = data<Row[]>(await spotAssets(server, demo));
  assert.deepEqual(assets.map((row) => [row.coin, row.available, row.frozen]).sort(), [
    ['BTC', '2', '0'],
    ['ETH', '20', '0'],
    ['USDC', '100000', '0'],
    ['USDT', '100000', '0'],
  ]);
  const orders = data<{ list: Row[] }>(await operator.call('GET', `/admin/v1/accounts/${demo.uid}/orders`));
  assert.deepEqual(orders.list, []);
  assert.equal(
    await server.services.store.lastSeq(),
    answer.journalEntries,
    'the journal is the first start',
  );
  const stored = JSON.parse(readFileSync(join(server.dataDir, 'credentials.json'), 'utf8')) as Row;
  assert.deepEqual(
    [stored.uid, stored.apiKey, stored.secretKey, stored.passphrase, stored.operatorToken, stored.baseUrl],
    [demo.uid, demo.apiKey, demo.secretKey, demo.passphrase, TEST_OPERATOR_TOKEN, server.url],
  );
  assert.equal(existsSync(join(server.dataDir, 'credentials.json.reset')), false);
  assert.equal(server.credentials.apiKey, demo.apiKey);
}

/** A WebSocket session; `closed` resolves with its close code. */
async function openSession(server: TestServer): Promise<{ closed: Promise<number> }> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v2/ws/public`);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { closed };
}

async function resetsToFirstStart(t: TestContext, env: Record<string, string> = {}): Promise<void> {
  const server = await serverFor(t, { env });
  const before = server.credentials;
  const { key } = await activity(server);
  const session = await openSession(server);
  const answer = await reset(server);
  assert.equal(answer.closedWebSockets, 1);
  assert.equal(await session.closed, 1012, 'sessions are closed with "service restart"');
  assert.ok(answer.demo && answer.demo.apiKey !== before.apiKey, 'a new random demo key');
  assert.equal(answer.demo.fixed, false);
  await firstStartShape(server, answer);
  for (const old of [key, before]) assert.equal((await spotAssets(server, old)).body?.code, '40006');
  const hash = stateHash(server.services.sequencer.exchange.state);
  await server.stop();
  const restarted = await startTestServer({ dataDir: server.dataDir, env });
  t.after(() => restarted.close());
  assert.equal(
    stateHash(restarted.services.sequencer.exchange.state),
    hash,
    'a restart recovers the reset state',
  );
  assert.equal(restarted.credentials.apiKey, answer.demo.apiKey);
  assert.equal((await spotAssets(restarted, answer.demo)).body?.code, '00000');
}

test('reset when the venue has accounts, orders and keys returns it to the first-start state (SQLite)', (t) =>
  resetsToFirstStart(t));

await postgresTests('reset on PostgreSQL', [
  {
    name: 'reset when the venue has accounts, orders and keys returns it to the first-start state (PostgreSQL)',
    body: async (t) => resetsToFirstStart(t, { BOURSE_DATABASE_URL: (await databaseFor(t)).url }),
  },
]);

test('reset when fixed demo credentials are set makes the same key again, with the demo funds', async (t) => {
  const fixed = {
    apiKey: 'bg_fixedreset01',
    secretKey: 'fixed-secret-for-the-reset-test',
    passphrase: 'Fixed12345',
  };
  const server = await serverFor(t, {
    env: {
      BOURSE_DEMO_API_KEY: fixed.apiKey,
      BOURSE_DEMO_SECRET_KEY: fixed.secretKey,
      BOURSE_DEMO_PASSPHRASE: fixed.passphrase,
    },
  });
  assert.equal(server.credentials.apiKey, fixed.apiKey, 'the first start uses them too');
  const operator = operatorOf(server);
  await operator.withdraw(server.credentials.uid, { coin: 'USDT', amount: '99000' });
  const answer = await reset(server);
  assert.deepEqual(answer.demo, { uid: server.credentials.uid, ...fixed, fixed: true });
  await firstStartShape(server, answer);
});

test('reset when the clock is simulated starts it again at BOURSE_CLOCK_START', async (t) => {
  const start = Date.UTC(2030, 0, 1);
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_CLOCK_START: String(start) },
  });
  const operator = operatorOf(server);
  await operator.advanceClock(86_400_000);
  assert.equal(Number((await operator.getClock()).nowMs), start + 86_400_000);
  await reset(server);
  assert.equal(Number((await operator.getClock()).nowMs), start);
});

test('reset when the store fails answers 40725 and changes nothing', async (t) => {
  const server = await serverFor(t);
  await activity(server);
  const file = join(server.dataDir, 'credentials.json');
  const credentialsBefore = readFileSync(file, 'utf8');
  const hash = stateHash(server.services.sequencer.exchange.state);
  const store = server.services.store;
  const replaceAll = store.replaceAll.bind(store);
  store.replaceAll = () => Promise.reject(new Error('disk full'));
  t.after(() => (store.replaceAll = replaceAll));
  const response = await operatorOf(server).call('POST', '/admin/v1/reset');
  assert.deepEqual([response.status, response.body?.code], [503, '40725']);
  assert.equal(stateHash(server.services.sequencer.exchange.state), hash);
  assert.equal(readFileSync(file, 'utf8'), credentialsBefore);
  assert.equal(existsSync(`${file}.reset`), false);
  assert.equal(
    (await spotAssets(server, server.credentials)).body?.code,
    '00000',
    'requests are taken again',
  );
});

test('reset when a request is in flight lets it finish first and refuses new ones with 40015', async (t) => {
  const server = await serverFor(t);
  const { uid } = await activity(server);
  const store = server.services.store;
  const orders = store.orders.bind(store);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reading = false;
  store.orders = async (query) => {
    reading = true;
    await held;
    return orders(query);
  };
  t.after(() => (store.orders = orders));
  const operator = operatorOf(server);
  const history = operator.call('GET', `/admin/v1/accounts/${uid}/orders`);
  for (let step = 0; step < 500 && !reading; step += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(reading, 'the history request is inside');
  const resetting = operator.call('POST', '/admin/v1/reset');
  for (let step = 0; step < 500 && server.services.gate?.isOpen; step += 1)
    await new Promise((r) => setTimeout(r, 5));
  const refused = await operator.call('GET', '/admin/v1/clock');
  assert.deepEqual([refused.status, refused.body?.code], [503, '40015']);
  release();
  const answered = await history;
  assert.equal(answered.body?.code, '00000');
  assert.equal((answered.body?.data as { list: Row[] }).list.length, 1, 'it read the state before the reset');
  assert.equal((await resetting).body?.code, '00000');
  assert.equal((await operator.call('GET', '/admin/v1/clock')).body?.code, '00000');
});

test('reset when the body asks for something answers 40020 and resets nothing', async (t) => {
  const server = await serverFor(t);
  const hash = stateHash(server.services.sequencer.exchange.state);
  const response = await operatorOf(server).call('POST', '/admin/v1/reset', { keepAccounts: true });
  assert.deepEqual([response.body?.code, response.body?.msg], ['40020', 'Parameter keepAccounts error']);
  assert.equal(stateHash(server.services.sequencer.exchange.state), hash);
});

test('reset when the server stops meanwhile finishes without restarting the market', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } });
  const marketBefore = server.market;
  const resetting = operatorOf(server).call('POST', '/admin/v1/reset');
  for (let step = 0; step < 500 && server.services.gate?.isOpen; step += 1)
    await new Promise((r) => setTimeout(r, 5));
  assert.equal(server.services.gate?.isOpen, false, 'the reset has begun');
  await server.stop();
  assert.equal((await resetting).body?.code, '00000', 'the reset in flight was answered');
  assert.equal(server.market, marketBefore, 'no market was started for a stopped server');
});
