/**
 * RestClientV3's account and trading methods on a unified account (100 000 USDT and 2 BTC in
 * its one wallet; futures in hedge mode, the venue's default, so futures orders name posSide):
 * orders, batches, strategy (TP/SL) orders, positions, settings, records, transfers, repay.
 */
import assert from 'node:assert/strict';
import { dataOf, hasFields, isList, SYMBOL, USDT_M, type V3Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V3Context>>;
const SPOT = { category: 'SPOT', symbol: SYMBOL } as const;
const CONTRACT = { category: USDT_M, symbol: SYMBOL } as const;

async function restingSpotBuy({ client, spotAt }: V3Context): Promise<string> {
  const order = { ...SPOT, side: 'buy', orderType: 'limit', price: spotAt(0.97), qty: '0.001' } as const;
  return dataOf(await client.submitNewOrder(order)).orderId;
}

async function crossingSpotBuy({ client, spotAt }: V3Context): Promise<string> {
  const order = { ...SPOT, side: 'buy', orderType: 'limit', price: spotAt(1.005), qty: '0.001' } as const;
  return dataOf(await client.submitNewOrder(order)).orderId;
}

/** A long of 0.01 BTC opened at market. */
async function openLong({ client }: V3Context): Promise<void> {
  await client.submitNewOrder({
    ...CONTRACT,
    side: 'buy',
    posSide: 'long',
    orderType: 'market',
    qty: '0.01',
  });
}

async function stopLoss(context: V3Context): Promise<string> {
  await openLong(context);
  const strategy = {
    ...CONTRACT,
    type: 'tpsl',
    tpslMode: 'full',
    posSide: 'long',
    stopLoss: context.futuresAt(0.9),
  } as const;
  return dataOf(await context.client.submitStrategyOrder(strategy as never)).orderId;
}

async function openIds({ client }: V3Context): Promise<string[]> {
  return (dataOf(await client.getUnfilledOrders({ category: 'SPOT' })).list ?? []).map(
    (order) => order.orderId,
  );
}

async function strategies({ client }: V3Context) {
  return isList(dataOf(await client.getUnfilledStrategyOrders({ category: USDT_M }))) as {
    orderId: string;
    stopLoss: string;
  }[];
}

export const SDK_V3_TRADING_CASES: Cases = {
  submitNewOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.deepEqual(await openIds(context), [orderId]);
  }),
  getOrderInfo: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    const order = dataOf(await context.client.getOrderInfo({ orderId }));
    assert.deepEqual([order.orderId, order.orderStatus, order.qty], [orderId, 'live', '0.001']);
  }),
  getUnfilledOrders: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.deepEqual(await openIds(context), [orderId]);
  }),
  modifyOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    const price = context.spotAt(0.96);
    await context.client.modifyOrder({ orderId, qty: '0.002', price } as never);
    const order = dataOf(await context.client.getOrderInfo({ orderId }));
    assert.deepEqual([order.price, order.qty], [price, '0.002']);
  }),
  cancelOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.equal(dataOf(await context.client.cancelOrder({ orderId })).orderId, orderId);
    assert.deepEqual(await openIds(context), []);
  }),
  placeBatchOrders: works(async ({ client, spotAt }) => {
    const order = { ...SPOT, side: 'buy', orderType: 'limit', price: spotAt(0.97), qty: '0.001' } as const;
    const placed = dataOf(await client.placeBatchOrders([order, order]));
    assert.equal(placed.length, 2);
  }),
  cancelBatchOrders: works(async (context) => {
    const ids = [await restingSpotBuy(context), await restingSpotBuy(context)];
    await context.client.cancelBatchOrders(ids.map((orderId) => ({ ...SPOT, orderId })));
    assert.deepEqual(await openIds(context), []);
  }),
  cancelAllOrders: works(async (context) => {
    await restingSpotBuy(context);
    await context.client.cancelAllOrders(SPOT);
    assert.deepEqual(await openIds(context), []);
  }),
  getHistoryOrders: works(async (context) => {
    const orderId = await crossingSpotBuy(context);
    const orders = dataOf(await context.client.getHistoryOrders({ category: 'SPOT' })).list;
    assert.deepEqual(
      orders.map((order) => [order.orderId, order.orderStatus]),
      [[orderId, 'filled']],
    );
  }),
  getTradeFills: works(async (context) => {
    const orderId = await crossingSpotBuy(context);
    const fills = dataOf(await context.client.getTradeFills()).list;
    assert.ok(fills.length > 0 && fills.every((fill) => fill.orderId === orderId));
  }),
  getCurrentPosition: works(async (context) => {
    await openLong(context);
    const positions = dataOf(await context.client.getCurrentPosition({ category: USDT_M })).list;
    assert.deepEqual(
      positions.map((position) => [position.symbol, position.posSide, position.total]),
      [[SYMBOL, 'long', '0.01']],
    );
  }),
  getPositionAdlRank: works(async (context) => {
    await openLong(context);
    const rows = dataOf(await context.client.getPositionAdlRank());
    assert.deepEqual(
      rows.map((row) => [row.symbol, row.holdSide]),
      [[SYMBOL, 'long']],
    );
    assert.ok(Number(rows[0]?.adlRank) >= 0 && Number(rows[0]?.adlRank) <= 1);
  }),
  getPositionHistory: works(async (context) => {
    await openLong(context);
    await context.client.submitNewOrder({
      ...CONTRACT,
      side: 'sell',
      posSide: 'long',
      orderType: 'market',
      qty: '0.01',
    });
    const history = dataOf(await context.client.getPositionHistory({ category: USDT_M })).list;
    assert.deepEqual(
      history.map((position) => position.symbol),
      [SYMBOL],
    );
  }),
  submitStrategyOrder: works(async (context) => {
    const orderId = await stopLoss(context);
    assert.deepEqual(
      (await strategies(context)).map((order) => order.orderId),
      [orderId],
    );
  }),
  modifyStrategyOrder: works(async (context) => {
    const orderId = await stopLoss(context);
    const price = context.futuresAt(0.91);
    await context.client.modifyStrategyOrder({ orderId, qty: '0.01', stopLoss: price });
    assert.equal((await strategies(context))[0]?.stopLoss, price);
  }),
  cancelStrategyOrder: works(async (context) => {
    const orderId = await stopLoss(context);
    await context.client.cancelStrategyOrder({ orderId });
    assert.deepEqual(await strategies(context), []);
  }),
  getUnfilledStrategyOrders: works(async (context) => assert.equal((await strategies(context)).length, 0)),
  getHistoryStrategyOrders: works(async (context) => {
    const orderId = await stopLoss(context);
    await context.client.cancelStrategyOrder({ orderId });
    const history = dataOf(await context.client.getHistoryStrategyOrders({ category: USDT_M })).list;
    assert.deepEqual(
      history.map((order) => [order.orderId, order.status]),
      [[orderId, 'cancelled']],
    );
  }),
  getBalances: works(async ({ client }) => {
    const assets = dataOf(await client.getBalances());
    const usdt = assets.assets.find((asset) => asset.coin === 'USDT');
    assert.equal(usdt?.available, '100000');
  }),
  getAccountSettings: works(async ({ client }) =>
    hasFields(dataOf(await client.getAccountSettings()), 'holdMode'),
  ),
  setLeverage: works(async (context) => {
    await context.client.setLeverage({ ...CONTRACT, leverage: '7' });
    await openLong(context);
    const [position] = dataOf(await context.client.getCurrentPosition({ category: USDT_M })).list;
    assert.equal(position?.leverage, '7');
  }),
  setHoldMode: works(async (context) => {
    await context.client.setHoldMode({ category: USDT_M, holdMode: 'one_way_mode' } as never);
    assert.equal(dataOf(await context.client.getAccountSettings()).holdMode, 'one_way_mode');
  }),
  getFinancialRecords: works(async (context) => {
    await crossingSpotBuy(context);
    const records = dataOf(await context.client.getFinancialRecords({ category: 'SPOT' })).list;
    assert.ok(
      records.some((record) => record.coin === 'BTC'),
      'the bought BTC',
    );
  }),
  getRepayableCoins: works(async ({ client }) =>
    hasFields(dataOf(await client.getRepayableCoins()), 'repayableCoinList'),
  ),
  submitRepay: works(async (context) => {
    // Sell 3 BTC on margin with 2 held: 1 BTC is borrowed; buy it back, then repay.
    await context.client.submitNewOrder({
      category: 'MARGIN',
      symbol: SYMBOL,
      side: 'sell',
      orderType: 'market',
      qty: '3',
    });
    const buy = {
      ...SPOT,
      side: 'buy',
      orderType: 'limit',
      price: context.spotAt(1.005),
      qty: '1.01',
    } as const;
    await context.client.submitNewOrder(buy);
    const repaid = dataOf(
      await context.client.submitRepay({ repayableCoinList: ['BTC'], paymentCoinList: ['BTC'] }),
    );
    hasFields(repaid, 'result');
  }),
  closeAllPositions: works(async (context) => {
    await openLong(context);
    hasFields(dataOf(await context.client.closeAllPositions({ category: USDT_M, symbol: SYMBOL })), 'list');
    assert.deepEqual(dataOf(await context.client.getCurrentPosition({ category: USDT_M })).list, []);
  }),
};
