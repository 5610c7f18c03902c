/**
 * Futures over real HTTP (v2 mix and v3), checked against figures computed by hand from the
 * default catalogue: BTCUSDT USDT-M, maker 0.02 %, taker 0.06 %, default leverage 20, crossed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, mixOrder, type Row } from '../support/scenario.ts';

async function trader(operator: OperatorClient, url: string, usdt: string) {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
  return { uid, client: new SigningClient(url, await operator.createApiKey(uid)) };
}

const order = mixOrder;

test('one-way futures round trip over v2 when the price rises ends with hand-computed balances, bills and history', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const seller = await trader(operator, server.url, '10000');
  const buyer = await trader(operator, server.url, '10000');

  data(
    await seller.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'sell', price: '60000', size: '0.1', clientOid: 's-open' }),
    }),
  );
  data(
    await buyer.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '60000', size: '0.1' }),
    }),
  );

  const [long] = data<Row[]>(
    await buyer.client.get('/api/v2/mix/position/all-position', {
      query: { productType: 'USDT-FUTURES', marginCoin: 'USDT' },
    }),
  );
  assert.equal(long?.holdSide, 'long');
  assert.equal(long?.total, '0.1');
  assert.equal(long?.openPriceAvg, '60000');
  assert.equal(long?.marginSize, '300', '6000 / 20 at mark');
  assert.equal(long?.posMode, 'one_way_mode');

  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '61000' });
  const [marked] = data<Row[]>(
    await buyer.client.get('/api/v2/mix/position/single-position', {
      query: { productType: 'usdt-futures', symbol: 'BTCUSDT', marginCoin: 'USDT' },
    }),
  );
  assert.equal(marked?.unrealizedPL, '100');
  assert.equal(marked?.markPrice, '61000');

  data(
    await buyer.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'sell', price: '61000', size: '0.1', reduceOnly: 'YES' }),
    }),
  );
  data(
    await seller.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '61000', size: '0.1', reduceOnly: 'YES' }),
    }),
  );

  // Buyer: −3.6 taker fee to open, +100 PnL − 1.22 maker fee to close. Seller: −1.2, −100 − 3.66.
  const [buyerAccount] = data<Row[]>(
    await buyer.client.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.equal(buyerAccount?.available, '10095.18');
  const [sellerAccount] = data<Row[]>(
    await seller.client.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.equal(sellerAccount?.available, '9895.14');

  const page1 = data<{ bills: Row[]; endId: string }>(
    await buyer.client.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', limit: '2' },
    }),
  );
  assert.deepEqual(
    page1.bills.map((bill) => [bill.businessType, bill.amount, bill.fee, bill.balance]),
    [
      ['sell', '100', '-1.22', '10095.18'],
      ['buy', '0', '-3.6', '9996.4'],
    ],
  );
  const page2 = data<{ bills: Row[] }>(
    await buyer.client.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', limit: '2', idLessThan: page1.endId },
    }),
  );
  assert.deepEqual(
    page2.bills.map((bill) => [bill.businessType, bill.amount, bill.balance]),
    [['deposit', '10000', '10000']],
  );
  const sells = data<{ bills: Row[] }>(
    await buyer.client.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', businessType: 'sell' },
    }),
  );
  assert.equal(sells.bills.length, 1);

  const history = data<{ list: Row[] }>(
    await buyer.client.get('/api/v2/mix/position/history-position', {
      query: { productType: 'USDT-FUTURES' },
    }),
  );
  assert.deepEqual(
    history.list.map((row) => [
      row.holdSide,
      row.openAvgPrice,
      row.closeAvgPrice,
      row.pnl,
      row.openFee,
      row.closeFee,
      row.netProfit,
    ]),
    [['long', '60000', '61000', '100', '-3.6', '-1.22', '95.18']],
  );
  const fills = data<{ fillList: Row[] }>(
    await seller.client.get('/api/v2/mix/order/fills', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    fills.fillList.map((fill) => [fill.side, fill.price, fill.profit, fill.tradeScope, fill.tradeSide]),
    [
      ['buy', '61000', '-100', 'taker', 'buy_single'],
      ['sell', '60000', '0', 'maker', 'sell_single'],
    ],
  );
  const detail = data<Row>(
    await seller.client.get('/api/v2/mix/order/detail', {
      query: { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', clientOid: 's-open' },
    }),
  );
  assert.equal(detail.state, 'filled');
  assert.equal(detail.fee, '-1.2');
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('hedge mode over v2 when closing uses the position direction and tradeSide close', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const hedger = await trader(operator, server.url, '10000');
  const other = await trader(operator, server.url, '10000');
  data(
    await hedger.client.post('/api/v2/mix/account/set-position-mode', {
      body: { productType: 'USDT-FUTURES', posMode: 'hedge_mode' },
    }),
  );
  data(
    await other.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'sell', price: '60000', size: '0.1' }),
    }),
  );
  data(
    await hedger.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', tradeSide: 'open', price: '60000', size: '0.1' }),
    }),
  );
  const missing = await hedger.client.post('/api/v2/mix/order/place-order', {
    body: order({ side: 'buy', price: '60000', size: '0.1' }),
  });
  assert.equal(missing.body?.code, '40774', 'hedge mode needs tradeSide');
  const switched = await hedger.client.post('/api/v2/mix/account/set-position-mode', {
    body: { productType: 'USDT-FUTURES', posMode: 'one_way_mode' },
  });
  assert.equal(switched.body?.code, '40920');
  // Close long = side buy + tradeSide close (the position direction), trading as a sell.
  data(
    await other.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '60000', size: '0.1', reduceOnly: 'YES' }),
    }),
  );
  data(
    await hedger.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', tradeSide: 'close', price: '60000', size: '0.1' }),
    }),
  );
  const positions = data<Row[]>(
    await hedger.client.get('/api/v2/mix/position/all-position', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(positions, []);
  const history = data<{ entrustedList: Row[] }>(
    await hedger.client.get('/api/v2/mix/order/orders-history', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    history.entrustedList.map((row) => [row.side, row.tradeSide, row.posSide, row.status]),
    [
      ['buy', 'close', 'long', 'filled'],
      ['buy', 'open', 'long', 'filled'],
    ],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('v3 place-batch on USDT-FUTURES when positions open shows them in current-position', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const a = await trader(operator, server.url, '10000');
  const b = await trader(operator, server.url, '10000');
  const item = (fields: Row) => ({
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    orderType: 'limit',
    ...fields,
  });
  data(
    await a.client.post('/api/v3/trade/place-batch', {
      body: [item({ side: 'sell', qty: '0.05', price: '60000' })],
    }),
  );
  const placed = data<Row[]>(
    await b.client.post('/api/v3/trade/place-batch', {
      body: [item({ side: 'buy', qty: '0.05', price: '60000' })],
    }),
  );
  assert.ok(placed[0]?.orderId);
  const current = data<{ list: Row[] }>(
    await b.client.get('/api/v3/position/current-position', { query: { category: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    current.list.map((row) => [row.posSide, row.total, row.avgPrice, row.holdMode]),
    [['long', '0.05', '60000', 'one_way_mode']],
  );
  data(
    await b.client.post('/api/v3/account/set-leverage', {
      body: { category: 'USDT-FUTURES', symbol: 'BTCUSDT', leverage: '10' },
    }),
  );
  const after = data<{ list: Row[] }>(
    await b.client.get('/api/v3/position/current-position', { query: { category: 'USDT-FUTURES' } }),
  );
  assert.equal(after.list[0]?.leverage, '10');
  const tooHigh = await b.client.post('/api/v3/account/set-leverage', {
    body: { category: 'USDT-FUTURES', symbol: 'BTCUSDT', leverage: '151' },
  });
  assert.equal(tooHigh.body?.code, '25223');
  const missing = await b.client.get('/api/v3/position/current-position');
  assert.equal(missing.body?.code, '40017');
});

test('coin-margined round trip over v2 when the price rises pays the long in BTC', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const coinTrader = async () => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'BTC', amount: '1', wallet: 'coin_futures' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const shortSeller = await coinTrader();
  const longBuyer = await coinTrader();
  const coinOrder = (fields: Row) =>
    order({ symbol: 'BTCUSD', productType: 'COIN-FUTURES', marginCoin: 'BTC', ...fields });
  data(
    await shortSeller.post('/api/v2/mix/order/place-order', {
      body: coinOrder({ side: 'sell', price: '60000', size: '60000' }),
    }),
  );
  data(
    await longBuyer.post('/api/v2/mix/order/place-order', {
      body: coinOrder({ side: 'buy', price: '60000', size: '60000' }),
    }),
  );
  const [position] = data<Row[]>(
    await longBuyer.get('/api/v2/mix/position/all-position', { query: { productType: 'COIN-FUTURES' } }),
  );
  assert.deepEqual(
    [position?.total, position?.openPriceAvg, position?.marginCoin],
    ['60000', '60000', 'BTC'],
  );
  await operator.setPrice({ category: 'COIN-FUTURES', symbol: 'BTCUSD', indexPrice: '61000' });
  const [marked] = data<Row[]>(
    await longBuyer.get('/api/v2/mix/position/all-position', { query: { productType: 'COIN-FUTURES' } }),
  );
  assert.equal(marked?.unrealizedPL, '0.01639345', '1 − 60000 / 61000, in BTC');
  data(
    await longBuyer.post('/api/v2/mix/order/place-order', {
      body: coinOrder({ side: 'sell', price: '61000', size: '60000', reduceOnly: 'YES' }),
    }),
  );
  data(
    await shortSeller.post('/api/v2/mix/order/place-order', {
      body: coinOrder({ side: 'buy', price: '61000', size: '60000', reduceOnly: 'YES' }),
    }),
  );
  const [account] = data<Row[]>(
    await longBuyer.get('/api/v2/mix/account/accounts', { query: { productType: 'COIN-FUTURES' } }),
  );
  assert.deepEqual([account?.marginCoin, account?.available], ['BTC', '1.01559672']);
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('union margin when switched on lets BTC in the USDT-M wallet margin a position, and bills filter', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = await (async () => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: '100', wallet: 'usdt_futures' });
    await operator.deposit(uid, { coin: 'BTC', amount: '1', wallet: 'spot' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  })();
  const other = await (async () => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: '100000', wallet: 'usdt_futures' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  })();
  const open = () =>
    trader.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '60000', size: '0.1' }),
    });
  const transferBtc = () =>
    trader.post('/api/v2/spot/wallet/transfer', {
      body: { fromType: 'spot', toType: 'usdt_futures', amount: '0.1', coin: 'BTC' },
    });
  data(
    await other.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'sell', price: '60000', size: '0.1' }),
    }),
  );

  // Single mode: 100 USDT cannot reserve 6000 × (1.01 / 20 + 0.0006 × 1.005) = 306.618.
  assert.equal((await open()).body?.code, '40762');
  assert.deepEqual(
    data(await trader.get('/api/v2/mix/account/transfer-limits', { query: { coin: 'BTC' } })),
    { coin: 'BTC', maxTransferIn: '0' },
  );
  assert.equal((await transferBtc()).body?.code, '40020');

  data(
    await trader.post('/api/v2/mix/account/set-asset-mode', {
      body: { productType: 'USDT-FUTURES', assetMode: 'union' },
    }),
  );
  assert.deepEqual(
    data(await trader.get('/api/v2/mix/account/transfer-limits', { query: { coin: 'BTC' } })),
    { coin: 'BTC', maxTransferIn: '1' },
  );
  data(await transferBtc());
  // 0.1 BTC at 60000 less 5 % counts 5700 USDT of margin: the position opens.
  data(await open());
  const [account] = data<Row[]>(
    await trader.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual([account?.assetMode, account?.unionCollateral], ['union', '5700']);
  // USDT alone: 100 − 3.6 fee − 300 initial margin = −203.6: that is what leaving union needs.
  assert.deepEqual(data(await trader.get('/api/v2/mix/account/switch-union-usdt')), { usdtAmount: '203.6' });
  const back = await trader.post('/api/v2/mix/account/set-asset-mode', {
    body: { productType: 'USDT-FUTURES', assetMode: 'single' },
  });
  assert.equal(back.body?.code, '40762');

  // Bill filters: coin with a transfer type; a span over 30 days and data older than 90.
  const transfers = data<{ bills: Row[] }>(
    await trader.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', coin: 'BTC', businessType: 'trans_from_exchange' },
    }),
  );
  assert.deepEqual(
    transfers.bills.map((bill) => [bill.coin, bill.amount]),
    [['BTC', '0.1']],
  );
  // Without a transfer businessType the venue ignores `coin` (ccxt fetchLedger sends it).
  const everything = data<{ bills: Row[] }>(
    await trader.get('/api/v2/mix/account/bill', { query: { productType: 'USDT-FUTURES' } }),
  );
  const coinAlone = data<{ bills: Row[] }>(
    await trader.get('/api/v2/mix/account/bill', { query: { productType: 'USDT-FUTURES', coin: 'BTC' } }),
  );
  assert.deepEqual(coinAlone.bills, everything.bills);
  assert.ok(coinAlone.bills.some((bill) => bill.coin === 'USDT'));
  const now = Date.now();
  const wide = await trader.get('/api/v2/mix/account/bill', {
    query: { productType: 'USDT-FUTURES', startTime: String(now - 31 * 86_400_000), endTime: String(now) },
  });
  assert.equal(wide.body?.code, '40017');
  const old = await trader.get('/api/v2/mix/account/bill', {
    query: {
      productType: 'USDT-FUTURES',
      startTime: String(now - 100 * 86_400_000),
      endTime: String(now - 95 * 86_400_000),
    },
  });
  assert.equal(old.body?.code, '40017');
  const funding = data<{ bills: Row[] }>(
    await trader.get('/api/v2/mix/account/bill', {
      query: { productType: 'USDT-FUTURES', onlyFunding: 'yes' },
    }),
  );
  assert.deepEqual(
    funding.bills.map((bill) => bill.businessType),
    ['buy', 'trans_from_exchange', 'deposit'],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('isolated hedge-mode short round trip when the price falls returns margin plus PnL, by hand', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const shorter = await trader(operator, server.url, '10000');
  const other = await trader(operator, server.url, '100000');
  const settings = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
  data(
    await shorter.client.post('/api/v2/mix/account/set-position-mode', {
      body: { productType: 'USDT-FUTURES', posMode: 'hedge_mode' },
    }),
  );
  data(
    await shorter.client.post('/api/v2/mix/account/set-margin-mode', {
      body: { ...settings, marginMode: 'isolated' },
    }),
  );
  data(
    await shorter.client.post('/api/v2/mix/account/set-leverage', {
      body: { ...settings, leverage: '5', holdSide: 'short' },
    }),
  );
  const isolated = (fields: Row) => order({ marginMode: 'isolated', ...fields });
  data(
    await other.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '60000', size: '0.1' }),
    }),
  );
  // Open short (v2 hedge: side sell + open): margin 6000 / 5 = 1200, taker fee 3.6.
  data(
    await shorter.client.post('/api/v2/mix/order/place-order', {
      body: isolated({ side: 'sell', tradeSide: 'open', price: '60000', size: '0.1' }),
    }),
  );
  const [short] = data<Row[]>(
    await shorter.client.get('/api/v2/mix/position/all-position', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    [short?.holdSide, short?.marginMode, short?.marginSize, short?.leverage],
    ['short', 'isolated', '1200', '5'],
  );
  const [opened] = data<Row[]>(
    await shorter.client.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.equal(opened?.available, '8796.4');
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '58000' });
  data(
    await other.client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'sell', price: '58000', size: '0.1', reduceOnly: 'YES' }),
    }),
  );
  // Close short (side sell + close, trading as a buy): +200 PnL, taker fee 5800 × 0.0006 = 3.48.
  data(
    await shorter.client.post('/api/v2/mix/order/place-order', {
      body: isolated({ side: 'sell', tradeSide: 'close', price: '58000', size: '0.1' }),
    }),
  );
  const [closed] = data<Row[]>(
    await shorter.client.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.equal(closed?.available, '10192.92', '10000 − 3.6 + 200 − 3.48');
  assert.deepEqual(
    data<Row[]>(
      await shorter.client.get('/api/v2/mix/position/all-position', {
        query: { productType: 'USDT-FUTURES' },
      }),
    ),
    [],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('v2 modify-order when it replaces an open order cancels it and places the new one, in one step', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { client } = await trader(operator, server.url, '10000');
  const placed = data<{ orderId: string }>(
    await client.post('/api/v2/mix/order/place-order', {
      body: order({ side: 'buy', price: '59000', size: '0.1', clientOid: 'm-old' }),
    }),
  );
  const modify = (fields: Row) =>
    client.post('/api/v2/mix/order/modify-order', {
      body: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', ...fields },
    });
  assert.equal(
    (await modify({ orderId: placed.orderId, newSize: '0.2' })).body?.code,
    '40019',
    'size and price go together',
  );
  const replaced = data<{ orderId: string; clientOid: string }>(
    await modify({ orderId: placed.orderId, newSize: '0.2', newPrice: '59500', newClientOid: 'm-new' }),
  );
  assert.notEqual(replaced.orderId, placed.orderId);
  assert.equal(replaced.clientOid, 'm-new');
  const old = data<Row>(
    await client.get('/api/v2/mix/order/detail', {
      query: { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', clientOid: 'm-old' },
    }),
  );
  assert.deepEqual([old.state, old.cancelReason], ['canceled', 'modify_cancel']);
  const pending = data<{ entrustedList: Row[] }>(
    await client.get('/api/v2/mix/order/orders-pending', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    pending.entrustedList.map((row) => [row.clientOid, row.price, row.size]),
    [['m-new', '59500', '0.2']],
  );
  // A replacement outside the 5 % band is refused after the cancel, as on the venue.
  const refused = await modify({
    orderId: replaced.orderId,
    newSize: '0.2',
    newPrice: '70000',
    newClientOid: 'm-far',
  });
  assert.equal(refused.body?.code, '40815');
  const after = data<{ entrustedList: Row[] }>(
    await client.get('/api/v2/mix/order/orders-pending', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(after.entrustedList, []);
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});
