/**
 * Engine transfers: a refused transfer changes nothing (state hash), bills on both sides,
 * conservation, sub-account rules and the internal records, clientOid idempotency, and the
 * clientOid window forgotten on the clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TransferFunds } from '../../../src/domain/commands.ts';
import type { EngineEvent } from '../../../src/domain/events.ts';
import { stateHash } from '../../../src/engine/state-hash.ts';
import { EngineHarness, money } from '../../support/engine-builders.ts';

function transfer(harness: EngineHarness, fields: Partial<TransferFunds> & { uid: string }): TransferFunds {
  return {
    type: 'TransferFunds',
    timeMs: harness.nowMs,
    kind: 'wallet',
    fromUid: fields.uid,
    toUid: fields.uid,
    fromWallet: 'spot',
    toWallet: 'usdt_futures',
    coin: 'USDT',
    amount: money('10'),
    clientOid: '',
    ...fields,
  };
}

function eventsOf(events: EngineEvent[], type: EngineEvent['type']) {
  return events.filter((event) => event.type === type);
}

test('transfer when refused leaves the state hash unchanged', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '5' });
  const before = stateHash(harness.state);
  const cases: [Partial<TransferFunds>, string][] = [
    [{ amount: money('6') }, 'INSUFFICIENT_BALANCE'],
    [{ amount: 0n }, 'PARAM_ERROR'],
    [{ toWallet: 'spot' }, 'PARAM_ERROR'],
    [{ toWallet: 'unified' }, 'PARAM_ERROR'],
    [{ coin: 'BTC' }, 'PARAM_ERROR'],
    [{ coin: 'NOPE' }, 'COIN_NOT_FOUND'],
    [{ toWallet: 'isolated_margin:NOPEUSDT' }, 'PARAM_ERROR'],
    [{ kind: 'sub', toUid: uid }, 'PARAM_ERROR'],
  ];
  for (const [fields, code] of cases) {
    const { outcome, events } = harness.run(transfer(harness, { uid, ...fields }));
    assert.equal(outcome.ok ? 'OK' : outcome.code, code, Object.keys(fields).join(','));
    assert.deepEqual(eventsOf(events, 'BillPosted'), []);
  }
  // The harness clock stands still, so even the clock jobs change nothing.
  assert.equal(stateHash(harness.state), before);
  assert.equal(harness.balance(uid, 'USDT').available, money('5'));
  harness.assertConserved();
});

test('transfer when accepted writes a bill on each side with the venue business types', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '100' });
  const { events } = harness.run(transfer(harness, { uid, amount: money('40') }));
  const bills = eventsOf(events, 'BillPosted').map((event) =>
    event.type === 'BillPosted' ? [event.wallet, event.businessType, event.amount, event.balanceAfter] : [],
  );
  assert.deepEqual(bills, [
    ['spot', 'transfer-out', -money('40'), money('60')],
    ['usdt_futures', 'trans_from_exchange', money('40'), money('40')],
  ]);
  const back = harness.run(
    transfer(harness, { uid, fromWallet: 'usdt_futures', toWallet: 'crossed_margin', amount: money('15') }),
  );
  assert.deepEqual(
    eventsOf(back.events, 'BillPosted').map((event) =>
      event.type === 'BillPosted' ? event.businessType : '',
    ),
    ['trans_to_exchange', 'transfer-in'],
  );
  harness.assertConserved();
});

test('transfer when a clientOid repeats returns the first transfer until the window passes', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '100' });
  const first = harness.ok<{ transferId: string }>(transfer(harness, { uid, clientOid: 'k' }));
  const again = harness.run(transfer(harness, { uid, clientOid: 'k' }));
  assert.deepEqual(again.outcome, { ok: true, value: { transferId: first.transferId, clientOid: 'k' } });
  assert.deepEqual(eventsOf(again.events, 'BillPosted'), []);
  const different = harness.run(transfer(harness, { uid, clientOid: 'k', amount: money('1') }));
  assert.equal(different.outcome.ok ? 'OK' : different.outcome.code, 'DUPLICATE_CLIENT_OID');
  harness.nowMs += 7 * 60 * 60 * 1000;
  const later = harness.ok<{ transferId: string }>(transfer(harness, { uid, clientOid: 'k' }));
  assert.notEqual(later.transferId, first.transferId, 'six hours later the clientOid is free again');
  assert.deepEqual(harness.balance(uid, 'USDT').available, money('80'));
});

test('sub-account transfer when between two sub-accounts records an internal flow for each', () => {
  const harness = new EngineHarness();
  const main = harness.account({ USDT: '100' });
  const sub = (kind: 'sub' | 'virtual') =>
    harness.ok<{ uid: string }>({
      type: 'CreateAccount',
      timeMs: harness.nowMs,
      kind,
      parentUid: main,
      mode: 'classic',
      label: '',
    }).uid;
  const [one, two] = [sub('virtual'), sub('sub')];
  const other = harness.account({ USDT: '100' });
  const move = (fromUid: string, toUid: string, uid = main) =>
    harness.run(
      transfer(harness, { uid, kind: 'sub', fromUid, toUid, toWallet: 'spot', amount: money('10') }),
    );
  assert.equal(move(main, one).outcome.ok, true);
  const between = move(one, two);
  assert.deepEqual(
    eventsOf(between.events, 'FundingRecorded').map((event) =>
      event.type === 'FundingRecorded' ? [event.uid, event.direction, event.subType, event.parentUid] : [],
    ),
    [
      [one, 'withdrawal', 'internal', main],
      [two, 'deposit', 'internal', main],
    ],
  );
  const codeOf = (result: ReturnType<typeof move>) => (result.outcome.ok ? 'OK' : result.outcome.code);
  assert.equal(codeOf(move(main, other)), 'PARAM_ERROR');
  assert.equal(codeOf(move(two, one, one)), 'PERMISSION_DENIED');
  assert.equal(codeOf(move(main, main)), 'PARAM_ERROR');
  harness.ok({
    type: 'ModifySubAccount',
    timeMs: harness.nowMs,
    parentUid: main,
    uid: two,
    status: 'freeze',
  });
  assert.equal(codeOf(move(two, one)), 'USER_STATUS_ABNORMAL');
  harness.assertConserved();
});
