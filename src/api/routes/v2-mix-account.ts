/**
 * Classic (v2) futures account and positions: accounts, account, set-leverage,
 * set-margin-mode, set-position-mode, set-margin, single-position, all-position,
 * history-position, the account bill (spec §8), the union-margin trio (spec §12, §14) and
 * the public OI limit (spec §13).
 */
import { parseMoney, formatMoney } from '../../domain/money.ts';
import { MARGIN_MODES, POSITION_MODES, HOLD_SIDES } from '../../domain/position.ts';
import { POSITION_NOTIONAL_LIMIT } from '../../engine/futures/place.ts';
import { walletReport } from '../../engine/futures/report.ts';
import { isUnion, unionCollateral, unionShortfall } from '../../engine/futures/union.ts';
import { positionModeOf, settingsOf } from '../../engine/futures/settings.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import {
  asObject,
  optionalEnum,
  optionalInteger,
  optionalString,
  requiredEnum,
  requiredString,
} from '../params.ts';
import { caller, reject, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { v2MixAccount, v2MixBill, v2Position, type UnionView } from '../wire/futures.ts';
import { marginCoinsOf, positionsOf, submit } from './futures-service.ts';
import { productTypeOf } from './mix-input.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';

/** Bills that adjust margin rather than move money; onlyFunding=yes leaves them out. */
const MARGIN_ADJUSTMENTS = [
  'append_margin',
  'adjust_down_lever_append_margin',
  'reduce_margin',
  'auto_append_margin',
];
const TRANSFER_TYPES = ['trans_from_exchange', 'trans_to_exchange'];

function leverageOf(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,4}$/.test(text)) reject('PARAM_ERROR', name);
  return Number(text);
}

