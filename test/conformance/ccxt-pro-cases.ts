/**
 * ccxt.pro's watch methods over the server's WebSocket endpoints (v2 on a classic account, v3
 * on a unified one). Market channels resolve from what the feed and the house's quotes push;
 * private ones after the server acknowledged the subscription and the case traded.
 */
import assert from 'node:assert/strict';
import type { CcxtContext } from './ccxt-context.ts';
import { SPOT, SWAP, until, type Bitget } from './harness.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<CcxtContext>>;
const ETH = 'ETH/USDT';
const WATCH_TIMEOUT_MS = 20_000;

/** `promise`, or a rejection naming `what` after WATCH_TIMEOUT_MS. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${WATCH_TIMEOUT_MS} ms`)), WATCH_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Ack = { arg?: { channel?: string; topic?: string } };

/** Records the channels (v2) and topics (v3) the server acknowledged to `exchange`. */
function acknowledgements(exchange: Bitget): string[] {
  const acked: string[] = [];
  const pro = exchange as unknown as { handleSubscriptionStatus(client: unknown, message: Ack): unknown };
  const handle = pro.handleSubscriptionStatus.bind(exchange);
  pro.handleSubscriptionStatus = (client, message) => {
    acked.push(String(message.arg?.channel ?? message.arg?.topic));
    return handle(client, message);
  };
  return acked;
}

/** Loads ccxt's proxy agent (needed for ws:// URLs) and starts a private watch once acknowledged. */
async function subscribed<T>(
  context: CcxtContext,
  watch: () => Promise<T>,
  channels: string[],
): Promise<{ next: Promise<T> }> {
  const { exchange } = context;
  await exchange.loadHttpProxyAgent();
  const acked = acknowledgements(exchange);
  const watching = watch();
  watching.catch(() => undefined);
  await until(() => channels.some((channel) => acked.includes(channel)), `acknowledgement of ${channels}`);
  return { next: watching };
}

async function connected(context: CcxtContext): Promise<Bitget> {
  await context.exchange.loadHttpProxyAgent();
  return context.exchange;
}

export const CCXT_PRO_CASES: Cases = {
  watchTicker: works(async (context) => {
    const ticker = await within((await connected(context)).watchTicker(SPOT), 'ticker');
    assert.equal(ticker.symbol, SPOT);
    assert.ok((ticker.last ?? 0) > 0, 'a last price');
  }),
  watchTickers: works(async (context) => {
    const tickers = await within((await connected(context)).watchTickers([SPOT, ETH]), 'tickers');
    assert.ok(
      Object.keys(tickers).every((symbol) => [SPOT, ETH].includes(symbol)) && Object.keys(tickers).length > 0,
    );
  }),
  watchOrderBook: works(async (context) => {
    const book = await within((await connected(context)).watchOrderBook(SWAP), 'order book');
    const [bid] = book.bids[0] ?? [];
    const [ask] = book.asks[0] ?? [];
    assert.ok(bid !== undefined && ask !== undefined && bid < ask, `book ${bid} ${ask}`);
  }),
  watchOrderBookForSymbols: works(async (context) => {
    const book = await within(
      (await connected(context)).watchOrderBookForSymbols([SPOT, ETH]),
      'order books',
    );
    assert.ok([SPOT, ETH].includes(String(book.symbol)) && book.bids.length > 0);
  }),
  watchBidsAsks: works(async (context) => {
    const quotes = await within((await connected(context)).watchBidsAsks([SPOT]), 'best bid and ask');
    const quote = quotes[SPOT];
    assert.ok(quote && (quote.bid ?? 0) < (quote.ask ?? 0), `bid under ask: ${JSON.stringify(quote)}`);
  }),
  watchOHLCV: works(async (context) => {
    const candles = await within((await connected(context)).watchOHLCV(SWAP, '1m'), 'candles');
    assert.ok((candles.at(-1)?.[4] ?? 0) > 0, 'a close');
  }),
  watchTrades: works(async (context) => {
    const watching = await subscribed(context, () => context.exchange.watchTrades(SPOT), [
      'trade',
      'publicTrade',
    ]);
    await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, context.at(SPOT, 1.005));
    const trades = await within(watching.next, 'trade');
    assert.ok(trades.length > 0 && (trades.at(-1)?.price ?? 0) > 0);
  }),
  watchTradesForSymbols: works(async (context) => {
    const watching = await subscribed(context, () => context.exchange.watchTradesForSymbols([SPOT, ETH]), [
      'trade',
      'publicTrade',
    ]);
    await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, context.at(SPOT, 1.005));
    const trades = await within(watching.next, 'trade');
    assert.ok(trades.some((trade) => trade.symbol === SPOT));
  }),
  watchOrders: works(async (context) => {
    const watching = await subscribed(context, () => context.exchange.watchOrders(SPOT), ['orders', 'order']);
    const order = await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, context.at(SPOT, 0.97));
    const orders = await within(watching.next, 'order update');
    assert.ok(
      orders.some((entry) => entry.id === order.id && entry.status === 'open'),
      JSON.stringify(orders),
    );
  }),
  watchMyTrades: works(async (context) => {
    const watching = await subscribed(context, () => context.exchange.watchMyTrades(SPOT), ['fill']);
    const order = await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, context.at(SPOT, 1.005));
    const trades = await within(watching.next, 'fill');
    assert.ok(trades.some((trade) => trade.order === order.id && trade.amount === 0.001));
  }),
  watchBalance: works(async (context) => {
    const watching = await subscribed(context, () => context.exchange.watchBalance(), ['account']);
    await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, context.at(SPOT, 0.97));
    const balance = await within(watching.next, 'balance');
    assert.ok((balance.USDT?.total ?? 0) > 0, JSON.stringify(balance.USDT));
  }),
  watchPositions: works(async (context) => {
    await context.oneWay();
    const { exchange } = context;
    await subscribed(context, () => exchange.watchPositions([SWAP]), ['positions', 'position']);
    await exchange.createOrder(SWAP, 'market', 'buy', 0.01);
    // Read what ccxt.pro parsed: the first push (an empty snapshot) may resolve the watch
    // before the fill, and a push between two watch calls resolves neither.
    const cache = exchange as unknown as {
      positions?: Record<string, Iterable<{ symbol?: string; contracts?: number }>>;
    };
    const held = await until(
      () =>
        Object.values(cache.positions ?? {})
          .flatMap((positions) => [...positions])
          .find((position) => position.symbol === SWAP),
      'a pushed position',
    );
    assert.equal(held.contracts, 0.01);
  }),
};
