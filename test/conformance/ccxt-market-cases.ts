/**
 * ccxt's public market methods: each a real call on the spot pair or the USDT-M perpetual of
 * a server at its defaults (prices move, the house quotes both sides), its result checked for
 * what a bot reads from it.
 */
import assert from 'node:assert/strict';
import type { CcxtContext } from './ccxt-context.ts';
import { SPOT, SWAP } from './harness.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<CcxtContext>>;

const positive = (value: number | undefined, what: string) =>
  assert.ok(typeof value === 'number' && value > 0, `${what}: ${value}`);

/** A market buy of 0.001 BTC on spot, so the pair has a trade and a candle of this account's. */
async function trade({ exchange, at }: CcxtContext): Promise<void> {
  await exchange.createOrder(SPOT, 'limit', 'buy', 0.001, at(SPOT, 1.005));
}

export const CCXT_MARKET_CASES: Cases = {
  fetchTime: works(async ({ exchange }) => {
    const time = await exchange.fetchTime();
    assert.ok(time !== undefined && Math.abs(time - Date.now()) < 60_000, `server time ${time}`);
  }),
  fetchMarkets: works(async ({ exchange }) => {
    const markets = await exchange.fetchMarkets();
    const spot = markets.find((market) => market?.symbol === SPOT);
    const swap = markets.find((market) => market?.symbol === SWAP);
    assert.equal(spot?.precision.price, 0.01);
    assert.equal(swap?.settle, 'USDT');
    assert.equal(swap?.linear, true);
  }),
  fetchCurrencies: works(async ({ exchange }) => {
    const currencies = await exchange.fetchCurrencies();
    assert.equal(currencies.BTC?.code, 'BTC');
    assert.ok(Object.keys(currencies.USDT?.networks ?? {}).length > 0, 'USDT has a network');
  }),
  fetchDepositWithdrawFees: works(async ({ exchange }) => {
    const fees = await exchange.fetchDepositWithdrawFees(['BTC']);
    assert.ok(fees.BTC, 'BTC fees');
  }),
  fetchTicker: works(async ({ exchange }) => {
    const ticker = await exchange.fetchTicker(SWAP);
    assert.equal(ticker.symbol, SWAP);
    positive(ticker.last, 'last');
    assert.ok((ticker.bid ?? 0) < (ticker.ask ?? 0), `bid ${ticker.bid} under ask ${ticker.ask}`);
  }),
  fetchTickers: works(async ({ exchange }) => {
    const tickers = await exchange.fetchTickers([SPOT]);
    positive(tickers[SPOT]?.last, 'spot last');
  }),
  fetchOrderBook: works(async ({ exchange }) => {
    const book = await exchange.fetchOrderBook(SWAP, 5);
    const [bid] = book.bids[0] ?? [];
    const [ask] = book.asks[0] ?? [];
    assert.ok(bid !== undefined && ask !== undefined && bid < ask, `crossed or empty book ${bid} ${ask}`);
  }),
  fetchL2OrderBook: works(async ({ exchange }) => {
    const book = await exchange.fetchL2OrderBook(SPOT);
    assert.ok(book.bids.length > 0 && book.asks.length > 0, 'the house quotes both sides');
  }),
  fetchTrades: works(async (context) => {
    await trade(context);
    const trades = await context.exchange.fetchTrades(SPOT);
    assert.ok(trades.length > 0, 'a trade');
    positive(trades.at(-1)?.price, 'trade price');
  }),
  fetchOHLCV: works(async (context) => {
    await trade(context);
    const candles = await context.exchange.fetchOHLCV(SPOT, '1m');
    const last = candles.at(-1);
    assert.ok(last && (last[5] ?? 0) > 0, `a candle with volume ${JSON.stringify(last)}`);
  }),
  fetchIndexOHLCV: works(async ({ exchange }) => {
    const candles = await exchange.fetchIndexOHLCV(SWAP, '1m');
    positive(candles.at(-1)?.[4], 'index close');
  }),
  fetchMarkOHLCV: works(async ({ exchange }) => {
    const candles = await exchange.fetchMarkOHLCV(SWAP, '1m');
    positive(candles.at(-1)?.[4], 'mark close');
  }),
  fetchMarkPrice: works(async ({ exchange }) => {
    const ticker = await exchange.fetchMarkPrice(SWAP);
    positive(ticker.markPrice, 'mark price');
  }),
  fetchFundingRate: works(async ({ exchange }) => {
    const rate = await exchange.fetchFundingRate(SWAP);
    assert.equal(rate.symbol, SWAP);
    assert.ok(Number.isFinite(rate.fundingRate), `funding rate ${rate.fundingRate}`);
    assert.ok((rate.fundingTimestamp ?? 0) > Date.now() - 60_000, 'next settlement ahead');
  }),
  fetchFundingRates: works(async ({ exchange }) => {
    const rates = await exchange.fetchFundingRates([SWAP]);
    assert.ok(Number.isFinite(rates[SWAP]?.fundingRate), 'a rate for the perpetual');
  }),
  fetchFundingInterval: works(async ({ exchange }) => {
    const interval = await exchange.fetchFundingInterval(SWAP);
    assert.equal(interval.interval, '8h');
  }),
  fetchFundingIntervals: works(async ({ exchange }) => {
    const intervals = await exchange.fetchFundingIntervals([SWAP]);
    assert.equal(intervals[SWAP]?.interval, '8h');
  }),
  fetchFundingRateHistory: works(async ({ exchange }) => {
    // A fresh server has settled nothing yet (every eight hours): the answer is a list of
    // settlements, each for this symbol (test/api/routes/market-stats.test.ts settles some).
    const history = await exchange.fetchFundingRateHistory(SWAP);
    assert.ok(Array.isArray(history));
    for (const entry of history) assert.ok(entry.symbol === SWAP && Number.isFinite(entry.fundingRate));
  }),
  fetchOpenInterest: works(async ({ exchange }) => {
    const interest = await exchange.fetchOpenInterest(SWAP);
    assert.equal(interest.symbol, SWAP);
    assert.ok((interest.openInterestAmount ?? -1) >= 0, 'open interest');
  }),
  fetchLongShortRatioHistory: works(async ({ exchange }) => {
    const ratios = await exchange.fetchLongShortRatioHistory(SWAP, '5m');
    assert.equal(ratios.length, 30);
    for (const ratio of ratios) assert.ok(ratio.timestamp && Number.isFinite(ratio.longShortRatio));
  }),
  fetchMarketLeverageTiers: works(async ({ exchange }) => {
    const tiers = await exchange.fetchMarketLeverageTiers(SWAP);
    assert.ok(tiers.length > 1, 'several tiers');
    positive(tiers[0]?.maxLeverage, 'first tier leverage');
  }),
};
