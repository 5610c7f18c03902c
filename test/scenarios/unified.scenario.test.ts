/**
 * A unified account trades spot and USDT futures through the v3 API only, from its one
 * `unified` wallet, and reads its financial records per category. Figures by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, type Row } from '../support/scenario.ts';

test('unified account when trading spot and futures over v3 books each in its category', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_ENFORCE_ACCOUNT_MODE: 'true' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const make = async (mode: 'classic' | 'unified', wallet: string, funds: [string, string][]) => {
    const { uid } = await operator.createAccount({ mode });
    for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const unified = await make('unified', 'unified', [['USDT', '10000']]);
  const counterparty = await make('unified', 'unified', [
    ['USDT', '100000'],
    ['BTC', '1'],
  ]);
  const item = (fields: Row) => ({ symbol: 'BTCUSDT', orderType: 'limit', ...fields });

  data(
    await counterparty.post('/api/v3/trade/place-order', {
      body: item({ category: 'SPOT', side: 'sell', qty: '0.01', price: '60000' }),
    }),
  );
  data(
    await unified.post('/api/v3/trade/place-order', {
      body: item({ category: 'SPOT', side: 'buy', qty: '0.01', price: '60000' }),
    }),
  );
  data(
    await counterparty.post('/api/v3/trade/place-order', {
      body: item({ category: 'USDT-FUTURES', side: 'sell', qty: '0.1', price: '60000' }),
    }),
  );
  data(
    await unified.post('/api/v3/trade/place-order', {
      body: item({ category: 'USDT-FUTURES', side: 'buy', qty: '0.1', price: '60000' }),
    }),
  );

  // Spot: −600 USDT, +0.01 BTC less 0.1 % = 0.00999 BTC. Futures: −3.6 USDT taker fee.
  const assets = data<{ assets: Row[] }>(await unified.get('/api/v3/account/assets'));
  assert.deepEqual(
    assets.assets.map((row) => [row.coin, row.balance]),
    [
      ['BTC', '0.00999'],
      ['USDT', '9396.4'],
    ],
  );
  const spot = data<{ list: Row[] }>(
    await unified.get('/api/v3/account/financial-records', { query: { category: 'SPOT' } }),
  );
  assert.deepEqual(
    spot.list.map((row) => [row.type, row.coin, row.amount, row.fee]),
    [
      ['ORDER_DEALT_IN', 'BTC', '0.01', '-0.00001'],
      ['ORDER_DEALT_OUT', 'USDT', '-600', '0'],
    ],
  );
  const futures = data<{ list: Row[] }>(
    await unified.get('/api/v3/account/financial-records', { query: { category: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    futures.list.map((row) => [row.type, row.amount, row.fee]),
    [['CONTRACT_MAIN_TRADE_IN', '0', '-3.6']],
  );
  const other = data<{ list: Row[] }>(
    await unified.get('/api/v3/account/financial-records', { query: { category: 'OTHER' } }),
  );
  assert.deepEqual(
    other.list.map((row) => [row.type, row.amount]),
    [['DEPOSIT', '10000']],
  );
  const positions = data<{ list: Row[] }>(
    await unified.get('/api/v3/position/current-position', { query: { category: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    positions.list.map((row) => [row.posSide, row.total]),
    [['long', '0.1']],
  );

  // The venue's gate: a unified key on a classic (v2) endpoint, a classic key on v3.
  const gated = await unified.get('/api/v2/spot/account/assets');
  assert.equal(gated.body?.code, '40085');
  const classic = await make('classic', 'spot', [['USDT', '10']]);
  assert.equal((await classic.get('/api/v3/account/assets')).body?.code, '40084');
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});
