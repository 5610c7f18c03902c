/**
 * Futures trading statistics (docs/market-data.md, "Market statistics"), on a simulated clock
 * starting at 07:00 UTC. In the 07:00 period B rests a 0.03 BTC sell on USDT-M BTCUSDT and A
 * (0.02) and C (0.01) buy it at market: two long accounts, one short, 0.03 bought by takers.
 * At 07:10 B rests a 0.01 buy and C sells into it, closing its long: one long, one short, 0.01
 * sold by a taker. Past periods are rebuilt from C's closed position.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicGet } from '../../support/http.ts';
import { accountWithKey, OperatorClient } from '../../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

type Rows = Record<string, string>[];
const START_MS = Date.parse('2026-01-01T07:00:00Z');
const MINUTE_MS = 60_000;

async function ok<T>(url: string, path: string, query = ''): Promise<T> {
  const response = await publicGet<T>(url, path, query);
  assert.equal(response.body?.code, '00000', `${path}?${query}: ${response.text}`);
  return response.body.data;
}

async function trader(url: string, operator: OperatorClient) {
  const { uid, key } = await accountWithKey(operator);
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'usdt_futures' });
  const client = new SigningClient(url, key);
  return async (body: Record<string, string>) => {
    const response = await client.post('/api/v2/mix/order/place-order', {
      body: {
        symbol: 'BTCUSDT',
        productType: 'USDT-FUTURES',
        marginMode: 'crossed',
        marginCoin: 'USDT',
        ...body,
      },
    });
    assert.equal(response.body?.code, '00000', response.text);
  };
}

/** The rows of the 07:00, 07:05 and 07:10 periods (the last three of thirty). */
function lastThree(rows: Rows): Rows {
  assert.equal(rows.length, 30);
  assert.deepEqual(
    rows.slice(-3).map((row) => Number(row.ts)),
    [START_MS, START_MS + 5 * MINUTE_MS, START_MS + 10 * MINUTE_MS],
  );
  return rows.slice(-3);
}

test('long/short ratios and taker volume when positions open and close follow each period', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_CLOCK_START: String(START_MS) },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '60000' });
  const [a, b, c] = [
    await trader(server.url, operator),
    await trader(server.url, operator),
    await trader(server.url, operator),
  ];
  await b({ side: 'sell', orderType: 'limit', price: '60000', size: '0.03', force: 'gtc' });
  await a({ side: 'buy', orderType: 'market', size: '0.02' });
  await c({ side: 'buy', orderType: 'market', size: '0.01' });
  await operator.advanceClock(10 * MINUTE_MS);
  await b({ side: 'buy', orderType: 'limit', price: '60000', size: '0.01', force: 'gtc' });
  await c({ side: 'sell', orderType: 'market', size: '0.01', reduceOnly: 'YES' });

  const accounts = lastThree(
    await ok<Rows>(server.url, '/api/v2/mix/market/account-long-short', 'symbol=BTCUSDT'),
  );
  assert.deepEqual(
    accounts.map((row) => [row.longAccountRatio, row.shortAccountRatio, row.longShortAccountRatio]),
    [
      ['0.6666', '0.3333', '2'],
      ['0.6666', '0.3333', '2'],
      ['0.5', '0.5', '1'],
    ],
  );
  // Three holders: the top fifth is one account, B, short 0.03 (what it opened).
  const positions = lastThree(
    await ok<Rows>(server.url, '/api/v2/mix/market/position-long-short', 'symbol=btcusdt&period=5m'),
  );
  assert.deepEqual(
    positions.map((row) => [row.longPositionRatio, row.shortPositionRatio, row.longShortPositionRatio]),
    [
      ['0', '1', '0'],
      ['0', '1', '0'],
      ['0', '1', '0'],
    ],
  );
  const v3Accounts = lastThree(
    await ok<Rows>(server.url, '/api/v3/market/futures-account-long-short', 'symbol=BTCUSDT'),
  );
  assert.deepEqual(v3Accounts, accounts);
  const taker = lastThree(await ok<Rows>(server.url, '/api/v2/mix/market/taker-buy-sell', 'symbol=BTCUSDT'));
  assert.deepEqual(
    taker.map((row) => [row.buyVolume, row.sellVolume]),
    [
      ['0.03', '0'],
      ['0', '0'],
      ['0', '0.01'],
    ],
  );
  const v3Taker = lastThree(
    await ok<Rows>(server.url, '/api/v3/market/futures-active-buy-sell', 'symbol=BTCUSDT'),
  );
  assert.deepEqual(v3Taker, taker);
  const hourly = await ok<Rows>(server.url, '/api/v2/mix/market/long-short', 'symbol=BTCUSDT&period=1H');
  assert.deepEqual(hourly.at(-1), {
    longRatio: '0',
    shortRatio: '1',
    longShortRatio: '0',
    ts: String(START_MS),
  });
});

