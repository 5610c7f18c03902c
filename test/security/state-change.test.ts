/**
 * A request the engine rejects changes no business state: balances, accounts, keys,
 * instruments, ids stay as they were. Only the engine clock moves (the sequencer journals
 * failed commands too, so the clock and its jobs replay exactly; src/runtime/sequencer.ts),
 * which is why these comparisons leave `nowMs` out. The live state always equals a replay.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stateHash } from '../../src/engine/state-hash.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
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
