/**
 * Fee-rate routes over real HTTP: v2 trade-rate and all-trade-rate, v3 fee-rate and
 * all-fee-rate answer the instrument's rates, which are what a fill is charged (a rate the
 * operator changes is answered and charged at once), with the venue's codes for bad input.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SigningClient } from '../../support/signing.ts';
import { admin, data, harness, mainAccount, refusal, type Rows } from './broker-helpers.ts';

test('trade rate when asked per business type answers the instrument rates', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { permissions: ['read'] });
  const rate = (query: Record<string, string>) => trader.client.get('/api/v2/common/trade-rate', { query });
  assert.deepEqual(data(await rate({ symbol: 'BTCUSDT', businessType: 'spot' })), {
    makerFeeRate: '0.001',
    takerFeeRate: '0.001',
  });
  assert.deepEqual(data(await rate({ symbol: 'btcusdt', businessType: 'mix' })), {
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
  });
  assert.deepEqual(data(await rate({ symbol: 'ETHUSDT', business: 'margin' })), {
    makerFeeRate: '0.001',
    takerFeeRate: '0.001',
  });
  assert.deepEqual(refusal(await rate({ symbol: 'BTCUSDT' })), [
    '40019',
    'Parameter businessType cannot be empty',
  ]);
  for (const name of ['constructor', '__proto__', 'toString']) {
    assert.deepEqual(refusal(await rate({ symbol: 'BTCUSDT', businessType: name })), [
      '40020',
      'Parameter businessType error',
    ]);
  }
  assert.deepEqual(refusal(await rate({ symbol: 'BTCUSDT', businessType: 'otc' })), [
    '40020',
    'Parameter businessType error',
  ]);
  assert.deepEqual(refusal(await rate({ symbol: 'NOPEUSDT', businessType: 'spot' })), [
    '40034',
    'Parameter NOPEUSDT does not exist',
  ]);
  assert.deepEqual(refusal(await rate({ businessType: 'spot' })), [
    '40019',
    'Parameter symbol cannot be empty',
  ]);
  const all = data<Rows>(
    await trader.client.get('/api/v2/common/all-trade-rate', { query: { businessType: 'spot' } }),
  );
  assert.deepEqual(
    all.map((row) => [row.symbol, row.makerFeeRate, row.takerFeeRate]),
    [
      ['BTCUSDT', '0.001', '0.001'],
      ['ETHUSDT', '0.001', '0.001'],
    ],
  );
});

test('trade rate when the operator changes an instrument rate answers and charges the new rate', async (t) => {
  const h = await harness(t);
  await admin(h.operator, 'PATCH', '/admin/v1/instruments', {
    category: 'SPOT',
    symbol: 'BTCUSDT',
    makerFeeRate: '0.0004',
    takerFeeRate: '0.002',
  });
  const maker = await mainAccount(h, { funds: [['spot', 'BTC', '1']] });
  const taker = await mainAccount(h, { funds: [['spot', 'USDT', '10000']] });
  assert.deepEqual(
    data(
      await taker.client.get('/api/v2/common/trade-rate', {
        query: { symbol: 'BTCUSDT', businessType: 'spot' },
      }),
    ),
    { makerFeeRate: '0.0004', takerFeeRate: '0.002' },
  );
  const order = (side: string) => ({
    symbol: 'BTCUSDT',
    side,
    orderType: 'limit',
    force: 'gtc',
    price: '60000',
    size: '0.1',
  });
  data(await maker.client.post('/api/v2/spot/trade/place-order', { body: order('sell') }));
  data(await taker.client.post('/api/v2/spot/trade/place-order', { body: order('buy') }));
  // The taker receives 0.1 BTC and pays 0.2 % of it: 0.0002 BTC; the maker receives 6000 USDT
  // and pays 0.04 %: 2.4 USDT.
  const fills = async (client: SigningClient) =>
    data<Rows>(await client.get('/api/v2/spot/trade/fills', { query: { symbol: 'BTCUSDT' } })).map(
      (fill) => (fill.feeDetail as unknown as { totalFee: string }).totalFee,
    );
  assert.deepEqual(await fills(taker.client), ['-0.0002']);
  assert.deepEqual(await fills(maker.client), ['-2.4']);
});

test('v3 fee rate when a unified account asks per category answers the rates and the codes', async (t) => {
  const h = await harness(t);
  const { uid } = await h.operator.createAccount({ mode: 'unified' });
  const client = new SigningClient(h.server.url, await h.operator.createApiKey(uid));
  const one = (query: Record<string, string>) => client.get('/api/v3/account/fee-rate', { query });
  assert.deepEqual(data(await one({ symbol: 'BTCUSDT', category: 'USDT-FUTURES' })), {
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
  });
  assert.deepEqual(refusal(await one({ symbol: 'BTCUSDT', category: 'SUSDT-FUTURES' })), [
    '40020',
    'Parameter category error',
  ]);
  assert.deepEqual(refusal(await one({ symbol: 'NOPE', category: 'SPOT' })), [
    '25100',
    'Trading pair NOPE does not exist',
  ]);
  const all = data<Rows>(await client.get('/api/v3/account/all-fee-rate', { query: { category: 'SPOT' } }));
  assert.deepEqual(
    all.map((row) => row.symbol),
    ['BTCUSDT', 'ETHUSDT'],
  );
  const filtered = data<Rows>(
    await client.get('/api/v3/account/all-fee-rate', { query: { category: 'MARGIN', symbol: 'ethusdt' } }),
  );
  assert.deepEqual(filtered, [{ symbol: 'ETHUSDT', makerFeeRate: '0.001', takerFeeRate: '0.001' }]);
  assert.deepEqual(refusal(await client.get('/api/v3/account/all-fee-rate')), [
    '40019',
    'Parameter category cannot be empty',
  ]);
});