test('history-fund-rate when perpetuals have settled lists the settled rates newest first', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_CLOCK_START: String(START_MS) },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const fix = (rate: string | null) =>
    operator.call('PUT', '/admin/v1/funding-rates', { category: 'USDT-FUTURES', symbol: 'BTCUSDT', rate });
  await fix('0.0002');
  await operator.advanceClock(60 * MINUTE_MS); // 08:00 settles at 0.0002
  await fix('-0.00015');
  await operator.advanceClock(8 * 60 * MINUTE_MS); // 16:00 at −0.00015
  const eight = String(START_MS + 60 * MINUTE_MS);
  const sixteen = String(START_MS + 9 * 60 * MINUTE_MS);

  const v2 = await ok<Rows>(
    server.url,
    '/api/v2/mix/market/history-fund-rate',
    'symbol=BTCUSDT&productType=USDT-FUTURES',
  );
  assert.deepEqual(v2, [
    { symbol: 'BTCUSDT', fundingRate: '-0.00015', fundingTime: sixteen },
    { symbol: 'BTCUSDT', fundingRate: '0.0002', fundingTime: eight },
  ]);
  const second = await ok<Rows>(
    server.url,
    '/api/v2/mix/market/history-fund-rate',
    'symbol=BTCUSDT&productType=usdt-futures&pageSize=1&pageNo=2',
  );
  assert.deepEqual(second, [{ symbol: 'BTCUSDT', fundingRate: '0.0002', fundingTime: eight }]);
  const v3 = await ok<{ resultList: Rows }>(
    server.url,
    '/api/v3/market/history-fund-rate',
    'category=USDT-FUTURES&symbol=BTCUSDT&limit=1&cursor=1',
  );
  assert.deepEqual(v3.resultList, [
    { symbol: 'BTCUSDT', fundingRate: '-0.00015', fundingRateTimestamp: sixteen },
  ]);
  // Every perpetual settles on its grid, with or without positions (ETHUSDT: the computed rate).
  const eth = await ok<Rows>(
    server.url,
    '/api/v2/mix/market/history-fund-rate',
    'symbol=ETHUSDT&productType=USDT-FUTURES',
  );
  assert.deepEqual(
    eth.map((row) => row.fundingTime),
    [sixteen, eight],
  );
});

test('risk-reserve when funding leaves a rounding remainder shows the insurance fund receiving it', async (t) => {
  // A long and a short of 0.001 BTC at 60100 (value 60.1) pay and receive 60.1 × 0.00000003 =
  // 0.000001803: the payer is charged 0.00000181 (rounded up), the receiver paid 0.0000018
  // (down), and the fund keeps 0.00000001.
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_CLOCK_START: String(START_MS) },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '60100' });
  const [long, short] = [await trader(server.url, operator), await trader(server.url, operator)];
  await short({ side: 'sell', orderType: 'limit', price: '60100', size: '0.001', force: 'gtc' });
  await long({ side: 'buy', orderType: 'market', size: '0.001' });
  await operator.call('PUT', '/admin/v1/funding-rates', {
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    rate: '0.00000003',
  });
  await operator.advanceClock(60 * MINUTE_MS); // 08:00 settles
  const reserve = await ok<{ coin: string; totalBalance: string; riskReserveRecords: Rows }>(
    server.url,
    '/api/v3/market/risk-reserve',
    'category=USDT-FUTURES&symbol=BTCUSDT',
  );
  assert.deepEqual(reserve, {
    coin: 'USDT',
    totalBalance: '0.00000001',
    riskReserveRecords: [
      { balance: '0.00000001', amount: '0.00000001', ts: String(START_MS + 60 * MINUTE_MS) },
    ],
  });
  const all = await ok<{ list: { coin: string; symbols: string[]; balance: string }[] }>(
    server.url,
    '/api/v3/market/risk-reserve-all',
    'category=USDT-FUTURES',
  );
  assert.deepEqual(all.list, [{ symbols: ['BTCUSDT', 'ETHUSDT'], coin: 'USDT', balance: '0.00000001' }]);
});

test('market statistics when the input is wrong answer the venue codes', async (t) => {
  const server = await serverFor(t);
  const cases: [string, string, string][] = [
    ['/api/v2/mix/market/account-long-short', '', '40019'],
    ['/api/v2/mix/market/account-long-short', 'symbol=BTCUSDT&period=7m', '40020'],
    ['/api/v2/mix/market/taker-buy-sell', 'symbol=NOPEUSDT', '40034'],
    ['/api/v2/mix/market/history-fund-rate', 'symbol=BTCUSDT', '40019'],
    ['/api/v2/mix/market/history-fund-rate', 'symbol=BTCUSDT&productType=USDT-FUTURES&pageNo=0', '40020'],
    ['/api/v3/market/history-fund-rate', 'category=SPOT&symbol=BTCUSDT', '40020'],
    ['/api/v3/market/margin-loans', '', '40019'],
    ['/api/v3/market/margin-loans', 'coin=NOPE', '40020'],
  ];
  const answers = [];
  for (const [path, query] of cases) answers.push((await publicGet(server.url, path, query)).body?.code);
  assert.deepEqual(
    answers,
    cases.map(([, , code]) => code),
  );
});

test('discount-rate and margin-loans when asked give the collateral and borrowing terms bourse applies', async (t) => {
  const server = await serverFor(t);
  const loans = await ok<Record<string, string>>(server.url, '/api/v3/market/margin-loans', 'coin=usdt');
  assert.deepEqual(loans, { dailyInterest: '0.000126279', annualInterest: '0.046091835', limit: '' });
  const unified = await ok<{ coin: string; list: Rows }[]>(server.url, '/api/v3/market/discount-rate');
  assert.deepEqual(unified[0], { coin: 'BTC', list: [{ tierStartValue: '0', discountRate: '1' }] });
  const union = await ok<{ coin: string; discountRateList: Rows }[]>(
    server.url,
    '/api/v2/mix/market/discount-rate',
  );
  assert.ok(!union.some((row) => row.coin === 'USDT'), 'USDT is the margin itself');
  assert.equal(union[0]?.discountRateList[0]?.discountRate, '0.95');
});
