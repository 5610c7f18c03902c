/**
 * The wallet end to end over HTTP, figures by hand: a withdrawal request the operator settles
 * and one it rejects (balances, frozen, bills, records), a convert trade against the house at
 * the index price less the 0.1 % spread, and the unified account's funding wallet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, type Row } from '../support/scenario.ts';

const WITHDRAWING = ['stow', 'stor', 'wtow', 'wtor', 'wwow'];

async function setUp(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t, { env: { BOURSE_SEED_DEMO: 'false' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const account = async (mode: 'classic' | 'unified', wallet: string, funds: [string, string][]) => {
    const { uid } = await operator.createAccount({ mode });
    for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
    const key = await operator.createApiKey(uid, { permissions: WITHDRAWING });
    return { uid, client: new SigningClient(server.url, key) };
  };
  return { server, operator, account };
}

function conserved(server: TestServer): void {
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
}

const window = () => ({ startTime: String(Date.now() - 60_000), endTime: String(Date.now() + 60_000) });

test('withdrawal request when the operator settles one and rejects another moves frozen coins once', async (t) => {
  const { server, operator, account } = await setUp(t);
  const trader = await account('classic', 'spot', [['USDT', '100']]);
  const request = (size: string, clientOid: string) =>
    trader.client.post('/api/v2/spot/wallet/withdrawal', {
      body: { coin: 'USDT', transferType: 'on_chain', address: 'TQ1x', chain: 'trc20', size, clientOid },
    });
  const first = data<{ orderId: string; clientOid: string }>(await request('30', 'w-1'));
  assert.equal(first.clientOid, 'w-1');
  const usdt = async () =>
    data<Row[]>(await trader.client.get('/api/v2/spot/account/assets', { query: { coin: 'USDT' } }))[0];
  // 100 held: 30 frozen for the request, 70 available.
  assert.deepEqual([(await usdt())?.available, (await usdt())?.frozen], ['70', '30']);
  const pending = data<Row[]>(
    await trader.client.get('/api/v2/spot/wallet/withdrawal-records', { query: window() }),
  );
  assert.deepEqual(
    pending.map((row) => [
      row.orderId,
      row.status,
      row.size,
      row.chain,
      row.toAddress,
      row.dest,
      row.confirm,
    ]),
    [[first.orderId, 'pending', '30', 'TRC20', 'TQ1x', 'on_chain', '0']],
  );

  data(await operator.call('POST', `/admin/v1/funding/${first.orderId}/settle`, { status: 'success' }));
  // Settled: the 30 leave from frozen; 70 stay available.
  assert.deepEqual([(await usdt())?.available, (await usdt())?.frozen], ['70', '0']);
  const second = data<{ orderId: string }>(await request('20', 'w-2'));
  assert.deepEqual([(await usdt())?.available, (await usdt())?.frozen], ['50', '20']);
  data(await operator.call('POST', `/admin/v1/funding/${second.orderId}/settle`, { status: 'reject' }));
  // Rejected: the 20 come back; nothing left the wallet.
  assert.deepEqual([(await usdt())?.available, (await usdt())?.frozen], ['70', '0']);

  const bills = data<Row[]>(
    await trader.client.get('/api/v2/spot/account/bills', { query: { coin: 'USDT' } }),
  );
  assert.deepEqual(
    bills.map((bill) => [bill.businessType, bill.size, bill.balance]),
    [
      ['withdraw', '-30', '70'],
      ['deposit', '100', '100'],
    ],
  );
  const records = data<Row[]>(
    await trader.client.get('/api/v2/spot/wallet/withdrawal-records', { query: window() }),
  );
  assert.deepEqual(
    records.map((row) => [row.clientOid, row.status, row.size, row.confirm]),
    [
      ['w-2', 'fail', '20', '0'],
      ['w-1', 'success', '30', '1'],
    ],
  );
  conserved(server);
});

test('convert trade when a classic account sells USDT for BTC pays the index price less the spread', async (t) => {
  const { server, account } = await setUp(t);
  const trader = await account('classic', 'spot', [['USDT', '1000']]);
  // BTC index 60000: 1 USDT buys 1 / 60000 × (1 − 0.001) = 0.00001665 BTC; 600 USDT buy 0.00999 BTC.
  const quote = data<Row>(
    await trader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'BTC', fromCoinSize: '600' },
    }),
  );
  assert.deepEqual(
    [quote.fromCoin, quote.fromCoinSize, quote.cnvtPrice, quote.toCoin, quote.toCoinSize, quote.fee],
    ['USDT', '600', '0.00001665', 'BTC', '0.00999', '0'],
  );
  const trade = data<Row>(
    await trader.client.post('/api/v2/convert/trade', {
      body: {
        traceId: quote.traceId,
        fromCoin: 'USDT',
        toCoin: 'BTC',
        fromCoinSize: '600',
        toCoinSize: quote.toCoinSize,
        cnvtPrice: quote.cnvtPrice,
      },
    }),
  );
  assert.deepEqual([trade.toCoin, trade.toCoinSize, trade.cnvtPrice], ['BTC', '0.00999', '0.00001665']);
  const assets = data<Row[]>(await trader.client.get('/api/v2/spot/account/assets'));
  assert.deepEqual(
    assets.map((row) => [row.coin, row.available]),
    [
      ['BTC', '0.00999'],
      ['USDT', '400'],
    ],
  );
  const bills = data<Row[]>(
    await trader.client.get('/api/v2/spot/account/bills', { query: { groupType: 'convert' } }),
  );
  assert.deepEqual(
    bills.map((bill) => [bill.coin, bill.businessType, bill.size]),
    [
      ['BTC', 'convert-in', '0.00999'],
      ['USDT', 'convert-out', '-600'],
    ],
  );
  // The house was topped up with twice what it paid (0.01998 BTC) and holds the 600 USDT.
  const state = server.services.sequencer.exchange.state;
  const house = [...state.accounts.values()].find((one) => one.label === 'convert-house');
  assert.ok(house);
  assert.equal(state.balances.get(`${house.uid}|spot|BTC`)?.available, 999_000n);
  assert.equal(state.balances.get(`${house.uid}|spot|USDT`)?.available, 60_000_000_000n);
  const history = data<{ dataList: Row[]; endId: string }>(
    await trader.client.get('/api/v2/convert/convert-record', { query: window() }),
  );
  assert.deepEqual(
    history.dataList.map((row) => [
      row.fromCoin,
      row.fromCoinSize,
      row.toCoin,
      row.toCoinSize,
      row.cnvtPrice,
    ]),
    [['USDT', '600', 'BTC', '0.00999', '0.00001665']],
  );
  assert.equal(history.endId, history.dataList[0]?.id);
  conserved(server);
});

test('convert quote when the target size is given charges what it costs rounded up', async (t) => {
  const { account } = await setUp(t);
  const trader = await account('classic', 'spot', [['BTC', '1']]);
  // BTC → USDT at 60000 × 0.999 = 59940; 0.01 BTC give 599.4 USDT.
  const sell = data<Row>(
    await trader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'BTC', toCoin: 'USDT', fromCoinSize: '0.01' },
    }),
  );
  assert.deepEqual([sell.cnvtPrice, sell.toCoinSize], ['59940', '599.4']);
  // 0.01 BTC cost 0.01 / 0.00001665 = 600.6006006… USDT, rounded up to 600.60060061.
  const buy = data<Row>(
    await trader.client.get('/api/v2/convert/quoted-price', {
      query: { fromCoin: 'USDT', toCoin: 'BTC', toCoinSize: '0.01' },
    }),
  );
  assert.deepEqual([buy.fromCoinSize, buy.toCoinSize], ['600.60060061', '0.01']);
});

test('funding wallet when a unified account moves coins to and from uta writes bills on both sides', async (t) => {
  const { server, account } = await setUp(t);
  const unified = await account('unified', 'funding', [['USDT', '100']]);
  const transfer = (fromType: string, toType: string, amount: string) =>
    unified.client.post('/api/v3/account/transfer', { body: { fromType, toType, coin: 'USDT', amount } });
  data(await transfer('spot', 'uta', '40'));
  data(await transfer('uta', 'spot', '10'));
  // Funding: 100 − 40 + 10 = 70; unified: 40 − 10 = 30.
  const funding = data<Row[]>(await unified.client.get('/api/v3/account/funding-assets'));
  assert.deepEqual(funding, [{ coin: 'USDT', balance: '70', available: '70', frozen: '0' }]);
  const assets = data<{ assets: Row[] }>(await unified.client.get('/api/v3/account/assets'));
  assert.deepEqual(
    assets.assets.map((row) => [row.coin, row.balance]),
    [['USDT', '30']],
  );
  const bills = async (wallet: string) =>
    (await server.services.store.bills({ uid: unified.uid, wallets: [wallet], limit: 10 })).map((bill) => [
      bill.businessType,
      bill.amount,
      bill.balanceAfter,
    ]);
  assert.deepEqual(await bills('funding'), [
    ['transfer-in', 1_000_000_000n, 7_000_000_000n],
    ['transfer-out', -4_000_000_000n, 6_000_000_000n],
    ['deposit', 10_000_000_000n, 10_000_000_000n],
  ]);
  assert.deepEqual(await bills('unified'), [
    ['transfer-out', -1_000_000_000n, 3_000_000_000n],
    ['transfer-in', 4_000_000_000n, 4_000_000_000n],
  ]);
  conserved(server);
});
