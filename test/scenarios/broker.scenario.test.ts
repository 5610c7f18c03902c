/**
 * The broker and the agent over real HTTP on the simulated clock (issue 6, "Done when").
 *
 * Broker: a main account creates two virtual sub-accounts and a key for each; the keys trade
 * within their permissions and are refused outside them; the operator deposits and withdraws
 * for them; the broker report lists exactly those records with each filter and the paging.
 *
 * Agent: two referred customers trade spot (BTCUSDT, 0.1 % maker and taker, fee in the coin
 * received) and USDT futures (BTCUSDT, maker 0.02 %, taker 0.06 %, fee in USDT) over two
 * UTC+8 days; the commission report is checked against fees × rebate rate computed by hand
 * (spot 30 %, futures 20 %), per day, coin and symbol; KYC results appear in UTC+8 windows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import {
  admin,
  data,
  harness,
  mainAccount,
  refusal,
  type Harness,
  type Rows,
  type Trader,
} from '../api/routes/broker-helpers.ts';
import type { OperatorClient } from '../support/operator.ts';
import { SigningClient } from '../support/signing.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const UTC8 = 8 * HOUR;

async function clockNow(operator: OperatorClient): Promise<number> {
  return Number((await operator.getClock()).nowMs);
}

async function advanceTo(operator: OperatorClient, targetMs: number): Promise<void> {
  const now = await clockNow(operator);
  assert.ok(targetMs > now, 'the clock only moves forward');
  await operator.advanceClock(targetMs - now);
}

/** 00:00 UTC+8 of the next day on the simulated clock. */
async function nextUtc8Midnight(operator: OperatorClient): Promise<number> {
  const now = await clockNow(operator);
  return Math.floor((now + UTC8) / DAY) * DAY + DAY - UTC8;
}

interface SubKey {
  subAccountApiKey: string;
  secretKey: string;
  permList: string[];
}

async function virtualSub(h: Harness, broker: Trader, alias: string, permList: string[]) {
  const created = data<{ successList: { subaAccountUid: string }[] }>(
    await broker.client.post('/api/v2/user/create-virtual-subaccount', { body: { subAccountList: [alias] } }),
  );
  const uid = created.successList[0]?.subaAccountUid ?? '';
  const key = data<SubKey>(
    await broker.client.post('/api/v2/user/create-virtual-subaccount-apikey', {
      body: { subAccountUid: uid, passphrase: 'brokerKey1', label: alias, permList, ipList: ['127.0.0.1'] },
    }),
  );
  assert.deepEqual(key.permList, permList);
  const client = new SigningClient(h.server.url, {
    apiKey: key.subAccountApiKey,
    secretKey: key.secretKey,
    passphrase: 'brokerKey1',
  });
  return { uid, client };
}

const futuresOrder = (fields: Record<string, string>) => ({
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginMode: 'crossed',
  marginCoin: 'USDT',
  orderType: 'limit',
  force: 'gtc',
  ...fields,
});

