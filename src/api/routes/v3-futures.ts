/**
 * Unified (v3) futures settings and positions: set-leverage, set-hold-mode, current-position
 * and history-position (endpoints.md §9.2, §9.3, §12). Same engine as v2 underneath.
 */
import { parseCategory, V3_CATEGORIES, isFutures, type Category } from '../../domain/category.ts';
import { HOLD_SIDES, POSITION_MODES } from '../../domain/position.ts';
import { asObject, optionalEnum, optionalString, requiredEnum, requiredString } from '../params.ts';
import { caller, reject, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutesByMethod } from './route-kit.ts';
import { v3Position } from '../wire/futures.ts';
import { positionsOf, submit } from './futures-service.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';

function futuresCategory(text: string | undefined): Category {
  if (!text) reject('PARAM_INVALID');
  const category = parseCategory(text, V3_CATEGORIES);
  if (!category || !isFutures(category)) reject('PARAM_ERROR', 'category');
  return category;
}

export function v3FuturesRoutes(services: Services): Route[] {
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const route = signedRoutesByMethod({ dialect: 'v3', accountMode: 'unified', area: 'futures_positions' });
  const leverageOf = (text: string | undefined) => {
    if (text === undefined) return undefined;
    if (!/^\d{1,4}$/.test(text)) reject('PARAM_ERROR', 'leverage');
    return Number(text);
  };
  return [
    route('POST', '/api/v3/account/set-leverage', 10, async (request) => {
      const body = asObject(request.body);
      const category = futuresCategory(optionalString(body, 'category'));
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const leverage = leverageOf(optionalString(body, 'leverage'));
      const posSide = optionalEnum(body, 'posSide', HOLD_SIDES);
      const longLeverage =
        leverageOf(optionalString(body, 'longLeverage')) ?? (posSide === 'long' ? leverage : undefined);
      const shortLeverage =
        leverageOf(optionalString(body, 'shortLeverage')) ?? (posSide === 'short' ? leverage : undefined);
      await submit(services, {
        type: 'SetLeverage',
        timeMs: services.clock.now(),
        uid: uidOf(request),
        category,
        symbol,
        ...(posSide ? {} : leverage !== undefined ? { leverage } : {}),
        ...(longLeverage !== undefined ? { longLeverage } : {}),
        ...(shortLeverage !== undefined ? { shortLeverage } : {}),
      });
      return 'success';
    }),
    route('POST', '/api/v3/account/set-hold-mode', 10, async (request) => {
      const body = asObject(request.body);
      const holdMode = requiredEnum(body, 'holdMode', POSITION_MODES);
      const categoryText = optionalString(body, 'category');
      const categories: Category[] = categoryText
        ? [futuresCategory(categoryText)]
        : ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
      for (const category of categories) {
        await submit(services, {
          type: 'SetPositionMode',
          timeMs: services.clock.now(),
          uid: uidOf(request),
          category,
          posMode: holdMode,
        });
      }
      return 'success';
    }),
    route('GET', '/api/v3/position/current-position', 20, (request) => {
      const category = futuresCategory(optionalString(request.query, 'category'));
      const symbol = optionalString(request.query, 'symbol')?.toUpperCase();
      const posSide = optionalEnum(request.query, 'posSide', HOLD_SIDES);
      const state = services.sequencer.exchange.state;
      const list = positionsOf(services, uidOf(request), category, symbol)
        .filter((report) => !posSide || report.position.holdSide === posSide)
        .map((report) => v3Position(state, report));
      return { list };
    }),
    route('GET', '/api/v3/position/history-position', 20, async (request) => {
      const { query } = request;
      const category = futuresCategory(optionalString(query, 'category'));
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'cursor');
      const rows = await services.store.positionHistory({
        uid: uidOf(request),
        categories: [category],
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 30 * DAY_MS),
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      const list = rows.map((row) => ({
        positionId: row.positionId,
        category: row.category,
        symbol: row.symbol,
        marginCoin: row.marginCoin,
        holdMode: row.posMode,
        posSide: row.holdSide,
        marginMode: row.marginMode,
        openPriceAvg: row.openAvgPrice,
        closePriceAvg: row.closeAvgPrice,
        openTotalPos: row.openTotalPos,
        closeTotalPos: row.closeTotalPos,
        cumRealisedPnl: row.pnl,
        netProfit: row.netProfit,
        totalFunding: row.totalFunding,
        openFeeTotal: row.openFee,
        closeFeeTotal: row.closeFee,
        createdTime: String(row.createdTimeMs),
        updatedTime: String(row.updatedTimeMs),
      }));
      return { list, cursor: rows.at(-1)?.positionId ?? '' };
    }),
  ];
}
