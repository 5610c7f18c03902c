/**
 * Convert (docs/wallet.md): v2 convert/currencies, quoted-price, trade and convert-record,
 * and the unified account's v3 account/convert-records. Served to classic and unified
 * accounts alike (ccxt reaches them with either); a trade uses the account's spot wallet, a
 * unified account's unified wallet. Reads need the spot read permission, a trade spot write.
 *
 * A trade must repeat its quote: the traceId, both coins, both sizes and the price as quoted
 * (the price to 12 significant digits; 40020 naming the field that differs); an unknown or used traceId is 40034, an expired
 * quote 40020 (QUOTE_EXPIRED).
 */
import { CONVERT_PRICE_SCALE } from '../../domain/convert.ts';
import { formatScaled, parseScaled } from '../../domain/decimal.ts';
import { formatMoney, parseMoney } from '../../domain/money.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import type { ConvertRow } from '../../ports/wallet-store.ts';
import { asObject, optionalString, requiredString, type Fields } from '../params.ts';
import { caller, reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { ConvertDesk, type Quote } from './convert-desk.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';

const SPOT_READ = { area: 'spot', write: false } as const;
const SPOT_WRITE = { area: 'spot', write: true } as const;
const PRICE_MATCH_DIGITS = 10n ** 12n;
/** Convert records have no age limit on the venue, only a 90-day span per query. */
const RECORDS_AGE_MS = 3650 * DAY_MS;

function sizeField(fields: Fields, name: string): bigint | undefined {
  const text = optionalString(fields, name);
  if (text === undefined) return undefined;
  const amount = parseMoney(text);
  if (amount === null || amount <= 0n) reject('PARAM_ERROR', name);
  return amount;
}

function quoteView(quote: Quote) {
  return {
    fromCoin: quote.fromCoin,
    fromCoinSize: formatMoney(quote.fromAmount),
    cnvtPrice: formatScaled(quote.price, CONVERT_PRICE_SCALE),
    toCoin: quote.toCoin,
    toCoinSize: formatMoney(quote.toAmount),
    traceId: quote.traceId,
    fee: '0',
  };
}

/** The trade body must repeat the quote; names the first field that does not. */
function checkRepeats(body: Fields, quote: Quote): void {
  if (requiredString(body, 'fromCoin').toUpperCase() !== quote.fromCoin) reject('PARAM_ERROR', 'fromCoin');
  if (requiredString(body, 'toCoin').toUpperCase() !== quote.toCoin) reject('PARAM_ERROR', 'toCoin');
  if (parseMoney(requiredString(body, 'fromCoinSize')) !== quote.fromAmount)
    reject('PARAM_ERROR', 'fromCoinSize');
  if (parseMoney(requiredString(body, 'toCoinSize')) !== quote.toAmount) reject('PARAM_ERROR', 'toCoinSize');
  const price = parseScaled(requiredString(body, 'cnvtPrice'), CONVERT_PRICE_SCALE);
  if (price === null || !samePrice(price, quote.price)) reject('PARAM_ERROR', 'cnvtPrice');
}

/**
 * The quoted price to 12 significant digits: a client that read it as a floating-point
 * number (ccxt's `price`) sends back what a double holds. The trade is at the quoted price.
 */
function samePrice(given: bigint, quoted: bigint): boolean {
  const difference = given > quoted ? given - quoted : quoted - given;
  return difference * PRICE_MATCH_DIGITS <= quoted;
}

const v2Record = (row: ConvertRow) => ({
  id: row.recordId,
  ts: String(row.timeMs),
  cnvtPrice: row.price,
  fee: formatMoney(row.fee),
  fromCoinSize: formatMoney(row.fromAmount),
  fromCoin: row.fromCoin,
  toCoinSize: formatMoney(row.toAmount),
  toCoin: row.toCoin,
});

const v3Record = (row: ConvertRow) => ({
  fromCoin: row.fromCoin,
  fromCoinSize: formatMoney(row.fromAmount),
  toCoin: row.toCoin,
  toCoinSize: formatMoney(row.toAmount),
  price: row.price,
  ts: String(row.timeMs),
});

export function convertRoutes(services: Services): Route[] {
  const v2 = signedRoutes({ dialect: 'v2' });
  const v3 = signedRoutes({ dialect: 'v3', accountMode: 'unified' });
  const desk = new ConvertDesk(services);
  const state = () => services.sequencer.exchange.state;
  const coinOf = (fields: Fields, name: string) => requiredString(fields, name).toUpperCase();

  return [
    v2('GET', '/api/v2/convert/currencies', 10, SPOT_READ, (request) => {
      const uid = caller(request).account.uid;
      return desk.currencies(uid, tradingWallet(state(), uid, 'SPOT'));
    }),
    v2('GET', '/api/v2/convert/quoted-price', 10, SPOT_READ, (request) => {
      const { query } = request;
      const from = sizeField(query, 'fromCoinSize');
      const to = sizeField(query, 'toCoinSize');
      if (from !== undefined && to !== undefined) reject('PARAM_ERROR', 'toCoinSize');
      if (from === undefined && to === undefined) reject('PARAM_EMPTY', 'fromCoinSize');
      const uid = caller(request).account.uid;
      return quoteView(desk.quote(uid, coinOf(query, 'fromCoin'), coinOf(query, 'toCoin'), { from, to }));
    }),
    v2('POST', '/api/v2/convert/trade', 10, SPOT_WRITE, async (request) => {
      const body = asObject(request.body);
      const traceId = requiredString(body, 'traceId');
      const uid = caller(request).account.uid;
      const quote = desk.take(uid, traceId);
      checkRepeats(body, quote);
      const receipt = await desk.trade(quote);
      const { toCoin } = quote;
      const cnvtPrice = formatScaled(quote.price, CONVERT_PRICE_SCALE);
      return { ts: String(receipt.timeMs), cnvtPrice, toCoinSize: formatMoney(quote.toAmount), toCoin };
    }),
    v2('GET', '/api/v2/convert/convert-record', 10, SPOT_READ, async (request) => {
      const { query } = request;
      requiredString(query, 'startTime');
      requiredString(query, 'endTime');
      const idLessThan = idCursor(query, 'idLessThan');
      const rows = await services.store.converts({
        uid: caller(request).account.uid,
        ...timeWindow(query, services.clock.now(), RECORDS_AGE_MS, 90 * DAY_MS),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 20, 100),
      });
      return { dataList: rows.map(v2Record), endId: rows.at(-1)?.recordId ?? '' };
    }),
    v3('GET', '/api/v3/account/convert-records', 20, undefined, async (request) => {
      const { query } = request;
      const cursor = idCursor(query, 'cursor');
      const rows = await services.store.converts({
        uid: caller(request).account.uid,
        fromCoin: coinOf(query, 'fromCoin'),
        toCoin: coinOf(query, 'toCoin'),
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 30 * DAY_MS),
        ...(cursor ? { idLessThan: cursor } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return { list: rows.map(v3Record), cursor: rows.at(-1)?.recordId ?? '' };
    }),
  ];
}
