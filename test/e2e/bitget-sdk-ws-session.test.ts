/**
 * A bot whose whole state comes from the SDK's WebsocketClientV2 (orders, positions and
 * account channels on USDT-FUTURES) stays in agreement with REST through a scripted session:
 * two resting orders, a cancel, a fill that opens a position, and a liquidation (a liquidation
 * order of the bot's at the bankruptcy price, the insurance fund taking it: a positions-history
 * row).
 *
 * A second test fires a trigger order: the plan on orders-algo (live, then executed) and the
 * order it placed on orders, as REST reports them.
 *
 * Figures: 400 USDT in the futures wallet; a 0.1 BTC long at 59000 (notional 5900, 20×
 * crossed). Liquidation needs equity below maintenance: 400 + 0.1·(P − 59000) minus fees
 * falls under ~0.4 % of 0.1·P near P ≈ 55 200, so an index of 50 000 liquidates it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, WebsocketClientV2 } from 'bitget-api';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

type Row = Record<string, unknown>;
type Event = { arg?: Record<string, string>; data?: Row[] };

const silent = { trace: () => undefined, info: () => undefined, error: () => undefined };
const PRODUCT = 'USDT-FUTURES';

let server: TestServer;
let operator: OperatorClient;
let socket: WebsocketClientV2 | null = null;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(async () => {
  socket?.closeAll(true);
  await server.close();
});

/** The bot's view of its account, built only from WebSocket pushes. */
class WsState {
  readonly orders = new Map<string, Row>();
  positions: Row[] = [];
  readonly accounts = new Map<string, Row>();
  readonly statuses: [string, string][] = [];
  closed: Row[] = [];
  acks = 0;

  constructor(client: WebsocketClientV2) {
    client.on('response', (event: { event?: string }) => {
      if (event.event === 'subscribe') this.acks += 1;
    });
    client.on('update', (event: Event) => {
      const channel = event.arg?.channel;
      for (const row of event.data ?? []) {
        if (channel === 'orders') {
          this.orders.set(String(row.orderId), row);
          this.statuses.push([String(row.orderId), String(row.status)]);
        }
        if (channel === 'account') this.accounts.set(String(row.marginCoin), row);
        if (channel === 'positions-history') this.closed.push(row);
      }
      if (channel === 'positions') this.positions = event.data ?? [];
    });
  }

  openOrderIds(): string[] {
    return [...this.orders.values()]
      .filter((row) => row.status === 'live' || row.status === 'partially_filled')
      .map((row) => String(row.orderId))
      .sort();
  }
}

async function until(check: () => boolean, what: string, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function futuresClient(amount: string) {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount, wallet: 'usdt_futures' });
  const key = await operator.createApiKey(uid);
  const credentials = { apiKey: key.apiKey, apiSecret: key.secretKey, apiPass: key.passphrase };
  return { credentials, rest: new RestClientV2({ ...credentials, baseUrl: server.url }) };
}

async function assertAgrees(bot: WsState, rest: RestClientV2): Promise<void> {
  const open = (await rest.getFuturesOpenOrders({ productType: PRODUCT } as never)).data;
  const restOpen = (open.entrustedList ?? []).map((order: { orderId: string }) => order.orderId).sort();
  await until(() => JSON.stringify(bot.openOrderIds()) === JSON.stringify(restOpen), 'open orders to agree');
  const positions = (await rest.getFuturesPositions({ productType: PRODUCT, marginCoin: 'USDT' } as never))
    .data;
  const summary = (rows: Row[]) =>
    rows.map((row) => [row.instId ?? row.symbol, row.holdSide, row.total, row.openPriceAvg]);
  await until(
    () => JSON.stringify(summary(bot.positions)) === JSON.stringify(summary(positions as unknown as Row[])),
    `positions to agree: ws ${JSON.stringify(summary(bot.positions))} rest ${JSON.stringify(summary(positions as unknown as Row[]))}`,
  );
  const [asset] = (await rest.getFuturesAccountAssets({ productType: PRODUCT } as never))
    .data as unknown as Row[];
  await until(
    () =>
      bot.accounts.get('USDT')?.available === asset?.available &&
      bot.accounts.get('USDT')?.equity === asset?.accountEquity,
    `account to agree: ws ${JSON.stringify(bot.accounts.get('USDT'))} rest ${JSON.stringify(asset)}`,
  );
}

