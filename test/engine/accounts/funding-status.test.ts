/**
 * Pending deposits and withdrawals and their settlement: a pending deposit credits nothing
 * until it succeeds, a pending withdrawal is frozen and returns on failure, a record settles
 * once, and conservation holds at every step.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/domain/events.ts';
import type { FundingReceipt } from '../../../src/engine/accounts/external-flows.ts';
import { EngineHarness, money } from '../../support/engine-builders.ts';

function pending(harness: EngineHarness, type: 'Deposit' | 'Withdraw', uid: string, amount: string) {
  return harness.ok<FundingReceipt>({
    type,
    timeMs: harness.nowMs,
    uid,
    coin: 'USDT',
    amount: money(amount),
    wallet: 'spot',
    subType: 'onchain',
    status: 'pending',
  });
}

function settle(harness: EngineHarness, recordId: string, status: 'success' | 'fail') {
  return harness.run({ type: 'SettleFunding', timeMs: harness.nowMs, recordId, status });
}

const billsOf = (events: EngineEvent[]) =>
  events.flatMap((event) => (event.type === 'BillPosted' ? [[event.businessType, event.amount]] : []));

test('settle funding when a pending deposit succeeds credits it then, and only once', () => {
  const harness = new EngineHarness();
  const uid = harness.account();
  const receipt = pending(harness, 'Deposit', uid, '25');
  assert.equal(receipt.status, 'pending');
  assert.equal(harness.balance(uid, 'USDT').available, 0n);
  harness.assertConserved();
  const { outcome, events } = settle(harness, receipt.recordId, 'success');
  assert.ok(outcome.ok);
  assert.deepEqual(billsOf(events), [['deposit', money('25')]]);
  assert.equal(harness.balance(uid, 'USDT').available, money('25'));
  const settled = events.find((event) => event.type === 'FundingSettled');
  assert.equal(settled?.type === 'FundingSettled' ? settled.status : '', 'success');
  const twice = settle(harness, receipt.recordId, 'success');
  assert.equal(twice.outcome.ok ? 'OK' : twice.outcome.code, 'FUNDING_NOT_PENDING');
  harness.assertConserved();
});

test('settle funding when a pending deposit fails credits nothing', () => {
  const harness = new EngineHarness();
  const uid = harness.account();
  const receipt = pending(harness, 'Deposit', uid, '25');
  const { events } = settle(harness, receipt.recordId, 'fail');
  assert.deepEqual(billsOf(events), []);
  assert.equal(harness.balance(uid, 'USDT').available, 0n);
  harness.assertConserved();
});

test('settle funding when a pending withdrawal fails returns the frozen amount', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '100' });
  const receipt = pending(harness, 'Withdraw', uid, '30');
  assert.deepEqual(
    [harness.balance(uid, 'USDT').available, harness.balance(uid, 'USDT').frozen],
    [money('70'), money('30')],
  );
  const overdrawn = harness.run({
    type: 'Withdraw',
    timeMs: harness.nowMs,
    uid,
    coin: 'USDT',
    amount: money('71'),
    wallet: 'spot',
    subType: 'onchain',
    status: 'pending',
  });
  assert.equal(overdrawn.outcome.ok ? 'OK' : overdrawn.outcome.code, 'INSUFFICIENT_BALANCE');
  const { events } = settle(harness, receipt.recordId, 'fail');
  assert.deepEqual(billsOf(events), []);
  assert.deepEqual(
    [harness.balance(uid, 'USDT').available, harness.balance(uid, 'USDT').frozen],
    [money('100'), 0n],
  );
  harness.assertConserved();
});

test('settle funding when a pending withdrawal succeeds takes the frozen amount out', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '100' });
  const receipt = pending(harness, 'Withdraw', uid, '30');
  const { events } = settle(harness, receipt.recordId, 'success');
  assert.deepEqual(billsOf(events), [['withdraw', -money('30')]]);
  assert.deepEqual(
    [harness.balance(uid, 'USDT').available, harness.balance(uid, 'USDT').frozen],
    [money('70'), 0n],
  );
  assert.equal(harness.state.externalFlows.get('USDT'), money('70'));
  harness.assertConserved();
});
