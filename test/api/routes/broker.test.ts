/**
 * Sub-account transfers and the broker's sub-account deposit/withdrawal report over real
 * HTTP, on the simulated clock: bills on both sides, internal records, pending records the
 * operator settles, the report's windows (UTC days, 7-day span, 90 days), filters and paging.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../../src/engine/invariants.ts';
import type { FundingView, OperatorClient } from '../../support/operator.ts';
import {
  admin,
  availableOf,
  data,
  harness,
  mainAccount,
  refusal,
  type Harness,
  type Rows,
  type Trader,
} from './broker-helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const REPORT = '/api/v2/broker/all-sub-deposit-withdrawal';
const SUB_TRANSFER = '/api/v2/spot/wallet/subaccount-transfer';

/** Moves the simulated clock to `targetMs` (forward only). */
async function advanceTo(operator: OperatorClient, targetMs: number): Promise<void> {
  const now = Number((await operator.getClock()).nowMs);
  assert.ok(targetMs >= now, 'the clock only moves forward');
  if (targetMs > now) await operator.advanceClock(targetMs - now);
}

/** 00:00 UTC two days after the simulated clock's current day began: always more than a day ahead. */
async function nextUtcMidnight(operator: OperatorClient): Promise<number> {
  const now = Number((await operator.getClock()).nowMs);
  // The midnight after next: the tests start an hour before it, which the next midnight may
  // not leave room for (the clock starts at the wall time, and it may be 23:30 UTC).
  return Math.floor(now / DAY) * DAY + 2 * DAY;
}

async function brokerWithSubs(h: Harness, count: number): Promise<{ broker: Trader; subs: string[] }> {
  const broker = await mainAccount(h, { funds: [['spot', 'USDT', '1000']] });
  const subs: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { uid } = await h.operator.createAccount({ kind: 'virtual', parentUid: broker.uid });
    subs.push(uid);
  }
  return { broker, subs };
}

test('sub-account transfer when the main account moves funds writes bills on both sides and internal records', async (t) => {
  const h = await harness(t, { BOURSE_CLOCK: 'simulated' });
  const { broker, subs } = await brokerWithSubs(h, 2);
  const [one = '', two = ''] = subs;
  const move = (body: Record<string, unknown>) => broker.client.post(SUB_TRANSFER, { body });
  const down = data<{ transferId: string; clientOid: string }>(
    await move({
      fromType: 'spot',
      toType: 'spot',
      amount: '300',
      coin: 'USDT',
      fromUserId: broker.uid,
      toUserId: one,
      clientOid: 'd1',
    }),
  );
  data(
    await move({
      fromType: 'spot',
      toType: 'usdt_futures',
      amount: '100',
      coin: 'USDT',
      fromUserId: one,
      toUserId: two,
    }),
  );
  data(
    await move({
      fromType: 'spot',
      toType: 'crossed_margin',
      amount: '50',
      coin: 'USDT',
      fromUserId: one,
      toUserId: broker.uid,
    }),
  );
  // Broker 1000 − 300 + 50; one: 300 − 100 − 50; two: 100 in its USDT futures wallet.
  assert.deepEqual(await availableOf(h.operator, broker.uid), {
    'spot:USDT': '700',
    'crossed_margin:USDT': '50',
  });
  assert.deepEqual(await availableOf(h.operator, one), { 'spot:USDT': '150' });
  assert.deepEqual(await availableOf(h.operator, two), { 'usdt_futures:USDT': '100' });
  const brokerBills = data<Rows>(await broker.client.get('/api/v2/spot/account/bills'));
  assert.deepEqual(
    brokerBills.map((bill) => [bill.businessType, bill.size]),
    [
      ['transfer-out', '-300'],
      ['deposit', '1000'],
    ],
  );
  const records = data<Rows>(await broker.client.get('/api/v2/spot/account/sub-main-trans-record'));
  assert.deepEqual(
    records.map((row) => [row.fromUserId, row.toUserId, row.fromType, row.toType, row.size, row.clientOid]),
    [
      [one, broker.uid, 'spot', 'crossed_margin', '50', ''],
      [one, two, 'spot', 'usdt_futures', '100', ''],
      [broker.uid, one, 'spot', 'spot', '300', 'd1'],
    ],
  );
  const withTwo = data<Rows>(
    await broker.client.get('/api/v2/spot/account/sub-main-trans-record', { query: { subUid: two } }),
  );
  assert.equal(withTwo.length, 1);
  // The broker report lists the internal flows of the sub-accounts (today's window).
  const now = Number((await h.operator.getClock()).nowMs);
  const report = data<{ list: Rows; endId: string }>(
    await broker.client.get(REPORT, {
      query: { startTime: String(now - HOUR), endTime: String(now + HOUR) },
    }),
  );
  assert.deepEqual(
    report.list.map((row) => [row.uid, row.type, row.subType, row.amount, row.status]),
    [
      [one, 'withdrawal', 'internal', '50', 'success'],
      [two, 'deposit', 'internal', '100', 'success'],
      [one, 'withdrawal', 'internal', '100', 'success'],
      [one, 'deposit', 'internal', '300', 'success'],
    ],
  );
  assert.equal(report.list[3]?.txId, down.transferId);
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});