test('a bot fed only by WebsocketClientV2 agrees with REST through orders, a cancel, a fill and a liquidation', async () => {
  const bot = await futuresClient('400');
  const counterparty = await futuresClient('100000');
  socket = new WebsocketClientV2(
    { ...bot.credentials, wsUrl: `${server.url.replace(/^http/, 'ws')}/v2/ws/private` },
    silent,
  );
  const state = new WsState(socket);
  socket.subscribeTopic(PRODUCT, 'orders');
  socket.subscribeTopic(PRODUCT, 'positions');
  socket.subscribeTopic(PRODUCT, 'account');
  socket.subscribeTopic(PRODUCT, 'positions-history');
  await until(() => state.acks >= 4 && state.accounts.has('USDT'), 'subscriptions and account snapshot');
  const base = { symbol: 'BTCUSDT', productType: PRODUCT, marginMode: 'crossed', marginCoin: 'USDT' };

  // Two resting buys; one cancelled.
  const kept = await bot.rest.futuresSubmitOrder({
    ...base,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '59000',
    size: '0.1',
  } as never);
  const dropped = await bot.rest.futuresSubmitOrder({
    ...base,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '58000',
    size: '0.02',
  } as never);
  await assertAgrees(state, bot.rest);
  await bot.rest.futuresCancelOrder({ ...base, orderId: dropped.data.orderId } as never);
  await assertAgrees(state, bot.rest);
  assert.equal(state.orders.get(dropped.data.orderId)?.status, 'canceled');

  // The counterparty sells into the resting buy: the bot is long 0.1 at 59000.
  await counterparty.rest.futuresSubmitOrder({
    ...base,
    side: 'sell',
    orderType: 'market',
    size: '0.1',
  } as never);
  await assertAgrees(state, bot.rest);
  assert.deepEqual(
    state.statuses.filter(([orderId]) => orderId === kept.data.orderId).map(([, status]) => status),
    ['live', 'filled'],
  );
  assert.equal(state.positions[0]?.total, '0.1');
  assert.equal(state.positions[0]?.openPriceAvg, '59000');

  // The index falls to 50 000: the position is liquidated.
  await operator.setPrice({ category: PRODUCT, symbol: 'BTCUSDT', indexPrice: '50000' });
  await until(() => state.positions.length === 0, 'the position to close on the positions channel');
  await assertAgrees(state, bot.rest);
  // The position was closed by a liquidation order (the fund took it at the bankruptcy price):
  // the position history channel reports the close, and every order REST's history knows,
  // the liquidation order among them, was seen on the socket.
  await until(() => state.closed.length === 1, 'positions-history push');
  assert.equal(state.closed[0]?.closeSize, '0.1');
  const history = (await bot.rest.getFuturesHistoricOrders({ productType: PRODUCT } as never)).data;
  const restIds = (history.entrustedList ?? []).map((order: { orderId: string }) => order.orderId).sort();
  assert.deepEqual([...state.orders.keys()].sort(), restIds);
  const liquidation = (history.entrustedList ?? []).find(
    (order: { orderSource: string }) => order.orderSource === 'liquidation',
  );
  assert.ok(liquidation && state.orders.has(liquidation.orderId));
});

test('a trigger order firing shows on orders-algo and its order on orders, as REST reports them', async () => {
  const bot = await futuresClient('10000');
  const client = new WebsocketClientV2(
    { ...bot.credentials, wsUrl: `${server.url.replace(/^http/, 'ws')}/v2/ws/private` },
    silent,
  );
  const plans = new Map<string, Row>();
  const orders = new Map<string, Row>();
  let acks = 0;
  client.on('response', (event: { event?: string }) => {
    if (event.event === 'subscribe') acks += 1;
  });
  client.on('update', (event: Event) => {
    for (const row of event.data ?? []) {
      if (event.arg?.channel === 'orders-algo') plans.set(String(row.orderId), row);
      if (event.arg?.channel === 'orders') orders.set(String(row.orderId), row);
    }
  });
  try {
    client.subscribeTopic(PRODUCT, 'orders-algo');
    client.subscribeTopic(PRODUCT, 'orders');
    await until(() => acks >= 2, 'subscriptions');
    await operator.setPrice({ category: PRODUCT, symbol: 'BTCUSDT', indexPrice: '60000' });
    // A buy limit at 59000 armed when the mark reaches 60500 (it then rests: nothing sells).
    const plan = await bot.rest.futuresSubmitPlanOrder({
      planType: 'normal_plan',
      symbol: 'BTCUSDT',
      productType: PRODUCT,
      marginMode: 'crossed',
      marginCoin: 'USDT',
      size: '0.01',
      price: '59000',
      triggerPrice: '60500',
      triggerType: 'mark_price',
      side: 'buy',
      orderType: 'limit',
    } as never);
    const planId = plan.data.orderId;
    await until(() => plans.get(planId)?.status === 'live', 'the live plan on orders-algo');
    await operator.setPrice({ category: PRODUCT, symbol: 'BTCUSDT', indexPrice: '60500' });
    await until(() => plans.get(planId)?.status === 'executed', 'the executed plan on orders-algo');
    const pending = (await bot.rest.getFuturesOpenOrders({ productType: PRODUCT } as never)).data;
    const [placed] = (pending.entrustedList ?? []) as unknown as Row[];
    assert.ok(placed, 'REST shows the order the plan placed');
    await until(() => orders.get(String(placed.orderId))?.status === 'live', 'the placed order on orders');
    assert.equal(orders.get(String(placed.orderId))?.price, '59000');
    assert.equal(plans.get(planId)?.triggerPrice, '60500');
  } finally {
    client.closeAll(true);
  }
});
