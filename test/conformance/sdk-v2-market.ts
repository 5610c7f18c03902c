/**
 * RestClientV2's public methods (common, spot and futures market data, margin currencies,
 * trading statistics) on a server at its defaults: the house quotes every book and the feed
 * moves prices, so books, tickers and index candles are never empty.
 */
import assert from 'node:assert/strict';
import { dataOf, FUTURES, hasFields, isList, SYMBOL, USDT_M, type V2Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;
const SPOT = { symbol: SYMBOL };
const CONTRACT = { symbol: SYMBOL, productType: USDT_M } as const;

/** A spot buy crossing the house's ask, so the pair has a trade of this account's. */
async function spotTrade({ client, spotAt }: V2Context): Promise<void> {
  await client.spotSubmitOrder({
    ...SPOT,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: spotAt(1.005),
    size: '0.001',
  });
}

/** A futures buy crossing the house's ask (hedge mode: it opens a long). */
async function futuresTrade({ client, futuresAt }: V2Context): Promise<void> {
  await client.futuresSubmitOrder({
    ...FUTURES,
    side: 'buy',
    tradeSide: 'open',
    orderType: 'limit',
    force: 'gtc',
    price: futuresAt(1.005),
    size: '0.01',
  });
}

const positive = (text: unknown, what: string) => assert.ok(Number(text) > 0, `${what}: ${String(text)}`);

export const SDK_V2_MARKET_CASES: Cases = {
  getServerTime: works(async ({ client }) =>
    positive(dataOf(await client.getServerTime()).serverTime, 'time'),
  ),
  getSpotCoinInfo: works(async ({ client }) => {
    const coins = dataOf(await client.getSpotCoinInfo({ coin: 'BTC' }));
    assert.equal(coins[0]?.coin, 'BTC');
  }),
  getSpotSymbolInfo: works(async ({ client }) => {
    const [symbol] = dataOf(await client.getSpotSymbolInfo(SPOT));
    assert.deepEqual([symbol?.symbol, symbol?.status], [SYMBOL, 'online']);
  }),
  getSpotTicker: works(async ({ client }) =>
    positive(dataOf(await client.getSpotTicker(SPOT))[0]?.lastPr, 'last'),
  ),
  getSpotMergeDepth: works(async ({ client }) => {
    const depth = dataOf(await client.getSpotMergeDepth({ ...SPOT, precision: 'scale1' }));
    assert.ok(depth.bids.length > 0 && depth.asks.length > 0);
  }),
  getSpotOrderBookDepth: works(async ({ client }) => {
    const book = dataOf(await client.getSpotOrderBookDepth({ ...SPOT, limit: '5' }));
    assert.ok(Number(book.bids[0]?.[0]) < Number(book.asks[0]?.[0]), 'bid under ask');
  }),
  getSpotCandles: works(async (context) => {
    await spotTrade(context);
    const candles = dataOf(await context.client.getSpotCandles({ ...SPOT, granularity: '1min' }));
    positive(candles.at(-1)?.[5], 'base volume');
  }),
  getSpotHistoricCandles: works(async (context) => {
    await spotTrade(context);
    const candles = dataOf(
      await context.client.getSpotHistoricCandles({
        ...SPOT,
        granularity: '1min',
        endTime: String(Date.now() + 60_000),
      }),
    );
    positive(candles.at(-1)?.[5], 'base volume');
  }),
  getSpotRecentTrades: works(async (context) => {
    await spotTrade(context);
    isList(dataOf(await context.client.getSpotRecentTrades(SPOT)), 'tradeId');
  }),
  getSpotHistoricTrades: works(async (context) => {
    await spotTrade(context);
    assert.ok(isList(dataOf(await context.client.getSpotHistoricTrades(SPOT)), 'price').length > 0);
  }),
  getMarginCurrencies: works(async ({ client }) => {
    const currencies = dataOf(await client.getMarginCurrencies());
    assert.ok(currencies.some((row) => row.symbol === SYMBOL));
  }),
  getFuturesContractConfig: works(async ({ client }) => {
    const [contract] = dataOf(await client.getFuturesContractConfig(CONTRACT));
    assert.deepEqual([contract?.symbol, contract?.symbolType], [SYMBOL, 'perpetual']);
  }),
  getFuturesTicker: works(async ({ client }) =>
    positive(dataOf(await client.getFuturesTicker(CONTRACT))[0]?.markPrice, 'mark'),
  ),
  getFuturesAllTickers: works(async ({ client }) => {
    const tickers = dataOf(await client.getFuturesAllTickers({ productType: USDT_M }));
    assert.ok(tickers.some((ticker) => ticker.symbol === SYMBOL));
  }),
  getFuturesMergeDepth: works(async ({ client }) => {
    const depth = dataOf(await client.getFuturesMergeDepth(CONTRACT));
    assert.ok(depth.bids.length > 0 && depth.asks.length > 0);
  }),
  getFuturesRecentTrades: works(async (context) => {
    await futuresTrade(context);
    assert.ok(isList(dataOf(await context.client.getFuturesRecentTrades(CONTRACT)), 'tradeId').length > 0);
  }),
  getFuturesHistoricTrades: works(async (context) => {
    await futuresTrade(context);
    assert.ok(isList(dataOf(await context.client.getFuturesHistoricTrades(CONTRACT)), 'price').length > 0);
  }),
  getFuturesCandles: works(async (context) => {
    await futuresTrade(context);
    const candles = dataOf(await context.client.getFuturesCandles({ ...CONTRACT, granularity: '1m' }));
    positive(candles.at(-1)?.[5], 'volume');
  }),
  getFuturesHistoricCandles: works(async (context) => {
    await futuresTrade(context);
    const candles = dataOf(
      await context.client.getFuturesHistoricCandles({ ...CONTRACT, granularity: '1m' }),
    );
    positive(candles.at(-1)?.[4], 'close');
  }),
  getFuturesHistoricIndexPriceCandles: works(async ({ client }) => {
    const candles = dataOf(
      await client.getFuturesHistoricIndexPriceCandles({ ...CONTRACT, granularity: '1m' }),
    );
    positive(candles.at(-1)?.[4], 'index close');
  }),
  getFuturesHistoricMarkPriceCandles: works(async ({ client }) => {
    const candles = dataOf(
      await client.getFuturesHistoricMarkPriceCandles({ ...CONTRACT, granularity: '1m' }),
    );
    positive(candles.at(-1)?.[4], 'mark close');
  }),
  getFuturesOpenInterest: works(async ({ client }) => {
    const interest = dataOf(await client.getFuturesOpenInterest(CONTRACT));
    assert.equal(interest.openInterestList[0]?.symbol, SYMBOL);
  }),
  getFuturesNextFundingTime: works(async ({ client }) =>
    positive(dataOf(await client.getFuturesNextFundingTime(CONTRACT))[0]?.nextFundingTime, 'next funding'),
  ),
  getFuturesSymbolPrice: works(async ({ client }) =>
    positive(dataOf(await client.getFuturesSymbolPrice(CONTRACT))[0]?.indexPrice, 'index'),
  ),
  getFuturesCurrentFundingRate: works(async ({ client }) => {
    const [rate] = dataOf(await client.getFuturesCurrentFundingRate(CONTRACT));
    assert.ok(Number.isFinite(Number(rate?.fundingRate)));
  }),
  getFuturesHistoricFundingRates: works(async ({ client }) => {
    // Nothing settles in a suite's lifetime (every eight hours): a list of this symbol's rates.
    const rates = isList(dataOf(await client.getFuturesHistoricFundingRates(CONTRACT)));
    for (const rate of rates) hasFields(rate, 'fundingRate', 'fundingTime');
  }),
  getFuturesOiLimit: works(async ({ client }) => {
    const limits = dataOf(await client.getFuturesOiLimit({ productType: USDT_M } as never)) as unknown;
    isList(limits, 'symbol');
  }),
  getFuturesPositionTier: works(async ({ client }) => {
    const tiers = dataOf(await client.getFuturesPositionTier(CONTRACT));
    assert.ok(tiers.length > 1, 'tiers');
  }),
  getFuturesDiscountRate: works(async ({ client }) => {
    const rates = dataOf(await client.getFuturesDiscountRate());
    assert.equal(rates.find((row) => row.coin === 'BTC')?.discountRateList[0]?.discountRate, '0.95');
  }),
  getFuturesActiveTakerBuySellVolumeData: works(async (context) => {
    await futuresTrade(context);
    const rows = dataOf(
      await context.client.getFuturesActiveTakerBuySellVolumeData({ symbol: SYMBOL, period: '5m' }),
    );
    positive(rows.at(-1)?.buyVolume, 'taker buy volume this period');
  }),
  getFuturesActiveLongShortAccountData: works(async (context) => {
    await futuresTrade(context);
    const rows = dataOf(await context.client.getFuturesActiveLongShortAccountData({ symbol: SYMBOL }));
    positive(rows.at(-1)?.longAccountRatio, 'a long account now');
  }),
  getFuturesActiveLongShortPositionData: works(async ({ client }) => {
    const rows = dataOf(await client.getFuturesActiveLongShortPositionData({ symbol: SYMBOL, period: '1h' }));
    assert.equal(rows.length, 30);
  }),
  getFuturesActiveBuySellVolumeData: works(async ({ client }) => {
    const rows = dataOf(await client.getFuturesActiveBuySellVolumeData({ symbol: SYMBOL, period: '1d' }));
    assert.equal(rows.length, 30);
    hasFields(rows[0], 'longRatio', 'shortRatio', 'longShortRatio', 'ts');
  }),
};
