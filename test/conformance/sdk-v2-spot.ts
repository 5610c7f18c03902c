/**
 * RestClientV2's spot trading methods: orders that rest 3 % from the price or cross the
 * house's quotes, batches and cancels, and the order and fill reads.
 */
import assert from 'node:assert/strict';
import { dataOf, SYMBOL, type V2Context } from './sdk-context.ts';
import { pending, works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;
const SPOT = { symbol: SYMBOL };
const SPOT_PLANS = 'spot plan orders and cancel-replace are being added';

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

async function openSpotIds(context: V2Context): Promise<string[]> {
  return dataOf(await context.client.getSpotOpenOrders(SPOT)).map((order) => order.orderId);
}

export const SDK_V2_SPOT_CASES: Cases = {
  spotSubmitOrder: works(async (context) => {
    const orderId = await restingSpotBuy(context);
    assert.deepEqual(await openSpotIds(context), [orderId]);
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
  spotSubmitPlanOrder: pending('i20a', SPOT_PLANS),
  spotModifyPlanOrder: pending('i20a', SPOT_PLANS),
  spotCancelPlanOrder: pending('i20a', SPOT_PLANS),
  getSpotCurrentPlanOrders: pending('i20a', SPOT_PLANS),
  getSpotPlanSubOrder: pending('i20a', SPOT_PLANS),
  getSpotHistoricPlanOrders: pending('i20a', SPOT_PLANS),
  spotCancelPlanOrders: pending('i20a', SPOT_PLANS),
  spotCancelandSubmitOrder: pending('i20a', SPOT_PLANS),
  spotBatchCancelandSubmitOrder: pending('i20a', SPOT_PLANS),
};
