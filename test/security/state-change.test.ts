/**
 * A request the engine rejects changes no business state: balances, accounts, keys,
 * instruments, ids stay as they were. Only the engine clock moves (the sequencer journals
 * failed commands too, so the clock and its jobs replay exactly; src/runtime/sequencer.ts),
 * which is why these comparisons leave `nowMs` out. The live state always equals a replay.
 * A command that throws inside the engine (a bug) is rolled back whole and logged once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Exchange } from '../../src/engine/exchange.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { data } from '../support/scenario.ts';
import { SigningClient } from '../support/signing.ts';
import { businessHash } from '../support/state.ts';

test('withdraw when the engine rejects it changes no business state', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10' });
  const before = businessHash(server.services.sequencer.exchange.state);
  const cases: [string, unknown, string][] = [
    [`/admin/v1/accounts/${uid}/withdrawals`, { coin: 'USDT', amount: '11' }, '43012'],
    [`/admin/v1/accounts/${uid}/deposits`, { coin: 'NOPE', amount: '1' }, '40034'],
    [`/admin/v1/accounts/${uid}/deposits`, { coin: 'USDT', amount: '1', wallet: 'unified' }, '40020'],
    [
      '/admin/v1/instruments',
      { category: 'SPOT', symbol: 'BTCUSDT', baseCoin: 'BTC', quoteCoin: 'USDT' },
      '40020',
    ],
  ];
  for (const [path, body, code] of cases) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const response = await operator.call('POST', path, body);
    assert.equal(response.body?.code, code, `${path}: ${response.text}`);
  }
  const patch = await operator.call('PATCH', '/admin/v1/instruments', {
    category: 'SPOT',
    symbol: 'BTCUSDT',
    quantityPrecision: '99',
  });
  assert.equal(patch.body?.code, '40020');
  assert.equal(businessHash(server.services.sequencer.exchange.state), before);
});

test('live state when the last command was rejected equals a replay of the journal', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10' });
  await new Promise((resolve) => setTimeout(resolve, 5));
  await operator.call('POST', `/admin/v1/accounts/${uid}/withdrawals`, { coin: 'USDT', amount: '11' });
  const replayed = await recover(server.services.store);
  assert.equal(stateHash(replayed.exchange.state), stateHash(server.services.sequencer.exchange.state));
});

test('live state when every command was accepted equals a replay of the journal', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10' });
  await operator.withdraw(uid, { coin: 'USDT', amount: '4' });
  await operator.patchInstrument({ category: 'SPOT', symbol: 'BTCUSDT', takerFeeRate: '0.0015' });
  const replayed = await recover(server.services.store);
  assert.equal(stateHash(replayed.exchange.state), stateHash(server.services.sequencer.exchange.state));
});

test('transfer when the engine throws answers 45001, logs the command once and changes nothing', async (t) => {
  // At the server's defaults: the price feed and the liquidity provider submit meanwhile.
  const server = await serverFor(t, { env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '100' });
  const key = await operator.createApiKey(uid);
  const client = new SigningClient(server.url, key);
  const faulty = server.services.sequencer.exchange;
  // The transfer runs to the end, then the engine throws: everything it did must be undone.
  faulty.execute = (command) => {
    const result = Exchange.prototype.execute.call(faulty, command);
    if (command.type === 'TransferFunds') throw new Error('injected engine fault');
    return result;
  };
  const body = { fromType: 'spot', toType: 'usdt_futures', amount: '40', coin: 'USDT' };
  const response = await client.post('/api/v2/spot/wallet/transfer', { body });
  assert.deepEqual([response.status, response.body?.code], [500, '45001'], response.text);
  const wallets = (await operator.getAccount(uid)).wallets;
  assert.deepEqual(Object.keys(wallets), ['spot']);
  assert.equal(wallets.spot?.USDT?.available, '100');
  const faults = server.logs.filter((line) => line.includes('engine error'));
  assert.equal(faults.length, 1, faults.join('\n'));
  assert.match(faults[0] ?? '', /"type\\?":\\?"TransferFunds\\?"/);
  assert.ok(!faults[0]?.includes(key.secretKey) && !faults[0]?.includes(key.passphrase));
  assert.ok(!server.logs.some((line) => line.includes('unhandled error')), 'logged once');
  data(await client.post('/api/v2/spot/wallet/transfer', { body }));
  assert.equal((await operator.getAccount(uid)).wallets.usdt_futures?.USDT?.available, '40');
});