test('broker scenario when a main account runs two virtual sub-accounts ends with exactly its records', async (t) => {
  const h = await harness(t, { BOURSE_CLOCK: 'simulated' });
  const broker = await mainAccount(h, { funds: [['spot', 'USDT', '10000']] });
  const spotSub = await virtualSub(h, broker, 'spotsubb', ['spot_trade', 'transfer']);
  const futuresSub = await virtualSub(h, broker, 'futsubbb', ['contract_trade']);

  // The operator funds them; the broker moves 2000 USDT into the futures sub's futures wallet.
  const day = await nextUtc8Midnight(h.operator); // any day start works for the UTC report too
  await advanceTo(h.operator, day + 8 * HOUR + HOUR); // 01:00 UTC
  await h.operator.deposit(spotSub.uid, { coin: 'USDT', amount: '500' });
  const fast = await admin<{ id: string }>(
    h.operator,
    'POST',
    `/admin/v1/accounts/${futuresSub.uid}/deposits`,
    {
      coin: 'BTC',
      amount: '0.1',
      subType: 'fast',
      status: 'pending',
    },
  );
  const transfer = data<{ transferId: string }>(
    await broker.client.post('/api/v2/spot/wallet/subaccount-transfer', {
      body: {
        fromType: 'spot',
        toType: 'usdt_futures',
        amount: '2000',
        coin: 'USDT',
        fromUserId: broker.uid,
        toUserId: futuresSub.uid,
      },
    }),
  );

  // Within their permissions.
  data(
    await spotSub.client.post('/api/v2/spot/trade/place-order', {
      body: {
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        force: 'gtc',
        price: '50000',
        size: '0.002',
      },
    }),
  );
  data(
    await spotSub.client.post('/api/v2/spot/wallet/transfer', {
      body: { fromType: 'spot', toType: 'crossed_margin', amount: '5', coin: 'USDT' },
    }),
  );
  data(
    await futuresSub.client.post('/api/v2/mix/order/place-order', {
      body: futuresOrder({ side: 'buy', price: '50000', size: '0.01' }),
    }),
  );
  // Outside them.
  assert.equal(
    refusal(
      await spotSub.client.post('/api/v2/mix/order/place-order', {
        body: futuresOrder({ side: 'buy', price: '50000', size: '0.01' }),
      }),
    )[0],
    '40014',
  );
  assert.equal(
    refusal(
      await futuresSub.client.post('/api/v2/spot/trade/place-order', {
        body: {
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          force: 'gtc',
          price: '50000',
          size: '0.002',
        },
      }),
    )[0],
    '40014',
  );
  assert.equal(
    refusal(
      await futuresSub.client.post('/api/v2/spot/wallet/transfer', {
        body: { fromType: 'usdt_futures', toType: 'spot', amount: '1', coin: 'USDT' },
      }),
    )[0],
    '40014',
  );
  assert.equal(
    refusal(
      await spotSub.client.post('/api/v2/user/create-virtual-subaccount', {
        body: { subAccountList: ['x'] },
      }),
    )[0],
    '40014',
  );

  // Two hours later the operator withdraws for the spot sub, and settles the pending deposit.
  await advanceTo(h.operator, day + 8 * HOUR + 3 * HOUR);
  await h.operator.withdraw(spotSub.uid, { coin: 'USDT', amount: '100', subType: 'onchain' });
  const report = (query: Record<string, string> = {}) =>
    broker.client.get<{ list: Rows; endId: string }>('/api/v2/broker/all-sub-deposit-withdrawal', { query });
  const todayWindow = { startTime: String(day + 8 * HOUR), endTime: String(day + 8 * HOUR + DAY - 1) };
  const before = data<{ list: Rows }>(await report(todayWindow)).list;
  assert.deepEqual(
    before.filter((row) => row.status === 'pending').map((row) => [row.uid, row.amount]),
    [[futuresSub.uid, '0.1']],
  );
  await admin(h.operator, 'POST', `/admin/v1/funding/${fast.id}/settle`, { status: 'success' });

  // The next day (UTC) the default window is yesterday: exactly these records, newest first.
  await advanceTo(h.operator, day + 8 * HOUR + DAY + 2 * HOUR);
  const expected = [
    [spotSub.uid, 'withdrawal', 'onchain', 'USDT', '100', 'success'],
    [futuresSub.uid, 'deposit', 'internal', 'USDT', '2000', 'success'],
    [futuresSub.uid, 'deposit', 'fast', 'BTC', '0.1', 'success'],
    [spotSub.uid, 'deposit', 'onchain', 'USDT', '500', 'success'],
  ];
  const shape = (rows: Rows) =>
    rows.map((row) => [row.uid, row.type, row.subType, row.coin, row.amount, row.status]);
  const yesterday = data<{ list: Rows; endId: string }>(await report());
  assert.deepEqual(shape(yesterday.list), expected);
  assert.equal(yesterday.list[1]?.txId, transfer.transferId);
  assert.deepEqual(shape(data<{ list: Rows }>(await report({ type: 'deposit' })).list), [
    expected[1],
    expected[2],
    expected[3],
  ]);
  assert.deepEqual(shape(data<{ list: Rows }>(await report({ type: 'withdrawal' })).list), [expected[0]]);
  const pageOne = data<{ list: Rows; endId: string }>(await report({ limit: '3' }));
  const pageTwo = data<{ list: Rows; endId: string }>(
    await report({ limit: '3', idLessThan: pageOne.endId }),
  );
  assert.deepEqual([...shape(pageOne.list), ...shape(pageTwo.list)], expected);
  assert.deepEqual(
    shape(data<{ list: Rows }>(await report({ limit: '3', idLessThan: pageTwo.endId })).list),
    [],
  );
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});

