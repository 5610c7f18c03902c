/**
 * ConvertCoins in the engine: the checks it makes from the command alone (expiry, the quoted
 * price bound, both balances), the four bills when it passes, and nothing moved when it fails.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConvertCoins } from '../../../src/domain/commands.ts';
import { EngineHarness, money } from '../../support/engine-builders.ts';

function setUp() {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '1000' });
  const houseUid = harness.account({ BTC: '1' });
  const command = (changes: Partial<ConvertCoins> = {}): ConvertCoins => ({
    type: 'ConvertCoins',
    timeMs: harness.nowMs,
    uid,
    houseUid,
    fromCoin: 'USDT',
    toCoin: 'BTC',
    fromAmount: money('600'),
    toAmount: money('0.00999'),
    price: '0.00001665',
    traceId: 't1',
    expiresAtMs: harness.nowMs + 8000,
    ...changes,
  });
  return { harness, uid, houseUid, command };
}

test('convert coins when the quote holds moves both coins between the account and the house', () => {
  const { harness, uid, houseUid, command } = setUp();
  const { outcome, events } = harness.run(command());
  assert.ok(outcome.ok);
  const bills = events.flatMap((event) =>
    event.type === 'BillPosted' ? [[event.uid, event.coin, event.businessType, event.amount]] : [],
  );
  assert.deepEqual(bills, [
    [uid, 'USDT', 'convert-out', -money('600')],
    [houseUid, 'USDT', 'convert-in', money('600')],
    [houseUid, 'BTC', 'convert-out', -money('0.00999')],
    [uid, 'BTC', 'convert-in', money('0.00999')],
  ]);
  assert.equal(harness.balance(uid, 'USDT').available, money('400'));
  assert.equal(harness.balance(houseUid, 'BTC').available, money('0.99001'));
  const recorded = events.find((event) => event.type === 'ConvertRecorded');
  assert.equal(recorded?.type === 'ConvertRecorded' && recorded.price, '0.00001665');
  harness.assertConserved();
});

test('convert coins when a check fails answers its code and moves nothing', () => {
  const { harness, uid, houseUid, command } = setUp();
  const cases: [Partial<ConvertCoins>, string][] = [
    [{ expiresAtMs: harness.nowMs - 1 }, 'QUOTE_EXPIRED'],
    [{ toAmount: money('0.00999001') }, 'PARAM_ERROR'],
    [{ fromAmount: money('1000.00000001'), toAmount: money('0.01') }, 'INSUFFICIENT_BALANCE'],
    [{ fromAmount: money('1000'), toAmount: money('0.01665'), houseUid: uid }, 'ACCOUNT_NOT_FOUND'],
    [{ toCoin: 'ETH', toAmount: money('0.1'), price: '0.000333' }, 'QUANTITY_ABOVE_MAXIMUM'],
    [{ toCoin: 'USDT' }, 'PARAM_ERROR'],
    [{ price: 'x' }, 'PARAM_ERROR'],
  ];
  for (const [changes, code] of cases) {
    const { outcome, events } = harness.run(command(changes));
    assert.equal(
      outcome.ok ? 'OK' : outcome.code,
      code,
      JSON.stringify(changes, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    );
    assert.deepEqual(events, []);
  }
  assert.equal(harness.balance(uid, 'USDT').available, money('1000'));
  assert.equal(harness.balance(houseUid, 'BTC').available, money('1'));
});
