/**
 * RestClientV2's futures trading methods: orders, batches, modify and cancel, trigger and TP/SL
 * orders, and the order, fill and position reads. A new classic account trades futures in
 * hedge mode (the venue's default), so orders name `tradeSide`.
 */
import assert from 'node:assert/strict';
import { dataOf, FUTURES, isList, SYMBOL, USDT_M, type V2Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;
const CONTRACT = { symbol: SYMBOL, productType: USDT_M } as const;

async function restingFuturesBuy({ client, futuresAt }: V2Context): Promise<string> {
  const order = {
    ...FUTURES,
    side: 'buy',
    tradeSide: 'open',
    orderType: 'limit',
    force: 'gtc',
    price: futuresAt(0.97),
    size: '0.01',
  } as const;
  return dataOf(await client.futuresSubmitOrder(order)).orderId;
}

/** A long of 0.01 BTC opened at market. */
async function openLong({ client }: V2Context): Promise<string> {
  const order = { ...FUTURES, side: 'buy', tradeSide: 'open', orderType: 'market', size: '0.01' } as const;
  return dataOf(await client.futuresSubmitOrder(order)).orderId;
}

/** A trigger order that buys 0.01 at market when the mark rises 3 %. */
async function planBuy({ client, futuresAt }: V2Context): Promise<string> {
  const plan = {
    ...FUTURES,
    planType: 'normal_plan',
    side: 'buy',
    tradeSide: 'open',
    orderType: 'market',
    size: '0.01',
    triggerPrice: futuresAt(1.03),
    triggerType: 'mark_price',
  } as const;
  return dataOf(await client.futuresSubmitPlanOrder(plan)).orderId;
}

async function openFuturesIds(context: V2Context): Promise<string[]> {
  return dataOf(await context.client.getFuturesOpenOrders({ productType: USDT_M })).entrustedList.map(
    (order) => order.orderId,
  );
}

async function livePlans(context: V2Context, planType: 'normal_plan' | 'profit_loss' = 'normal_plan') {
  return (
    dataOf(await context.client.getFuturesPlanOrders({ productType: USDT_M, planType })).entrustedList ?? []
  );
}

export const SDK_V2_FUTURES_CASES: Cases = {
  futuresSubmitOrder: works(async (context) => {
    const orderId = await restingFuturesBuy(context);
    assert.deepEqual(await openFuturesIds(context), [orderId]);
  }),
  futuresBatchSubmitOrders: works(async ({ client, futuresAt }) => {
    const item = {
      side: 'buy',
      tradeSide: 'open',
      orderType: 'limit',
      force: 'gtc',
      price: futuresAt(0.97),
      size: '0.01',
    } as const;
    const result = dataOf(await client.futuresBatchSubmitOrders({ ...FUTURES, orderList: [item, item] }));
    assert.equal(result.successList.length, 2);
  }),
  futuresModifyOrder: works(async (context) => {
    const orderId = await restingFuturesBuy(context);
    const newPrice = context.futuresAt(0.96);
    await context.client.futuresModifyOrder({
      ...CONTRACT,
      orderId,
      newClientOid: `m-${orderId}`,
      newPrice,
      newSize: '0.01',
    });
    const open = dataOf(await context.client.getFuturesOpenOrders({ productType: USDT_M })).entrustedList;
    assert.deepEqual(
      open.map((order) => order.price),
      [newPrice],
    );
  }),
  futuresCancelOrder: works(async (context) => {
    const orderId = await restingFuturesBuy(context);
    await context.client.futuresCancelOrder({ ...CONTRACT, marginCoin: 'USDT', orderId });
    assert.deepEqual(await openFuturesIds(context), []);
  }),
  futuresBatchCancelOrders: works(async (context) => {
    const ids = [await restingFuturesBuy(context), await restingFuturesBuy(context)];
    const result = dataOf(
      await context.client.futuresBatchCancelOrders({
        ...CONTRACT,
        marginCoin: 'USDT',
        orderIdList: ids.map((orderId) => ({ orderId })),
      }),
    );
    assert.equal(result.successList.length, 2);
  }),
  futuresCancelAllOrders: works(async (context) => {
    await restingFuturesBuy(context);
    await context.client.futuresCancelAllOrders({ productType: USDT_M, marginCoin: 'USDT' });
    assert.deepEqual(await openFuturesIds(context), []);
  }),
  getFuturesOrder: works(async (context) => {
    const orderId = await restingFuturesBuy(context);
    const order = dataOf(await context.client.getFuturesOrder({ ...CONTRACT, orderId }));
    assert.deepEqual([order.orderId, order.state, order.size], [orderId, 'live', '0.01']);
  }),
  getFuturesOpenOrders: works(async (context) => {
    const orderId = await restingFuturesBuy(context);
    assert.deepEqual(await openFuturesIds(context), [orderId]);
  }),
  getFuturesHistoricOrders: works(async (context) => {
    const orderId = await openLong(context);
    const orders = dataOf(
      await context.client.getFuturesHistoricOrders({ productType: USDT_M }),
    ).entrustedList;
    assert.deepEqual(
      orders?.map((order) => [order.orderId, order.status]),
      [[orderId, 'filled']],
    );
  }),
  getFuturesFills: works(async (context) => {
    const orderId = await openLong(context);
    const fills = dataOf(await context.client.getFuturesFills({ productType: USDT_M })).fillList;
    assert.ok(fills && fills.length > 0 && fills.every((fill) => fill.orderId === orderId));
  }),
  getFuturesPosition: works(async (context) => {
    await openLong(context);
    const [position] = dataOf(await context.client.getFuturesPosition({ ...CONTRACT, marginCoin: 'USDT' }));
    assert.deepEqual([position?.holdSide, position?.total], ['long', '0.01']);
  }),
  getFuturesPositions: works(async (context) => {
    await openLong(context);
    const positions = dataOf(
      await context.client.getFuturesPositions({ productType: USDT_M, marginCoin: 'USDT' }),
    );
    assert.deepEqual(
      positions.map((position) => position.symbol),
      [SYMBOL],
    );
  }),
  getFuturesPositionAdlRank: works(async (context) => {
    await openLong(context);
    const rows = dataOf(await context.client.getFuturesPositionAdlRank({ productType: USDT_M }));
    assert.deepEqual(
      rows.map((row) => [row.symbol, row.holdSide, row.adlRank === row.rank]),
      [[SYMBOL, 'long', true]],
    );
    assert.ok(Number(rows[0]?.adlRank) >= 0 && Number(rows[0]?.adlRank) <= 1);
  }),
  getFuturesHistoricPositions: works(async (context) => {
    await openLong(context);
    const close = { ...FUTURES, side: 'buy', tradeSide: 'close', orderType: 'market', size: '0.01' } as const;
    await context.client.futuresSubmitOrder(close);
    const history = dataOf(await context.client.getFuturesHistoricPositions({ productType: USDT_M })).list;
    assert.deepEqual(
      history.map((position) => [position.symbol, position.holdSide]),
      [[SYMBOL, 'long']],
    );
  }),
  futuresSubmitPlanOrder: works(async (context) => {
    const orderId = await planBuy(context);
    assert.deepEqual(
      (await livePlans(context)).map((plan) => plan.orderId),
      [orderId],
    );
  }),
  futuresModifyPlanOrder: works(async (context) => {
    const orderId = await planBuy(context);
    const newTriggerPrice = context.futuresAt(1.04);
    await context.client.futuresModifyPlanOrder({
      ...CONTRACT,
      planType: 'normal_plan',
      orderId,
      newTriggerPrice,
      newSize: '0.01',
    });
    assert.equal((await livePlans(context))[0]?.triggerPrice, newTriggerPrice);
  }),
  futuresCancelPlanOrder: works(async (context) => {
    const orderId = await planBuy(context);
    await context.client.futuresCancelPlanOrder({
      ...CONTRACT,
      marginCoin: 'USDT',
      orderIdList: [{ orderId }],
    });
    assert.deepEqual(await livePlans(context), []);
  }),
  getFuturesPlanOrders: works(async (context) => {
    const orderId = await planBuy(context);
    assert.equal((await livePlans(context))[0]?.orderId, orderId);
  }),
  getFuturesHistoricPlanOrders: works(async (context) => {
    const orderId = await planBuy(context);
    await context.client.futuresCancelPlanOrder({
      ...CONTRACT,
      marginCoin: 'USDT',
      orderIdList: [{ orderId }],
    });
    const history = dataOf(
      await context.client.getFuturesHistoricPlanOrders({ productType: USDT_M, planType: 'normal_plan' }),
    );
    assert.deepEqual(
      history.entrustedList?.map((plan) => [plan.orderId, plan.planStatus]),
      [[orderId, 'cancelled']],
    );
  }),
  getFuturesTriggerSubOrder: works(async (context) => {
    const planOrderId = await planBuy(context);
    const subOrders = dataOf(
      await context.client.getFuturesTriggerSubOrder({
        planType: 'normal_plan',
        planOrderId,
        productType: USDT_M,
      }),
    );
    assert.deepEqual(isList(subOrders), [], 'a plan that has not fired has no sub-order');
  }),
  futuresSubmitTPSLOrder: works(async (context) => {
    await openLong(context);
    const stop = {
      ...CONTRACT,
      marginCoin: 'USDT',
      planType: 'loss_plan',
      triggerPrice: context.futuresAt(0.9),
      holdSide: 'long',
      size: '0.01',
    } as const;
    const orderId = dataOf(await context.client.futuresSubmitTPSLOrder(stop)).orderId;
    assert.ok((await livePlans(context, 'profit_loss')).some((plan) => plan.orderId === orderId));
  }),
  futuresSubmitPositionTPSL: works(async (context) => {
    await openLong(context);
    const tpsl = {
      ...CONTRACT,
      marginCoin: 'USDT',
      holdSide: 'long',
      stopSurplusTriggerPrice: context.futuresAt(1.1),
      stopLossTriggerPrice: context.futuresAt(0.9),
    } as const;
    isList(dataOf(await context.client.futuresSubmitPositionTPSL(tpsl)), 'orderId');
    assert.equal((await livePlans(context, 'profit_loss')).length, 2);
  }),
  futuresModifyTPSLPOrder: works(async (context) => {
    await openLong(context);
    const stop = {
      ...CONTRACT,
      marginCoin: 'USDT',
      planType: 'loss_plan',
      triggerPrice: context.futuresAt(0.9),
      holdSide: 'long',
      size: '0.01',
    } as const;
    const orderId = dataOf(await context.client.futuresSubmitTPSLOrder(stop)).orderId;
    const triggerPrice = context.futuresAt(0.91);
    await context.client.futuresModifyTPSLPOrder({
      ...CONTRACT,
      marginCoin: 'USDT',
      orderId,
      triggerPrice,
      size: '0.01',
    });
    assert.equal((await livePlans(context, 'profit_loss'))[0]?.triggerPrice, triggerPrice);
  }),
  futuresFlashClosePositions: works(async (context) => {
    await openLong(context);
    const closed = dataOf(await context.client.futuresFlashClosePositions({ ...CONTRACT, holdSide: 'long' }));
    assert.equal(closed.successList.length, 1);
    assert.deepEqual(
      dataOf(await context.client.getFuturesPositions({ productType: USDT_M, marginCoin: 'USDT' })),
      [],
    );
  }),
};
