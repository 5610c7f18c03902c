/**
 * Convert routes over real HTTP: currencies, quotes (either size, bounds, codes), trades that
 * must repeat their quote once and in time, permissions, records (v2 paging, v3 twin), and a
 * unified account converting in its unified wallet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SigningClient } from '../../support/signing.ts';
import { admin, data, harness, mainAccount, refusal, type Rows } from './broker-helpers.ts';

const window = () => ({ startTime: String(Date.now() - 60_000), endTime: String(Date.now() + 60_000) });
type Quote = Record<string, string>;

function tradeBody(quote: Quote, changes: Record<string, string> = {}): Record<string, unknown> {
  const { traceId, fromCoin, toCoin, fromCoinSize, toCoinSize, cnvtPrice } = quote;
  return { traceId, fromCoin, toCoin, fromCoinSize, toCoinSize, cnvtPrice, ...changes };
}

test('convert currencies when asked list the convertible coins with the bounds and the balance', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'ETH', '2']] });
  const rows = data<Rows>(await trader.client.get('/api/v2/convert/currencies'));
  // Bounds are 1 and 1 000 000 USDT worth: ETH at 3000, BTC at 60000.
  assert.deepEqual(rows, [
    { coin: 'BTC', available: '0', maxAmount: '16.66666666', minAmount: '0.00001667' },
    { coin: 'ETH', available: '2', maxAmount: '333.33333333', minAmount: '0.00033334' },
    { coin: 'USDT', available: '0', maxAmount: '1000000', minAmount: '1' },
  ]);
});

test('convert quote when the request is wrong answers the venue codes', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h);
  const ask = (query: Record<string, string>) => trader.client.get('/api/v2/convert/quoted-price', { query });
  const base = { fromCoin: 'USDT', toCoin: 'BTC' };
  assert.deepEqual(refusal(await ask(base)), ['40019', 'Parameter fromCoinSize cannot be empty']);
  assert.deepEqual(refusal(await ask({ ...base, fromCoinSize: '10', toCoinSize: '1' })), [
    '40020',
    'Parameter toCoinSize error',
  ]);
  assert.deepEqual(refusal(await ask({ ...base, fromCoinSize: '-1' })), [
    '40020',
    'Parameter fromCoinSize error',
  ]);
  assert.deepEqual(refusal(await ask({ ...base, toCoin: 'USDT', fromCoinSize: '10' })), [
    '40020',
    'Parameter toCoin error',
  ]);
  assert.deepEqual(refusal(await ask({ ...base, toCoin: 'DOGE', fromCoinSize: '10' })), [
    '40034',
    'Parameter DOGE does not exist',
  ]);
  assert.deepEqual(refusal(await ask({ ...base, fromCoinSize: '0.5' }))[0], '43006');
  assert.deepEqual(refusal(await ask({ ...base, fromCoinSize: '2000000' }))[0], '43007');
});

test('convert trade when it does not repeat its quote, or repeats a used one, is refused', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  const quote = async () =>
    data<Quote>(
      await trader.client.get('/api/v2/convert/quoted-price', {
        query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
      }),
    );
  const trade = (body: Record<string, unknown>) => trader.client.post('/api/v2/convert/trade', { body });
  for (const [field, value] of [
    ['toCoinSize', '1'],
    ['cnvtPrice', '0.5'],
    ['fromCoinSize', '31'],
    ['toCoin', 'BTC'],
  ] as const) {
    const answer = await trade(tradeBody(await quote(), { [field]: value }));
    assert.deepEqual(refusal(answer), ['40020', `Parameter ${field} error`]);
  }
  assert.deepEqual(refusal(await trade(tradeBody(await quote(), { traceId: '1' }))), [
    '40034',
    'Parameter traceId does not exist',
  ]);
  const good = await quote();
  // 30 USDT at 1 / 3000 × 0.999 = 0.000333 ETH each: 0.00999 ETH.
  assert.equal(good.toCoinSize, '0.00999');
  data(await trade(tradeBody(good)));
  assert.deepEqual(refusal(await trade(tradeBody(good))), ['40034', 'Parameter traceId does not exist']);
  const other = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  const theirs = await quote();
  const stolen = await other.client.post('/api/v2/convert/trade', { body: tradeBody(theirs) });
  assert.deepEqual(refusal(stolen), ['40034', 'Parameter traceId does not exist']);
  const poor = await mainAccount(h, { funds: [['spot', 'USDT', '10']] });
  const big = data<Quote>(
    await poor.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
    }),
  );
  assert.deepEqual(refusal(await poor.client.post('/api/v2/convert/trade', { body: tradeBody(big) })), [
    '43012',
    'Insufficient balance',
  ]);
});

test('convert trade when the quote is older than 8 seconds is refused as expired', async (t) => {
  const h = await harness(t, { BOURSE_CLOCK: 'simulated' });
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  const quote = data<Quote>(
    await trader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
    }),
  );
  await admin(h.operator, 'POST', '/admin/v1/clock/advance', { ms: '8001' });
  const answer = await trader.client.post('/api/v2/convert/trade', { body: tradeBody(quote) });
  assert.deepEqual(refusal(answer), [
    '40020',
    'Parameter traceId error: the quote has expired, request a new one',
  ]);
  const assets = data<Rows>(
    await trader.client.get('/api/v2/spot/account/assets', { query: { coin: 'USDT' } }),
  );
  assert.equal(assets[0]?.available, '100');
});

test('convert trade when the key is read-only is refused, and its reads are served', async (t) => {
  const h = await harness(t);
  const reader = await mainAccount(h, { permissions: ['read'], funds: [['spot', 'USDT', '100']] });
  const quote = data<Quote>(
    await reader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
    }),
  );
  const answer = await reader.client.post('/api/v2/convert/trade', { body: tradeBody(quote) });
  assert.deepEqual(refusal(answer), ['40014', 'Incorrect permissions, need read and write permissions']);
  const records = data<{ dataList: Rows }>(
    await reader.client.get('/api/v2/convert/convert-record', { query: window() }),
  );
  assert.deepEqual(records.dataList, []);
  const none = await mainAccount(h, { permissions: ['transfer'] });
  assert.deepEqual(refusal(await none.client.get('/api/v2/convert/currencies')), [
    '40014',
    'Incorrect permissions, need read permissions',
  ]);
});

test('convert records when paged list each trade once, newest first, and v3 lists a unified account', async (t) => {
  const h = await harness(t);
  const { uid } = await h.operator.createAccount({ mode: 'unified' });
  await h.operator.deposit(uid, { coin: 'USDT', amount: '100' });
  const client = new SigningClient(h.server.url, await h.operator.createApiKey(uid));
  for (const size of ['10', '20', '30']) {
    const quote = data<Quote>(
      await client.get('/api/v2/convert/quoted-price', {
        query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: size },
      }),
    );
    data(await client.post('/api/v2/convert/trade', { body: tradeBody(quote) }));
  }
  const assets = data<{ assets: Rows }>(await client.get('/api/v3/account/assets'));
  // 60 USDT at 0.000333 ETH each: 0.01998 ETH, in the unified wallet.
  assert.deepEqual(
    assets.assets.map((row) => [row.coin, row.balance]),
    [
      ['ETH', '0.01998'],
      ['USDT', '40'],
    ],
  );
  const page = data<{ dataList: Rows; endId: string }>(
    await client.get('/api/v2/convert/convert-record', { query: { ...window(), limit: '2' } }),
  );
  assert.deepEqual(
    page.dataList.map((row) => row.fromCoinSize),
    ['30', '20'],
  );
  const rest = data<{ dataList: Rows; endId: string }>(
    await client.get('/api/v2/convert/convert-record', { query: { ...window(), idLessThan: page.endId } }),
  );
  assert.deepEqual(
    rest.dataList.map((row) => row.fromCoinSize),
    ['10'],
  );
  assert.deepEqual(refusal(await client.get('/api/v2/convert/convert-record')), [
    '40019',
    'Parameter startTime cannot be empty',
  ]);
  const v3 = data<{ list: Rows; cursor: string }>(
    await client.get('/api/v3/account/convert-records', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', limit: '1' },
    }),
  );
  assert.deepEqual(v3.list, [
    {
      fromCoin: 'USDT',
      fromCoinSize: '30',
      toCoin: 'ETH',
      toCoinSize: '0.00999',
      price: '0.000333',
      ts: v3.list[0]?.ts,
    },
  ]);
  const records = data<{ list: Rows }>(
    await client.get('/api/v3/account/financial-records', { query: { category: 'OTHER', coin: 'ETH' } }),
  );
  assert.deepEqual(records.list.map((row) => [row.type, row.amount]).slice(0, 1), [
    ['CONVERT_IN', '0.00999'],
  ]);
});

test('convert trade when the price comes back as a floating-point number is at the quoted price', async (t) => {
  const h = await harness(t);
  await admin(h.operator, 'PUT', '/admin/v1/prices', {
    category: 'SPOT',
    symbol: 'ETHUSDT',
    indexPrice: '3012.34',
  });
  const trader = await mainAccount(h, { funds: [['spot', 'BTC', '1']] });
  const ask = () =>
    trader.client
      .get('/api/v2/convert/quoted-price', { query: { fromCoin: 'BTC', toCoin: 'ETH', fromCoinSize: '0.1' } })
      .then((answer) => data<Quote>(answer));
  const quote = await ask();
  // 60000 × 0.999 / 3012.34 = 19.8981522670083722…: 18 digits, more than a double keeps.
  assert.equal(quote.cnvtPrice, '19.8981522670083722');
  const asNumber = Number(quote.cnvtPrice);
  assert.notEqual(String(asNumber), quote.cnvtPrice);
  const off = await ask();
  const refused = await trader.client.post('/api/v2/convert/trade', {
    body: { ...tradeBody(off), cnvtPrice: (asNumber * (1 + 1e-9)).toFixed(12) },
  });
  assert.deepEqual(refusal(refused), ['40020', 'Parameter cnvtPrice error']);
  const done = data<Quote>(
    await trader.client.post('/api/v2/convert/trade', { body: { ...tradeBody(quote), cnvtPrice: asNumber } }),
  );
  assert.deepEqual([done.cnvtPrice, done.toCoinSize], [quote.cnvtPrice, quote.toCoinSize]);
});

test('convert when the operator resets the venue forgets the open quotes and makes a new house', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  const quote = data<Quote>(
    await trader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
    }),
  );
  data(await trader.client.post('/api/v2/convert/trade', { body: tradeBody(quote) }));
  const stale = data<Quote>(
    await trader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
    }),
  );
  await admin(h.operator, 'POST', '/admin/v1/reset');
  // The same uid is handed out again after the reset: the old quote must not serve it.
  const again = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  assert.equal(again.uid, trader.uid);
  assert.deepEqual(refusal(await again.client.post('/api/v2/convert/trade', { body: tradeBody(stale) })), [
    '40034',
    'Parameter traceId does not exist',
  ]);
  const fresh = data<Quote>(
    await again.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'ETH', fromCoinSize: '30' },
    }),
  );
  data(await again.client.post('/api/v2/convert/trade', { body: tradeBody(fresh) }));
  const state = h.server.services.sequencer.exchange.state;
  const houses = [...state.accounts.values()].filter((account) => account.label === 'convert-house');
  assert.equal(houses.length, 1);
  assert.notEqual(houses[0]?.uid, again.uid);
  assert.equal(state.balances.get(`${houses[0]?.uid}|spot|USDT`)?.available, 3_000_000_000n);
});
