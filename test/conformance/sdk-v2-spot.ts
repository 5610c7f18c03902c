/**
 * RestClientV2's spot trading methods: orders that rest 3 % from the price or cross the
 * house's quotes, batches, cancels and cancel-replace, plan (trigger) orders, and the order
 * and fill reads.
 */
import assert from 'node:assert/strict';
import { dataOf, SYMBOL, type V2Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;
const SPOT = { symbol: SYMBOL };

async function restingSpotBuy({ client, spotAt }: V2Context): Promise<string> {
  const placed = await client.spotSubmitOrder({
    ...SPOT,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: spotAt(0.97),
    size: '0.001',
  });
  return dataOf(placed).orderId;
}

async function crossingSpotBuy({ client, spotAt }: V2Context): Promise<string> {
  const placed = await client.spotSubmitOrder({
    ...SPOT,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: spotAt(1.005),
    size: '0.001',
  });
  return dataOf(placed).orderId;
}

/** A plan that buys 50 USDT of BTC at market when the last price rises 3 %. */
async function planBuy({ client, spotAt }: V2Context): Promise<string> {
  const plan = {
    ...SPOT,
    side: 'buy',
    triggerPrice: spotAt(1.03),
    orderType: 'market',
    size: '50',
    triggerType: 'mark_price',
    planType: 'total',
  } as const;
  return dataOf(await client.spotSubmitPlanOrder(plan as never)).orderId;
}

async function livePlans({ client }: V2Context) {
  return dataOf(await client.getSpotCurrentPlanOrders(SPOT)).orderList;
}

async function openSpotIds(context: V2Context): Promise<string[]> {
  return dataOf(await context.client.getSpotOpenOrders(SPOT)).map((order) => order.orderId);
}

export const SDK_V2_SPOT_CASES: Cases = {
  spotSubmitOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.deepEqual(await openSpotIds(context), [orderId]);
    // With TP/SL presets: the filled buy's 0.001 BTC, less the 0.1 % fee in BTC (0.000999),
    // becomes a TP/SL pair of spot plans that sell it.
    const { client, spotAt } = context;
    const filled = dataOf(
      await client.spotSubmitOrder({
        ...SPOT,
        side: 'buy',
        orderType: 'limit',
        force: 'gtc',
        price: spotAt(1.005),
        size: '0.001',
        presetTakeProfitPrice: spotAt(1.1),
        presetStopLossPrice: spotAt(0.9),
      }),
    ).orderId;
    const [detail] = dataOf(await client.getSpotOrder({ orderId: filled })) as unknown as Record<
      string,
      unknown
    >[];
    assert.deepEqual(
      [detail?.status, detail?.presetTakeProfitPrice, detail?.presetStopLossPrice],
      ['filled', spotAt(1.1), spotAt(0.9)],
    );
    const pair = (await livePlans(context)).map((plan) =>
      [plan.side, plan.size, plan.triggerPrice].join(' '),
    );
    assert.deepEqual(pair.sort(), [`sell 0.000999 ${spotAt(0.9)}`, `sell 0.000999 ${spotAt(1.1)}`].sort());
  }),
  spotCancelOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.equal(dataOf(await context.client.spotCancelOrder({ ...SPOT, orderId })).orderId, orderId);
    assert.deepEqual(await openSpotIds(context), []);
  }),
  spotBatchSubmitOrders: works(async ({ client, spotAt }) => {
    const item = {
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      price: spotAt(0.97),
      size: '0.001',
    } as const;
    const result = dataOf(await client.spotBatchSubmitOrders({ ...SPOT, orderList: [item, item] }));
    assert.deepEqual([result.successList.length, result.failureList.length], [2, 0]);
  }),
  spotBatchCancelOrders: works(async (context) => {
    const ids = [await restingSpotBuy(context), await restingSpotBuy(context)];
    const result = dataOf(
      await context.client.spotBatchCancelOrders({ ...SPOT, orderList: ids.map((orderId) => ({ orderId })) }),
    );
    assert.equal(result.successList.length, 2);
  }),
  spotCancelSymbolOrder: works(async (context) => {
    await restingSpotBuy(context);
    await context.client.spotCancelSymbolOrder(SPOT);
    assert.deepEqual(await openSpotIds(context), []);
  }),
  getSpotOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    const [order] = dataOf(await context.client.getSpotOrder({ orderId }));
    assert.deepEqual([order?.orderId, order?.status, order?.size], [orderId, 'live', '0.001']);
  }),
  getSpotOpenOrders: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.deepEqual(await openSpotIds(context), [orderId]);
  }),
  getSpotHistoricOrders: works(async (context) => {
    const orderId = await crossingSpotBuy(context);
    const orders = dataOf(await context.client.getSpotHistoricOrders(SPOT));
    assert.deepEqual(
      orders.map((order) => [order.orderId, order.status]),
      [[orderId, 'filled']],
    );
  }),
  getSpotFills: works(async (context) => {
    const orderId = await crossingSpotBuy(context);
    const fills = dataOf(await context.client.getSpotFills(SPOT));
    assert.ok(fills.length > 0 && fills.every((fill) => fill.orderId === orderId));
  }),
  spotSubmitPlanOrder: works(async (context) => {
    const orderId = await planBuy(context);
    assert.deepEqual(
      (await livePlans(context)).map((plan) => plan.orderId),
      [orderId],
    );
  }),
  getSpotCurrentPlanOrders: works(async (context) => {
    const orderId = await planBuy(context);
    assert.equal((await livePlans(context))[0]?.triggerPrice, context.spotAt(1.03));
    assert.equal((await livePlans(context))[0]?.orderId, orderId);
  }),
  spotModifyPlanOrder: works(async (context) => {
    const orderId = await planBuy(context);
    const triggerPrice = context.spotAt(1.04);
    await context.client.spotModifyPlanOrder({ orderId, triggerPrice, orderType: 'market', size: '60' });
    assert.equal((await livePlans(context))[0]?.triggerPrice, triggerPrice);
  }),
  spotCancelPlanOrder: works(async (context) => {
    const orderId = await planBuy(context);
    await context.client.spotCancelPlanOrder({ orderId });
    assert.deepEqual(await livePlans(context), []);
  }),
  spotCancelPlanOrders: works(async (context) => {
    await planBuy(context);
    await planBuy(context);
    await context.client.spotCancelPlanOrders({ symbolList: [SYMBOL] });
    assert.deepEqual(await livePlans(context), []);
  }),
  getSpotHistoricPlanOrders: works(async (context) => {
    const orderId = await planBuy(context);
    await context.client.spotCancelPlanOrder({ orderId });
    const window = { startTime: String(Date.now() - 60_000), endTime: String(Date.now() + 60_000) };
    const history = dataOf(await context.client.getSpotHistoricPlanOrders({ ...SPOT, ...window })).orderList;
    assert.deepEqual(
      history.map((plan) => [plan.orderId, plan.status]),
      [[orderId, 'cancelled']],
    );
  }),
  getSpotPlanSubOrder: works(async (context) => {
    const planOrderId = await planBuy(context);
    assert.deepEqual(
      dataOf(await context.client.getSpotPlanSubOrder({ planOrderId })),
      [],
      'not fired: no sub-order',
    );
  }),
  spotCancelandSubmitOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    const price = context.spotAt(0.96);
    const replaced = dataOf(
      await context.client.spotCancelandSubmitOrder({ ...SPOT, orderId, price, size: '0.001' }),
    );
    const [open] = dataOf(await context.client.getSpotOpenOrders(SPOT));
    assert.deepEqual([open?.orderId, open?.priceAvg], [replaced.orderId, price]);
  }),
  spotBatchCancelandSubmitOrder: works(async (context) => {
    const ids = [await restingSpotBuy(context), await restingSpotBuy(context)];
    const price = context.spotAt(0.96);
    const orderList = ids.map((orderId) => ({ ...SPOT, orderId, price, size: '0.001' }));
    const replaced = dataOf(await context.client.spotBatchCancelandSubmitOrder({ orderList }));
    assert.equal(replaced.length, 2);
    assert.deepEqual((await openSpotIds(context)).sort(), replaced.map((order) => order.orderId).sort());
  }),
};
