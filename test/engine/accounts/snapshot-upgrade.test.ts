/**
 * A snapshot written before the transfer and agent state existed still loads: the missing
 * fields start empty and commands run on it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Exchange } from '../../../src/engine/exchange.ts';
import type { EngineState } from '../../../src/engine/state.ts';
import { decode, encode } from '../../../src/persistence/codec.ts';
import { EngineHarness, money } from '../../support/engine-builders.ts';

test('exchange when a snapshot lacks the brokerage state starts it empty and keeps working', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '10' });
  const old = JSON.parse(encode(harness.state)) as Record<string, unknown>;
  delete old.brokerage;
  const exchange = new Exchange(decode<EngineState>(JSON.stringify(old)));
  assert.equal(exchange.state.brokerage.pendingFunding.size, 0);
  const { outcome } = exchange.execute({
    type: 'TransferFunds',
    timeMs: harness.nowMs + 1,
    uid,
    kind: 'wallet',
    fromUid: uid,
    toUid: uid,
    fromWallet: 'spot',
    toWallet: 'crossed_margin',
    coin: 'USDT',
    amount: money('4'),
    clientOid: '',
  });
  assert.ok(outcome.ok);
});