test('sub-account transfer when the parties or the key are wrong answers the venue codes', async (t) => {
  const h = await harness(t);
  const { broker, subs } = await brokerWithSubs(h, 1);
  const [one = ''] = subs;
  const stranger = await mainAccount(h, { funds: [['spot', 'USDT', '10']] });
  const body = {
    fromType: 'spot',
    toType: 'spot',
    amount: '1',
    coin: 'USDT',
    fromUserId: broker.uid,
    toUserId: one,
  };
  const send = (client: Trader['client'], fields: Record<string, unknown>) =>
    client.post(SUB_TRANSFER, { body: { ...body, ...fields } });
  assert.deepEqual(refusal(await send(broker.client, { toUserId: stranger.uid })), [
    '40020',
    'Parameter toUserId error',
  ]);
  assert.deepEqual(refusal(await send(broker.client, { toUserId: broker.uid })), [
    '40020',
    'Parameter toUserId error',
  ]);
  assert.deepEqual(refusal(await send(broker.client, { toUserId: '9999999999' })), [
    '40034',
    'Parameter toUserId does not exist',
  ]);
  assert.deepEqual(refusal(await send(broker.client, { amount: '5000' })), ['43012', 'Insufficient balance']);
  const unbound = await mainAccount(h, { ipList: [] });
  assert.deepEqual(refusal(await send(unbound.client, {})), ['40018', 'Invalid IP']);
  const subKey = await h.operator.createApiKey(one, { ipList: ['127.0.0.1'] });
  const { SigningClient } = await import('../../support/signing.ts');
  const asSub = new SigningClient(h.server.url, subKey);
  assert.deepEqual(refusal(await send(asSub, {})), [
    '40014',
    'Incorrect permissions, need main account permissions',
  ]);
  assert.deepEqual(await availableOf(h.operator, broker.uid), { 'spot:USDT': '1000' });
});

