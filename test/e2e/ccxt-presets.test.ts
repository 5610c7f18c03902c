/**
 * ccxt's bitget class, unmodified, placing orders with TP/SL presets on a server at its
 * defaults (price feed and liquidity provider on): createOrderWithTakeProfitAndStopLoss on a
 * unified account (v3 `takeProfit` / `stopLoss`), and createOrder with `stopLoss` /
 * `takeProfit` on a classic account (v2 `presetStopLossPrice` / `presetStopSurplusPrice`).
 * The order reads back with its TP/SL, and its fill makes the position's TP/SL (a v3 strategy
 * order; v2 pos_profit / pos_loss plans). On the unified account the operator then lifts the
 * index well past the TP: it fires and the position closes.
 *
 * The opening fills are made against the test's own counterparty at the price the operator
 * set, inside the house's spread, so they do not depend on the house's quotes; the sim feed
 * moves the index a little between steps, so the TP and SL sit 3 % away and the lift is 4 %.
 * The TP's market close takes the best bid then: the house's or the counterparty's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ccxt from 'ccxt';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

const SYMBOL = 'BTC/USDT:USDT';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  // The defaults: the sim feed, the liquidity provider, new accounts in hedge mode.
  server = await startTestServer({
    env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on', BOURSE_POSITION_MODE: undefined },
  });
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

async function exchangeFor(mode: 'classic' | 'unified', usdt: string) {
  const { uid } = await operator.createAccount({ mode });
  await operator.deposit(uid, {
    coin: 'USDT',
    amount: usdt,
    wallet: mode === 'unified' ? 'unified' : 'usdt_futures',
  });
  const key = await operator.createApiKey(uid);
  const exchange = new ccxt.bitget({ apiKey: key.apiKey, secret: key.secretKey, password: key.passphrase });
  const urls = exchange.urls as { api: Record<string, string> };
  urls.api = Object.fromEntries(Object.keys(urls.api).map((section) => [section, server.url]));
  await exchange.loadMarkets();
  return exchange;
}

/**
 * The operator's index, then what the server's timers would do next, done now: the feed
 * carries it to the rest of its stream and the house re-quotes around it (its best bid and
 * ask 0.05 % away), so an order at the index rests until the test's own order takes it.
 */
async function setPrice(indexPrice: string): Promise<void> {
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  await server.market.feeds.poll();
  await server.market.liquidity.requote();
}

type Exchange = Awaited<ReturnType<typeof exchangeFor>>;

async function strategyOrders(exchange: Exchange) {
  return exchange.fetchOpenOrders(SYMBOL, undefined, undefined, { trigger: true });
}

test('createOrderWithTakeProfitAndStopLoss when the account is unified makes a strategy order that fires', async () => {
  const trader = await exchangeFor('unified', '10000');
  const counterparty = await exchangeFor('unified', '1000000');
  await setPrice('60000');
  // Hedge mode (a new account's): ccxt sends posSide when `hedged`.
  await counterparty.createOrder(SYMBOL, 'limit', 'sell', 0.01, 60000, { hedged: true });
  // ccxt sends the params it does not know as they are: the legs follow the mark price.
  const placed = await trader.createOrderWithTakeProfitAndStopLoss(
    SYMBOL,
    'limit',
    'buy',
    0.01,
    60000,
    61800,
    58200,
    {
      hedged: true,
      tpTriggerBy: 'mark',
      slTriggerBy: 'mark',
    },
  );
  const order = await trader.fetchOrder(String(placed.id), SYMBOL);
  assert.deepEqual(
    [order.status, order.filled, order.takeProfitPrice, order.stopLossPrice],
    ['closed', 0.01, 61800, 58200],
  );
  const [strategy] = await strategyOrders(trader);
  assert.deepEqual(
    [strategy?.info.type, strategy?.info.status, strategy?.info.takeProfit, strategy?.info.stopLoss],
    ['tpsl', 'pending', '61800', '58200'],
  );
  const [position] = await trader.fetchPositions([SYMBOL]);
  assert.equal(position?.contracts, 0.01);

  // A bid for the close, then the index 4 % up: the TP (mark ≥ 61800) fires and its market
  // order closes the long at the best bid.
  await counterparty.createOrder(SYMBOL, 'limit', 'buy', 0.01, 59500, { hedged: true });
  await setPrice('62400');
  assert.deepEqual(await strategyOrders(trader), []);
  assert.deepEqual(await trader.fetchPositions([SYMBOL]), []);
  const history = await trader.privateUtaGetV3TradeHistoryStrategyOrders({ category: 'USDT-FUTURES' });
  const [done] = (history as { data: { list: Record<string, string>[] } }).data.list;
  assert.deepEqual([done?.status, done?.triggerType], ['success', 'takeProfit']);
});

test('a new futures account when created at the defaults is in hedge mode, as on the venue', async () => {
  const classic = await exchangeFor('classic', '10');
  const account = await classic.privateMixGetV2MixAccountAccount({
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
  });
  assert.equal((account as { data: { posMode: string } }).data.posMode, 'hedge_mode');
  const unified = await exchangeFor('unified', '10');
  const settings = await unified.privateUtaGetV3AccountSettings();
  assert.equal((settings as { data: { holdMode: string } }).data.holdMode, 'hedge_mode');
});

test('createOrder with stopLoss and takeProfit when the account is classic makes pos_profit/pos_loss', async () => {
  const trader = await exchangeFor('classic', '10000');
  const counterparty = await exchangeFor('classic', '1000000');
  // One-way, as ccxt trades by default (no tradeSide).
  await trader.setPositionMode(false, SYMBOL);
  await counterparty.setPositionMode(false, SYMBOL);
  await setPrice('60000');
  await counterparty.createOrder(SYMBOL, 'limit', 'sell', 0.01, 60000);
  const placed = await trader.createOrder(SYMBOL, 'limit', 'buy', 0.01, 60000, {
    stopLoss: { triggerPrice: 58200 },
    takeProfit: { triggerPrice: 61800 },
  });
  const order = await trader.fetchOrder(String(placed.id), SYMBOL);
  assert.deepEqual(
    [order.status, order.filled, order.takeProfitPrice, order.stopLossPrice],
    ['closed', 0.01, 61800, 58200],
  );
  const plans = await trader.fetchOpenOrders(SYMBOL, undefined, undefined, { planType: 'profit_loss' });
  assert.deepEqual(plans.map((plan) => [plan.info.planType, plan.info.triggerPrice]).sort(), [
    ['pos_loss', '58200'],
    ['pos_profit', '61800'],
  ]);
  // ccxt keeps the position row's takeProfit / stopLoss in `info`.
  const [position] = await trader.fetchPositions([SYMBOL]);
  assert.deepEqual(
    [position?.contracts, position?.info.takeProfit, position?.info.stopLoss],
    [0.01, '61800', '58200'],
  );
  // fetchLedger sends `coin` on swap bills; the venue reads it only for transfers.
  const ledger = await trader.fetchLedger('USDT', undefined, undefined, { type: 'swap' });
  assert.ok(ledger.length >= 2, 'the deposit and the trade');
});
