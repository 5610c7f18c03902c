/**
 * RestClientV3's public methods (instruments, tickers, books, trades, candles, funding, open
 * interest, tiers, trading statistics, collateral and loan terms) on a server at its defaults.
 */
import assert from 'node:assert/strict';
import { dataOf, hasFields, isList, SYMBOL, USDT_M, type V3Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V3Context>>;
const SPOT = { category: 'SPOT', symbol: SYMBOL } as const;
const CONTRACT = { category: USDT_M, symbol: SYMBOL } as const;

/** A USDT-M buy crossing the house's ask (hedge mode: it opens a long). */
async function futuresTrade({ client, futuresAt }: V3Context): Promise<void> {
  const order = {
    ...CONTRACT,
    side: 'buy',
    posSide: 'long',
    orderType: 'limit',
    price: futuresAt(1.005),
    qty: '0.01',
  } as const;
  await client.submitNewOrder(order);
}

const positive = (text: unknown, what: string) => assert.ok(Number(text) > 0, `${what}: ${String(text)}`);

export const SDK_V3_MARKET_CASES: Cases = {
  getServerTime: works(async ({ client }) =>
    positive(dataOf(await client.getServerTime()).serverTime, 'time'),
  ),
  getInstruments: works(async ({ client }) => {
    const [instrument] = dataOf(await client.getInstruments(CONTRACT));
    assert.deepEqual([instrument?.symbol, instrument?.category], [SYMBOL, USDT_M]);
  }),
  getTickers: works(async ({ client }) =>
    positive(dataOf(await client.getTickers(SPOT))[0]?.lastPrice, 'last'),
  ),
  getOrderBook: works(async ({ client }) => {
    const book = dataOf(await client.getOrderBook({ ...CONTRACT, limit: '5' }));
    assert.ok(Number(book.b[0]?.[0]) < Number(book.a[0]?.[0]), 'bid under ask');
  }),
  getFills: works(async (context) => {
    await futuresTrade(context);
    assert.ok(isList(dataOf(await context.client.getFills(CONTRACT)), 'execId').length > 0);
  }),
  getCandles: works(async (context) => {
    await futuresTrade(context);
    positive(dataOf(await context.client.getCandles({ ...CONTRACT, interval: '1m' })).at(-1)?.[5], 'volume');
  }),
  getHistoryCandles: works(async ({ client }) => {
    const candles = dataOf(await client.getHistoryCandles({ ...CONTRACT, interval: '1m', type: 'INDEX' }));
    positive(candles.at(-1)?.[4], 'index close');
  }),
  getOpenInterest: works(async ({ client }) => {
    const interest = dataOf(await client.getOpenInterest(CONTRACT));
    assert.equal(interest.list[0]?.symbol, SYMBOL);
  }),
  getCurrentFundingRate: works(async ({ client }) => {
    const [rate] = dataOf(await client.getCurrentFundingRate({ symbol: SYMBOL }));
    assert.deepEqual([rate?.symbol, rate?.fundingRateInterval], [SYMBOL, '8']);
  }),
  getHistoryFundingRate: works(async ({ client }) => {
    // Nothing settles in a suite's lifetime (every eight hours): a list of this symbol's rates.
    const history = dataOf(await client.getHistoryFundingRate(CONTRACT)) as unknown as {
      resultList: unknown[];
    };
    for (const row of isList(history.resultList)) hasFields(row, 'fundingRate', 'fundingRateTimestamp');
  }),
  getPositionTier: works(async ({ client }) =>
    assert.ok(dataOf(await client.getPositionTier(CONTRACT)).length > 1),
  ),
  getContractsOi: works(async ({ client }) =>
    isList(dataOf(await client.getContractsOi(CONTRACT)), 'notionalValue'),
  ),
  getDiscountRate: works(async ({ client }) => {
    const rates = dataOf(await client.getDiscountRate());
    assert.deepEqual(rates.find((row) => row.coin === 'USDT')?.list, [
      { tierStartValue: '0', discountRate: '1' },
    ]);
  }),
  getMarginLoans: works(async ({ client }) => {
    const loans = dataOf(await client.getMarginLoans({ coin: 'BTC' }));
    assert.deepEqual([loans.dailyInterest, loans.annualInterest], ['0.00003', '0.01095']);
  }),
  getRiskReserve: works(async ({ client }) => {
    const reserve = dataOf(await client.getRiskReserve(CONTRACT));
    assert.equal(reserve.coin, 'USDT');
    for (const record of isList(reserve.riskReserveRecords)) hasFields(record, 'balance', 'amount', 'ts');
  }),
  getRiskReserveAll: works(async ({ client }) => {
    const { list } = dataOf(await client.getRiskReserveAll({ category: USDT_M }));
    assert.ok(list.find((row) => row.coin === 'USDT')?.symbols.includes(SYMBOL), JSON.stringify(list));
  }),
  getFuturesActiveBuySell: works(async (context) => {
    await futuresTrade(context);
    positive(
      dataOf(await context.client.getFuturesActiveBuySell({ symbol: SYMBOL })).at(-1)?.buyVolume,
      'taker buys',
    );
  }),
  getFuturesAccountLongShort: works(async (context) => {
    await futuresTrade(context);
    const now = dataOf(await context.client.getFuturesAccountLongShort({ symbol: SYMBOL, period: '5m' })).at(
      -1,
    );
    positive(now?.longAccountRatio, 'a long account now');
  }),
  getFuturesPositionLongShort: works(async ({ client }) => {
    const rows = dataOf(await client.getFuturesPositionLongShort({ symbol: SYMBOL, period: '4h' }));
    assert.equal(rows.length, 30);
  }),
  getFuturesLongShort: works(async ({ client }) => {
    const rows = dataOf(await client.getFuturesLongShort({ symbol: SYMBOL }));
    hasFields(rows.at(-1), 'longRatio', 'shortRatio', 'longShortRatio', 'ts');
  }),
};