test('broker report when records are pending is settled by the operator: deposits credit on success, failed withdrawals return', async (t) => {
  const h = await harness(t, { BOURSE_CLOCK: 'simulated' });
  const { broker, subs } = await brokerWithSubs(h, 1);
  const [sub = ''] = subs;
  await h.operator.deposit(sub, { coin: 'USDT', amount: '100' });
  const pendingIn = await admin<FundingView>(h.operator, 'POST', `/admin/v1/accounts/${sub}/deposits`, {
    coin: 'USDT',
    amount: '40',
    subType: 'fast',
    status: 'pending',
  });
  const pendingOut = await admin<FundingView>(h.operator, 'POST', `/admin/v1/accounts/${sub}/withdrawals`, {
    coin: 'USDT',
    amount: '30',
    status: 'pending',
  });
  assert.equal(pendingIn.status, 'pending');
  // The deposit is not credited yet; the withdrawal is frozen.
  const account = await h.operator.getAccount(sub);
  assert.deepEqual(account.wallets.spot?.USDT, { available: '70', frozen: '30', borrowed: '0' });
  const today = async () => {
    const now = Number((await h.operator.getClock()).nowMs);
    return data<{ list: Rows }>(
      await broker.client.get(REPORT, { query: { startTime: String(now - HOUR), endTime: String(now) } }),
    ).list.map((row) => [row.type, row.subType, row.amount, row.status]);
  };
  assert.deepEqual(await today(), [
    ['withdrawal', 'onchain', '30', 'pending'],
    ['deposit', 'fast', '40', 'pending'],
    ['deposit', 'onchain', '100', 'success'],
  ]);
  await h.operator.advanceClock(60_000);
  const settled = await admin<{ recordId: string; status: string }>(
    h.operator,
    'POST',
    `/admin/v1/funding/${pendingIn.id}/settle`,
    { status: 'success' },
  );
  assert.deepEqual(settled, { recordId: pendingIn.id, status: 'success' });
  await admin(h.operator, 'POST', `/admin/v1/funding/${pendingOut.id}/settle`, { status: 'fail' });
  const again = await h.operator.call('POST', `/admin/v1/funding/${pendingIn.id}/settle`, { status: 'fail' });
  assert.deepEqual(refusal(again), ['40020', 'Parameter recordId error']);
  // 100 + 40 credited; the failed 30 withdrawal is back in available.
  const after = await h.operator.getAccount(sub);
  assert.deepEqual(after.wallets.spot?.USDT, { available: '140', frozen: '0', borrowed: '0' });
  const now = Number((await h.operator.getClock()).nowMs);
  const rows = data<{ list: Rows }>(
    await broker.client.get(REPORT, { query: { startTime: String(now - HOUR), endTime: String(now) } }),
  ).list;
  assert.deepEqual(
    rows.map((row) => [row.type, row.amount, row.status, row.ts === String(now)]),
    [
      ['withdrawal', '30', 'fail', true],
      ['deposit', '40', 'success', true],
      ['deposit', '100', 'success', false],
    ],
  );
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});

test('broker report when no window is given lists yesterday (UTC) with type filters and paging', async (t) => {
  const h = await harness(t, { BOURSE_CLOCK: 'simulated' });
  const { broker, subs } = await brokerWithSubs(h, 2);
  const [one = '', two = ''] = subs;
  const day = await nextUtcMidnight(h.operator);
  await advanceTo(h.operator, day - HOUR); // the day before: not in yesterday's window
  await h.operator.deposit(one, { coin: 'USDT', amount: '1' });
  await advanceTo(h.operator, day + HOUR);
  await h.operator.deposit(one, { coin: 'USDT', amount: '10' });
  await h.operator.deposit(two, { coin: 'BTC', amount: '0.5' });
  await h.operator.withdraw(one, { coin: 'USDT', amount: '4' });
  await advanceTo(h.operator, day + DAY - 1);
  await h.operator.deposit(two, { coin: 'USDT', amount: '20' });
  await advanceTo(h.operator, day + DAY + 5 * HOUR);
  await h.operator.deposit(two, { coin: 'USDT', amount: '99' }); // today: not yesterday
  const report = (query: Record<string, string> = {}) =>
    broker.client.get<{ list: Rows; endId: string }>(REPORT, { query });
  const amounts = (rows: Rows) =>
    rows.map((row) => `${row.uid === one ? 'one' : 'two'}:${row.type}:${row.amount}:${row.coin}`);
  const yesterday = data<{ list: Rows; endId: string }>(await report());
  assert.deepEqual(amounts(yesterday.list), [
    'two:deposit:20:USDT',
    'one:withdrawal:4:USDT',
    'two:deposit:0.5:BTC',
    'one:deposit:10:USDT',
  ]);
  const explicit = data<{ list: Rows }>(
    await report({ startTime: String(day), endTime: String(day + DAY - 1) }),
  );
  assert.deepEqual(amounts(explicit.list), amounts(yesterday.list));
  assert.deepEqual(amounts(data<{ list: Rows }>(await report({ type: 'withdrawal' })).list), [
    'one:withdrawal:4:USDT',
  ]);
  assert.deepEqual(amounts(data<{ list: Rows }>(await report({ type: 'deposit', limit: '2' })).list), [
    'two:deposit:20:USDT',
    'two:deposit:0.5:BTC',
  ]);
  const first = data<{ list: Rows; endId: string }>(await report({ limit: '3' }));
  const second = data<{ list: Rows; endId: string }>(await report({ limit: '3', idLessThan: first.endId }));
  assert.deepEqual([...amounts(first.list), ...amounts(second.list)], amounts(yesterday.list));
  assert.equal(data<{ list: Rows }>(await report({ limit: '1000' })).list.length, 4, 'over 100 gives 100');
  const wide = data<{ list: Rows }>(
    await report({ startTime: String(day - DAY), endTime: String(day + 6 * DAY) }),
  );
  assert.equal(wide.list.length, 6, 'exactly 7 days is allowed');
  assert.deepEqual(refusal(await report({ startTime: String(day) })), [
    '40019',
    'Parameter endTime cannot be empty',
  ]);
  assert.deepEqual(refusal(await report({ endTime: String(day) })), [
    '40019',
    'Parameter startTime cannot be empty',
  ]);
  assert.deepEqual(
    refusal(await report({ startTime: String(day - DAY), endTime: String(day + 6 * DAY + 1) })),
    ['40017', 'Parameter verification failed the time span exceeds 7 days'],
  );
  const now = day + DAY + 5 * HOUR;
  assert.deepEqual(
    refusal(await report({ startTime: String(now - 91 * DAY), endTime: String(now - 90 * DAY) })),
    ['40017', 'Parameter verification failed startTime is older than 90 days'],
  );
  assert.deepEqual(refusal(await report({ type: 'both' })), ['40020', 'Parameter type error']);
});

