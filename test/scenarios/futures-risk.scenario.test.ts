/**
 * Futures and the clock over real HTTP, with the simulated clock and operator price moves:
 * funding over two intervals (computed and operator-set rates), isolated and crossed
 * liquidation with the insurance fund, and delivery settlement. Figures computed by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSURANCE_FUND_UID } from '../../src/domain/account.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, mixOrder, type Row } from '../support/scenario.ts';

const HOUR = 60 * 60 * 1000;

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t, { env: { BOURSE_CLOCK: 'simulated' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (usdt: string) => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
    return { uid, client: new SigningClient(server.url, await operator.createApiKey(uid)) };
  };
  return { server, operator, trader };
}

const order = mixOrder;

async function pair(long: SigningClient, short: SigningClient, size: string, margin: Row = {}) {
  data(
    await short.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'sell', price: '60000', size }),
    }),
  );
  data(
    await long.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '60000', size, ...margin }),
    }),
  );
}

async function available(client: SigningClient): Promise<string> {
  const [row] = data<Row[]>(
    await client.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  return String(row?.available);
}

function conserved(server: TestServer) {
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
}

test('funding over two intervals when the clock advances charges longs and pays shorts', async (t) => {
  const { server, operator, trader } = await setup(t);
  const longer = await trader('10000');
  const shorter = await trader('10000');
  await pair(longer.client, shorter.client, '0.1');
  const nowMs = Number((await operator.getClock()).nowMs);
  const nextFunding = (Math.floor(nowMs / (8 * HOUR)) + 1) * 8 * HOUR;
  // Two settlements at the computed rate 0.01 %: 6000 × 0.0001 = 0.6 each.
  await operator.advanceClock(nextFunding + 8 * HOUR - nowMs);
  assert.equal(await available(longer.client), '9995.2', '10000 − 3.6 fee − 2 × 0.6');
  assert.equal(await available(shorter.client), '10000', '10000 − 1.2 fee + 2 × 0.6');
  const bills = data<{ bills: Row[] }>(
    await longer.client.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', businessType: 'contract_settle_fee' },
    }),
  );
  assert.deepEqual(
    bills.bills.map((bill) => bill.amount),
    ['-0.6', '-0.6'],
  );
  // The operator fixes the rate at −0.05 %: shorts pay 6000 × 0.0005 = 3 at the next one.
  const set = await operator.call('PUT', '/admin/v1/funding-rates', {
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    rate: '-0.0005',
  });
  assert.equal(set.body?.code, '00000', set.text);
  await operator.advanceClock(8 * HOUR);
  assert.equal(await available(shorter.client), '9997');
  assert.equal(await available(longer.client), '9998.2');
  conserved(server);
});

test('isolated liquidation when the mark falls to maintenance hands the position to the insurance fund at bankruptcy', async (t) => {
  const { server, operator, trader } = await setup(t);
  const longer = await trader('10000');
  const shorter = await trader('100000');
  data(
    await longer.client.post('/api/v2/mix/account/set-margin-mode', {
      body: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', marginMode: 'isolated' },
    }),
  );
  data(
    await longer.client.post('/api/v2/mix/account/set-leverage', {
      body: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', leverage: '10' },
    }),
  );
  await pair(longer.client, shorter.client, '0.1', { marginMode: 'isolated' });
  const [position] = data<Row[]>(
    await longer.client.get('/api/v2/mix/position/all-position', { query: { productType: 'USDT-FUTURES' } }),
  );
  // LP = (600 − 6000) ÷ (0.1 × (0.004 + 0.0006 − 1)) = 54249.547920433996…
  assert.equal(position?.liquidationPrice, '54249.54792043');
  assert.equal(position?.marginSize, '600');
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '54400' });
  assert.equal(
    data<Row[]>(
      await longer.client.get('/api/v2/mix/position/all-position', {
        query: { productType: 'USDT-FUTURES' },
      }),
    ).length,
    1,
  );
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '54200' });
  assert.deepEqual(
    data<Row[]>(
      await longer.client.get('/api/v2/mix/position/all-position', {
        query: { productType: 'USDT-FUTURES' },
      }),
    ),
    [],
  );
  assert.equal(await available(longer.client), '9396.4', 'the 600 margin is gone, the rest stays');
  const fund = await operator.getAccount(INSURANCE_FUND_UID);
  const wallets = fund.wallets as Record<string, Record<string, { available: string }>>;
  // Bankruptcy 60000 − 600 ÷ 0.1 = 54000, where the fund takes the 0.1 (the book is empty);
  // the trader's fee 5400 × 0.0006 = 3.24 is beyond the margin: the fund pays it.
  assert.equal(wallets.usdt_futures?.USDT?.available, '-3.24');
  const bills = data<{ bills: Row[] }>(
    await longer.client.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', limit: '1' },
    }),
  );
  assert.equal(bills.bills[0]?.businessType, 'burst_sell');
  conserved(server);
});

test('cross liquidation when equity falls to maintenance sweeps the wallet into the insurance fund', async (t) => {
  const { server, operator, trader } = await setup(t);
  const longer = await trader('400');
  const shorter = await trader('100000');
  await pair(longer.client, shorter.client, '0.1');
  assert.equal(await available(longer.client), '396.4');
  // Equity 396.4 + 0.1 × (P − 60000) against MM* 0.1 × P × 0.0046: safe at 56300 (26.4 > 25.898),
  // liquidated at 56290 (25.4 ≤ 25.8934).
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '56300' });
  assert.equal(
    data<Row[]>(
      await longer.client.get('/api/v2/mix/position/all-position', {
        query: { productType: 'USDT-FUTURES' },
      }),
    ).length,
    1,
  );
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '56290' });
  assert.deepEqual(
    data<Row[]>(
      await longer.client.get('/api/v2/mix/position/all-position', {
        query: { productType: 'USDT-FUTURES' },
      }),
    ),
    [],
  );
  assert.equal(await available(longer.client), '0');
  const fund = await operator.getAccount(INSURANCE_FUND_UID);
  const wallets = fund.wallets as Record<string, Record<string, { available: string }>>;
  // Bankruptcy 56290 − 25.4 ÷ 0.1 = 56036, where the fund takes the 0.1: PnL 5603.6 − 6000
  // = −396.4 spends the wallet, the fee 5603.6 × 0.0006 = 3.36216 is the fund's.
  assert.equal(wallets.usdt_futures?.USDT?.available, '-3.36216');
  conserved(server);
});

test('delivery when the clock reaches delivery time settles positions at the index and takes the contract offline', async (t) => {
  const { server, operator, trader } = await setup(t);
  const nowMs = Number((await operator.getClock()).nowMs);
  const deliveryTime = String(nowMs + HOUR);
  const [template] = await operator.listInstruments('USDT-FUTURES');
  await operator.addInstrument({
    ...template,
    symbol: 'BTCUSDT_D1',
    symbolType: 'delivery',
    deliveryTime,
    deliveryStartTime: String(nowMs + HOUR - 600_000),
    deliveryPeriod: 'this_quarter',
    fundInterval: '',
    supportMarginCoins: ['USDT'],
  });
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT_D1', indexPrice: '60000' });
  const longer = await trader('10000');
  const shorter = await trader('10000');
  data(
    await shorter.client.post('/api/v2/mix/order/place-order', {
      body: order({ symbol: 'BTCUSDT_D1', side: 'sell', price: '60000', size: '0.1' }),
    }),
  );
  data(
    await longer.client.post('/api/v2/mix/order/place-order', {
      body: order({ symbol: 'BTCUSDT_D1', side: 'buy', price: '60000', size: '0.1' }),
    }),
  );
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT_D1', indexPrice: '62000' });
  await operator.advanceClock(HOUR);
  // Long: −3.6 open fee, +200 PnL − 6200 × 0.0006 = 3.72 delivery fee. Short: −1.2, −200 − 3.72.
  assert.equal(await available(longer.client), '10192.68');
  assert.equal(await available(shorter.client), '9795.08');
  const bills = data<{ bills: Row[] }>(
    await longer.client.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', limit: '1' },
    }),
  );
  assert.deepEqual(
    [bills.bills[0]?.businessType, bills.bills[0]?.amount, bills.bills[0]?.fee],
    ['delivery_long', '200', '-3.72'],
  );
  const [instrument] = await operator
    .listInstruments('USDT-FUTURES')
    .then((rows) => rows.filter((row) => row.symbol === 'BTCUSDT_D1'));
  assert.equal(instrument?.status, 'offline');
  conserved(server);
});