export function v2MixAccountRoutes(services: Services): Route[] {
  const exchange = () => services.sequencer.exchange;
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const now = () => services.clock.now();
  const route = signedRoutes({ dialect: 'v2-mix', accountMode: 'classic', area: 'futures_positions' });
  const unionView = (uid: string, wallet: string): UnionView => {
    const state = exchange().state;
    const prefix = `${uid}|${wallet}|`;
    const assetList = [...state.balances.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, balance]) => ({
        coin: key.slice(prefix.length),
        balance: formatMoney(balance.available + balance.frozen + balance.margin),
        available: formatMoney(balance.available),
      }));
    return {
      assetMode: isUnion(state, uid) ? 'union' : 'single',
      collateral: formatMoney(unionCollateral(state, uid, wallet)),
      assetList,
    };
  };
  const symbolSettingsView = (request: ApiRequest, fields: Record<string, unknown>) => {
    const category = productTypeOf(fields);
    const symbol = requiredString(fields, 'symbol').toUpperCase();
    const instrument = exchange().state.instruments.get(`${category}:${symbol}`);
    if (!instrument) reject('SYMBOL_NOT_FOUND', symbol);
    return {
      category,
      symbol,
      instrument,
      settings: settingsOf(exchange().state, uidOf(request), instrument),
    };
  };

  return [
    route('GET', '/api/v2/mix/account/accounts', 10, false, (request) => {
      const category = productTypeOf(request.query);
      const uid = uidOf(request);
      const wallet = tradingWallet(exchange().state, uid, category);
      return marginCoinsOf(services, category).map((coin) =>
        v2MixAccount(
          walletReport(exchange().state, exchange().books, uid, wallet, coin),
          unionView(uid, wallet),
        ),
      );
    }),
    route('GET', '/api/v2/mix/account/account', 10, false, (request) => {
      const { category, settings } = symbolSettingsView(request, request.query);
      const coin = requiredString(request.query, 'marginCoin').toUpperCase();
      const uid = uidOf(request);
      const wallet = tradingWallet(exchange().state, uid, category);
      return {
        ...v2MixAccount(
          walletReport(exchange().state, exchange().books, uid, wallet, coin),
          unionView(uid, wallet),
        ),
        crossedMarginLeverage: String(settings.crossLeverage),
        isolatedLongLever: String(settings.longLeverage),
        isolatedShortLever: String(settings.shortLeverage),
        marginMode: settings.marginMode,
        posMode: positionModeOf(exchange().state, uid, category),
      };
    }),
    route('POST', '/api/v2/mix/account/set-leverage', 5, true, async (request) => {
      const body = asObject(request.body);
      const { category, symbol } = symbolSettingsView(request, body);
      const leverage = leverageOf(optionalString(body, 'leverage'), 'leverage');
      const holdSide = optionalEnum(body, 'holdSide', HOLD_SIDES);
      const longLeverage =
        leverageOf(optionalString(body, 'longLeverage'), 'longLeverage') ??
        (holdSide === 'long' ? leverage : undefined);
      const shortLeverage =
        leverageOf(optionalString(body, 'shortLeverage'), 'shortLeverage') ??
        (holdSide === 'short' ? leverage : undefined);
      const settings = await submit<{
        crossLeverage: number;
        longLeverage: number;
        shortLeverage: number;
        marginMode: string;
      }>(services, {
        type: 'SetLeverage',
        timeMs: now(),
        uid: uidOf(request),
        category,
        symbol,
        ...(holdSide ? {} : leverage !== undefined ? { leverage } : {}),
        ...(longLeverage !== undefined ? { longLeverage } : {}),
        ...(shortLeverage !== undefined ? { shortLeverage } : {}),
      });
      return {
        symbol,
        marginCoin: optionalString(body, 'marginCoin')?.toUpperCase() ?? '',
        longLeverage: String(settings.longLeverage),
        shortLeverage: String(settings.shortLeverage),
        crossMarginLeverage: String(settings.crossLeverage),
        marginMode: settings.marginMode,
      };
    }),
    route('POST', '/api/v2/mix/account/set-margin-mode', 5, true, async (request) => {
      const body = asObject(request.body);
      const { category, symbol } = symbolSettingsView(request, body);
      const marginMode = requiredEnum(body, 'marginMode', MARGIN_MODES);
      const settings = await submit<{ longLeverage: number; shortLeverage: number }>(services, {
        type: 'SetMarginMode',
        timeMs: now(),
        uid: uidOf(request),
        category,
        symbol,
        marginMode,
      });
      return {
        symbol,
        marginCoin: optionalString(body, 'marginCoin')?.toUpperCase() ?? '',
        longLeverage: String(settings.longLeverage),
        shortLeverage: String(settings.shortLeverage),
        marginMode,
      };
    }),
    route('POST', '/api/v2/mix/account/set-position-mode', 5, true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const posMode = requiredEnum(body, 'posMode', POSITION_MODES);
      await submit(services, {
        type: 'SetPositionMode',
        timeMs: now(),
        uid: uidOf(request),
        category,
        posMode,
      });
      return { posMode };
    }),
    route('POST', '/api/v2/mix/account/set-margin', 5, true, async (request) => {
      const body = asObject(request.body);
      const { category, symbol } = symbolSettingsView(request, body);
      const holdSide = requiredEnum(body, 'holdSide', HOLD_SIDES);
      const text = requiredString(body, 'amount');
      const magnitude = parseMoney(text.replace(/^-/, ''));
      if (magnitude === null || magnitude === 0n) reject('PARAM_ERROR', 'amount');
      const amount = text.startsWith('-') ? -magnitude : magnitude;
      await submit(services, {
        type: 'AdjustMargin',
        timeMs: now(),
        uid: uidOf(request),
        category,
        symbol,
        holdSide,
        amount,
      });
      return '';
    }),
    route('GET', '/api/v2/mix/position/single-position', 10, false, (request) => {
      const category = productTypeOf(request.query);
      const symbol = requiredString(request.query, 'symbol').toUpperCase();
      return positionsOf(services, uidOf(request), category, symbol).map((report) =>
        v2Position(exchange().state, report),
      );
    }),
    route('GET', '/api/v2/mix/position/all-position', 5, false, (request) => {
      const category = productTypeOf(request.query);
      const coin = optionalString(request.query, 'marginCoin')?.toUpperCase();
      return positionsOf(services, uidOf(request), category)
        .filter((report) => !coin || report.position.marginCoin === coin)
        .map((report) => v2Position(exchange().state, report));
    }),
    route('GET', '/api/v2/mix/position/history-position', 20, false, async (request) => {
      const { query } = request;
      const category = query.productType ? productTypeOf(query) : 'USDT-FUTURES';
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'idLessThan');
      const rows = await services.store.positionHistory({
        uid: uidOf(request),
        categories: [category],
        ...timeWindow(query, now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 20, 100),
      });
      const list = rows.map(({ createdTimeMs, updatedTimeMs, uid: _uid, category: _category, ...row }) => ({
        ...row,
        ctime: String(createdTimeMs),
        utime: String(updatedTimeMs),
      }));
      return { list, endId: rows.at(-1)?.positionId ?? '' };
    }),
    route('GET', '/api/v2/mix/account/bill', 10, false, async (request) => {
      const { query } = request;
      const category = productTypeOf(query);
      const uid = uidOf(request);
      const businessType = optionalString(query, 'businessType')?.toLowerCase();
      // The venue reads `coin` only with a transfer businessType and ignores it otherwise
      // (ccxt's fetchLedger always sends it).
      const transfer = businessType !== undefined && TRANSFER_TYPES.includes(businessType);
      const coin = transfer ? optionalString(query, 'coin')?.toUpperCase() : undefined;
      const onlyFunding = optionalEnum(query, 'onlyFunding', ['yes', 'no'] as const) === 'yes';
      const idLessThan = idCursor(query, 'idLessThan');
      const bills = await services.store.bills({
        uid,
        wallets: [tradingWallet(exchange().state, uid, category)],
        ...timeWindow(query, now(), 90 * DAY_MS, 30 * DAY_MS),
        ...(coin ? { coin } : {}),
        ...(businessType ? { businessTypes: [businessType] } : {}),
        ...(onlyFunding ? { excludeBusinessTypes: MARGIN_ADJUSTMENTS } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 20, 100),
      });
      return { bills: bills.map(v2MixBill), endId: bills.at(-1)?.billId ?? '' };
    }),
    route('GET', '/api/v2/mix/account/switch-union-usdt', 1, false, (request) => {
      // USDT to add before leaving union mode: the margin in use that USDT alone does not cover.
      const uid = uidOf(request);
      const shortfall = isUnion(exchange().state, uid)
        ? unionShortfall(exchange().state, exchange().books, uid)
        : 0n;
      return { usdtAmount: formatMoney(shortfall) };
    }),
    route('GET', '/api/v2/mix/account/transfer-limits', 1, false, (request) => {
      // What may move into the USDT-M wallet now: USDT always, other coins only in union mode;
      // at most what the spot wallet holds.
      const coin = requiredString(request.query, 'coin').toUpperCase();
      const uid = uidOf(request);
      const state = exchange().state;
      const allowed = coin === 'USDT' || isUnion(state, uid);
      const balance = state.balances.get(`${uid}|${tradingWallet(state, uid, 'SPOT')}|${coin}`);
      return { coin, maxTransferIn: formatMoney(allowed ? (balance?.available ?? 0n) : 0n) };
    }),
    route('POST', '/api/v2/mix/account/set-asset-mode', 2, true, async (request) => {
      const body = asObject(request.body);
      if (productTypeOf(body) !== 'USDT-FUTURES') reject('PARAM_ERROR', 'productType');
      const assetMode = requiredEnum(body, 'assetMode', ['single', 'union'] as const);
      await submit(services, { type: 'SetAssetMode', timeMs: now(), uid: uidOf(request), assetMode });
      return 'success';
    }),
    {
      method: 'GET',
      path: '/api/v2/mix/market/oi-limit',
      auth: 'public',
      dialect: 'v2-mix',
      rateLimit: { perSecond: 10, by: 'ip' },
      handler: (request) => {
        const category = productTypeOf(request.query);
        const symbol = optionalString(request.query, 'symbol')?.toUpperCase();
        const limit = optionalInteger({ limit: String(POSITION_NOTIONAL_LIMIT) }, 'limit') ?? 0;
        return [...exchange().state.instruments.values()]
          .filter(
            (instrument) => instrument.category === category && (!symbol || instrument.symbol === symbol),
          )
          .map((instrument) => ({
            symbol: instrument.symbol,
            notionalValue: String(limit),
            totalNotionalValue: String(limit * 2),
          }));
      },
    },
  ];
}