interface Commission {
  uid: string;
  date: string;
  coin: string;
  symbol: string;
  dealAmount: string;
  fee: string;
  feePaid: string;
  rebateAmount: string;
  dayTotalRebateAmount: string;
  totalRebateAmount: string;
  [field: string]: string;
}

test('agent scenario when referred customers trade for two days pays fees × rate per day, coin and symbol', async (t) => {
  const h = await harness(t, { BOURSE_CLOCK: 'simulated' });
  const { operator } = h;
  const funds: [string, string, string][] = [
    ['spot', 'USDT', '20000'],
    ['spot', 'BTC', '1'],
    ['usdt_futures', 'USDT', '20000'],
  ];
  const agent = await mainAccount(h);
  const c1 = await mainAccount(h, { funds });
  const c2 = await mainAccount(h, { funds });
  const outsider = await mainAccount(h, { funds });
  await admin(operator, 'POST', '/admin/v1/agents', {
    uid: agent.uid,
    rebateRate: '0.3',
    futuresRebateRate: '0.2',
  });

  const day1 = await nextUtc8Midnight(operator);
  const day2 = day1 + DAY;
  const spot = (who: Trader, side: string, size: string) =>
    who.client.post('/api/v2/spot/trade/place-order', {
      body: { symbol: 'BTCUSDT', side, orderType: 'limit', force: 'gtc', price: '60000', size },
    });
  const futures = (who: Trader, side: string, extra: Record<string, string> = {}) =>
    who.client.post('/api/v2/mix/order/place-order', {
      body: futuresOrder({ side, price: '60000', size: '0.1', ...extra }),
    });

  // Day 1, 01:00 UTC+8: C1 buys 0.01 BTC from the outsider before it is referred (no commission).
  await advanceTo(operator, day1 + HOUR);
  data(await spot(outsider, 'sell', '0.01'));
  data(await spot(c1, 'buy', '0.01'));
  await admin(operator, 'POST', `/admin/v1/agents/${agent.uid}/customers`, { customerUid: c1.uid });
  await admin(operator, 'POST', `/admin/v1/agents/${agent.uid}/customers`, { customerUid: c2.uid });
  await admin(operator, 'PUT', `/admin/v1/accounts/${c1.uid}/kyc`, { result: 'passed' });
  await admin(operator, 'PUT', `/admin/v1/accounts/${outsider.uid}/kyc`, { result: 'passed' });

  // Day 1, 02:00: C2 sells 0.1 BTC (maker), C1 buys it (taker); the outsider sells 0.05 to C1.
  await advanceTo(operator, day1 + 2 * HOUR);
  data(await spot(c2, 'sell', '0.1'));
  data(await spot(c1, 'buy', '0.1'));
  data(await spot(outsider, 'sell', '0.05'));
  data(await spot(c1, 'buy', '0.05'));
  // Futures: C2 opens short 0.1 (maker), C1 opens long 0.1 (taker).
  data(await futures(c2, 'sell'));
  data(await futures(c1, 'buy'));

  // Day 1, 23:00: nothing reported yet for day 1 (T+1).
  await advanceTo(operator, day1 + 23 * HOUR);
  const commissions = (query: Record<string, string> = {}, path = '/api/v2/broker/customer-commissions') =>
    agent.client.get<{ commissionList: Commission[]; endId: string }>(path, { query });
  const day1Window = { startTime: String(day1), endTime: String(day1 + DAY - 1) };
  assert.deepEqual(data<{ commissionList: unknown[] }>(await commissions(day1Window)).commissionList, []);

  // Day 2, 03:00: C1 sells 0.05 BTC (maker) to C2 (taker); both close their futures positions.
  await advanceTo(operator, day2 + 3 * HOUR);
  await admin(operator, 'PUT', `/admin/v1/accounts/${c2.uid}/kyc`, { result: 'not_passed' });
  data(await spot(c1, 'sell', '0.05'));
  data(await spot(c2, 'buy', '0.05'));
  data(await futures(c1, 'sell', { reduceOnly: 'YES' }));
  data(await futures(c2, 'buy', { reduceOnly: 'YES' }));

  // Day 3, 01:00 UTC+8: days 1 and 2 are closed.
  await advanceTo(operator, day2 + DAY + HOUR);
  const row = (uid: string, date: number, coin: string, symbol: string, figures: string[]) => {
    const [dealAmount, fee, rebateAmount, dayTotalRebateAmount, totalRebateAmount] = figures;
    return {
      uid,
      date: String(date),
      coin,
      symbol,
      dealAmount,
      fee,
      rebateAmount,
      dayTotalRebateAmount,
      totalRebateAmount,
    };
  };
  const pick = (rows: Commission[]) =>
    rows.map((item) => ({
      uid: item.uid,
      date: item.date,
      coin: item.coin,
      symbol: item.symbol,
      dealAmount: item.dealAmount,
      fee: item.fee,
      rebateAmount: item.rebateAmount,
      dayTotalRebateAmount: item.dayTotalRebateAmount,
      totalRebateAmount: item.totalRebateAmount,
    }));
  const byKey = (rows: ReturnType<typeof pick>) =>
    [...rows].sort((a, b) =>
      `${a.date}${a.uid}${a.coin}${a.symbol}`.localeCompare(`${b.date}${b.uid}${b.coin}${b.symbol}`),
    );
  // Day 1 by hand:
  //  C1 spot: bought 0.1 + 0.05 BTC (taker) for 6000 + 3000 USDT; fee 0.1 % of the BTC received
  //    = 0.0001 + 0.00005 = 0.00015 BTC; rebate 30 % = 0.000045 BTC.
  //  C2 spot: sold 0.1 BTC (maker) for 6000 USDT; fee 6 USDT; rebate 1.8.
  //  C1 futures: opened 0.1 × 60000 = 6000 (taker 0.06 %) fee 3.6; rebate 20 % = 0.72.
  //  C2 futures: 6000 (maker 0.02 %) fee 1.2; rebate 0.24. C2's USDT day total 1.8 + 0.24 = 2.04.
  const day1Expected = [
    row(c1.uid, day1, 'BTC', 'BTCUSDT_SPBL', ['9000', '0.00015', '0.000045', '0.000045', '0.000045']),
    row(c1.uid, day1, 'USDT', 'BTCUSDT_UMCBL', ['6000', '3.6', '0.72', '0.72', '0.72']),
    row(c2.uid, day1, 'USDT', 'BTCUSDT_SPBL', ['6000', '6', '1.8', '2.04', '2.04']),
    row(c2.uid, day1, 'USDT', 'BTCUSDT_UMCBL', ['6000', '1.2', '0.24', '2.04', '2.04']),
  ];
  // Day 2 by hand:
  //  C1 spot: sold 0.05 BTC (maker) for 3000 USDT; fee 3 USDT; rebate 0.9.
  //  C1 futures: closed 0.1 at 60000 (maker) fee 1.2; rebate 0.24. USDT day total 1.14;
  //    over both days 0.72 + 1.14 = 1.86.
  //  C2 spot: bought 0.05 BTC (taker) for 3000 USDT; fee 0.00005 BTC; rebate 0.000015.
  //  C2 futures: closed 0.1 (taker) fee 3.6; rebate 0.72; over both days 2.04 + 0.72 = 2.76.
  const day2Expected = [
    row(c1.uid, day2, 'USDT', 'BTCUSDT_SPBL', ['3000', '3', '0.9', '1.14', '1.86']),
    row(c1.uid, day2, 'USDT', 'BTCUSDT_UMCBL', ['6000', '1.2', '0.24', '1.14', '1.86']),
    row(c2.uid, day2, 'BTC', 'BTCUSDT_SPBL', ['3000', '0.00005', '0.000015', '0.000015', '0.000015']),
    row(c2.uid, day2, 'USDT', 'BTCUSDT_UMCBL', ['6000', '3.6', '0.72', '0.72', '2.76']),
  ];
  const yesterday = data<{ commissionList: Commission[] }>(await commissions()).commissionList;
  assert.deepEqual(byKey(pick(yesterday)), day2Expected, 'no window: yesterday (UTC+8)');
  assert.deepEqual(
    byKey(pick(data<{ commissionList: Commission[] }>(await commissions(day1Window)).commissionList)),
    day1Expected,
  );
  const both = { startTime: String(day1), endTime: String(day2 + DAY - 1) };
  const all = data<{ commissionList: Commission[] }>(await commissions(both)).commissionList;
  assert.deepEqual(byKey(pick(all)), [...day1Expected, ...day2Expected]);
  for (const item of all) {
    for (const field of ['feeDeduction', 'activityBonusDeduct', 'spotCouponDeduct', 'futuresCouponDeduct']) {
      assert.equal(item[field], '0');
    }
    assert.equal(item.spotFeeDiscountDeduct, '0');
    assert.equal(item.negativeMakerFeeDeduct, '0');
    assert.equal(item.userTotalRebateAmount, '0');
    assert.equal(item.feePaid, item.fee);
  }
  // Filters and paging.
  const only = async (query: Record<string, string>) =>
    byKey(
      pick(data<{ commissionList: Commission[] }>(await commissions({ ...both, ...query })).commissionList),
    );
  assert.deepEqual(await only({ uid: c1.uid }), [
    day1Expected[0],
    day1Expected[1],
    day2Expected[0],
    day2Expected[1],
  ]);
  assert.deepEqual(await only({ coin: 'btc' }), [day1Expected[0], day2Expected[2]]);
  assert.deepEqual(await only({ symbol: 'BTCUSDT_UMCBL' }), [
    day1Expected[1],
    day1Expected[3],
    day2Expected[1],
    day2Expected[3],
  ]);
  assert.deepEqual(await only({ symbol: 'BTCUSDT_SPBL-MABL' }), []);
  assert.equal((await only({ symbol: 'BTCUSDT' })).length, 8);
  const pages: Commission[] = [];
  let endId = '';
  for (let page = 0; page < 5; page += 1) {
    const answer = data<{ commissionList: Commission[]; endId: string }>(
      await commissions({ ...both, limit: '3', ...(endId ? { idLessThan: endId } : {}) }),
    );
    if (answer.commissionList.length === 0) break;
    pages.push(...answer.commissionList);
    endId = answer.endId;
  }
  assert.deepEqual(pages, all);
  const legacy = data<{ commissionList: Commission[] }>(
    await commissions(both, '/api/broker/v1/agent/customer-commissions'),
  ).commissionList;
  assert.deepEqual(legacy, all);
  assert.equal(refusal(await commissions({ startTime: String(day1) }))[0], '40019');
  assert.equal(
    refusal(await commissions({ startTime: String(day1 - 91 * DAY), endTime: String(day1) }))[0],
    '40017',
  );
  assert.deepEqual(refusal(await c1.client.get('/api/v2/broker/customer-commissions')), [
    '40014',
    'Incorrect permissions, need agent permissions',
  ]);

  // KYC: C1 passed on day 1, C2 not_passed on day 2 (UTC+8); the outsider is no customer.
  const kyc = (query: Record<string, string> = {}, path = '/api/v2/broker/customer-kyc-result') =>
    agent.client.get<{ userList: Rows; endId: string }>(path, { query });
  assert.deepEqual(data<{ userList: Rows }>(await kyc()).userList, [
    { uid: c2.uid, kycResult: 'not_passed' },
  ]);
  assert.deepEqual(data<{ userList: Rows }>(await kyc(day1Window)).userList, [
    { uid: c1.uid, kycResult: 'passed' },
  ]);
  // Day 1 in UTC (08:00 UTC+8 on day 1 to 07:59 on day 2) misses C1's 01:00 result and holds
  // C2's 03:00 (UTC+8) one of day 2: windows are plain instants, only the default is a UTC+8 day.
  const utcDay1 = { startTime: String(day1 + UTC8), endTime: String(day1 + UTC8 + DAY - 1) };
  assert.deepEqual(data<{ userList: Rows }>(await kyc(utcDay1)).userList, [
    { uid: c2.uid, kycResult: 'not_passed' },
  ]);
  const kycBoth = data<{ userList: Rows; endId: string }>(
    await kyc(both, '/api/broker/v1/agent/customer-kyc-result'),
  );
  assert.deepEqual(kycBoth, {
    userList: [
      { uid: c2.uid, kycResult: 'not_passed' },
      { uid: c1.uid, kycResult: 'passed' },
    ],
    endId: c1.uid,
  });
  assert.deepEqual(data<{ userList: Rows }>(await kyc({ ...both, pageSize: '1', pageNo: '2' })).userList, [
    { uid: c1.uid, kycResult: 'passed' },
  ]);
  assert.deepEqual(data<{ userList: Rows }>(await kyc({ ...both, uid: c2.uid })).userList, [
    { uid: c2.uid, kycResult: 'not_passed' },
  ]);
  assert.equal(refusal(await kyc({ startTime: String(day1), endTime: String(day1 + 91 * DAY) }))[0], '40017');
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});