test('broker report when the caller has no sub-accounts or is one answers 40014', async (t) => {
  const h = await harness(t);
  const lonely = await mainAccount(h);
  assert.deepEqual(refusal(await lonely.client.get(REPORT)), [
    '40014',
    'Incorrect permissions, need broker permissions',
  ]);
  const { subs } = await brokerWithSubs(h, 1);
  const { SigningClient } = await import('../../support/signing.ts');
  const sub = new SigningClient(h.server.url, await h.operator.createApiKey(subs[0] ?? ''));
  assert.deepEqual(refusal(await sub.get(REPORT)), [
    '40014',
    'Incorrect permissions, need main account permissions',
  ]);
});

test('pending record when the server restarts is still pending and settles afterwards', async (t) => {
  const { makeTempDir, removeDir, startTestServer, TEST_OPERATOR_TOKEN } =
    await import('../../support/server.ts');
  const { OperatorClient } = await import('../../support/operator.ts');
  const dataDir = makeTempDir();
  t.after(() => removeDir(dataDir));
  const env = { BOURSE_CLOCK: 'simulated', BOURSE_SEED_DEMO: 'false' };
  const first = await startTestServer({ dataDir, env });
  const operator = new OperatorClient(first.url, TEST_OPERATOR_TOKEN);
  const { uid: main } = await operator.createAccount();
  const { uid: sub } = await operator.createAccount({ kind: 'virtual', parentUid: main });
  const pending = await admin<FundingView>(operator, 'POST', `/admin/v1/accounts/${sub}/deposits`, {
    coin: 'USDT',
    amount: '12',
    status: 'pending',
  });
  await first.stop();
  const second = await startTestServer({ dataDir, env });
  t.after(() => second.close());
  const again = new OperatorClient(second.url, TEST_OPERATOR_TOKEN);
  await admin(again, 'POST', `/admin/v1/funding/${pending.id}/settle`, { status: 'success' });
  assert.deepEqual((await again.getAccount(sub)).wallets.spot?.USDT?.available, '12');
  const rows = await second.services.store.brokerFunding({
    parentUid: main,
    startTimeMs: 0,
    endTimeMs: Number.MAX_SAFE_INTEGER,
    limit: 10,
  });
  assert.deepEqual(
    rows.map((row) => [row.uid, row.amount, row.status]),
    [[sub, 1_200_000_000n, 'success']],
  );
});
