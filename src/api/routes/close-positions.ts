/**
 * Closing positions at market (docs/futures.md, "Close positions"): v2
 * `POST /api/v2/mix/order/close-positions` (classic accounts, 1 request per second per UID)
 * and v3 `POST /api/v3/trade/close-positions` (unified accounts, 5 per second). Every
 * position of the product line, or of `symbol`, is closed by a market order at the book; v2
 * `holdSide` (hedge mode only; ignored in one-way mode, as on the venue) and v3 `posSide`
 * narrow it to one side. Nothing to close: 22002 (v2) / 25227 (v3).
 *
 * `buy` / `sell` are read as the long / short side (ccxt's closePosition passes the side of a
 * one-way position that way).
 */
import { isFutures, parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import type { HoldSide } from '../../domain/position.ts';
import type { CloseResult } from '../../engine/futures/close-positions.ts';
import { positionModeOf } from '../../engine/futures/settings.ts';
import { asObject, optionalEnum, optionalString, requiredString, type Fields } from '../params.ts';
import { caller, reject, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { submit } from './futures-service.ts';
import { productTypeOf } from './mix-input.ts';
import { failureText } from './order-input.ts';
import { signedRoutes } from './route-kit.ts';

function sideOf(fields: Fields, name: string): HoldSide | undefined {
  const side = optionalEnum(fields, name, ['long', 'short', 'buy', 'sell'] as const);
  if (side === undefined) return undefined;
  return side === 'long' || side === 'buy' ? 'long' : 'short';
}

function v3FuturesCategory(fields: Fields): Category {
  const category = parseCategory(requiredString(fields, 'category'), V3_CATEGORIES);
  if (!category || !isFutures(category)) reject('PARAM_ERROR', 'category');
  return category;
}

export function closePositionRoutes(services: Services): Route[] {
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const v2 = signedRoutes({ dialect: 'v2-mix', accountMode: 'classic', area: 'futures_orders' });
  const v3 = signedRoutes({ dialect: 'v3', accountMode: 'unified', area: 'futures_orders' });
  const close = (uid: string, category: Category, symbol?: string, holdSide?: HoldSide) =>
    submit<CloseResult[]>(services, {
      type: 'ClosePositions',
      timeMs: services.clock.now(),
      uid,
      category,
      ...(symbol ? { symbol } : {}),
      ...(holdSide ? { holdSide } : {}),
    });

  return [
    v2('POST', '/api/v2/mix/order/close-positions', 1, true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const uid = uidOf(request);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      const holdSide = sideOf(body, 'holdSide');
      const hedge = positionModeOf(services.sequencer.exchange.state, uid, category) === 'hedge_mode';
      const results = await close(uid, category, symbol, hedge ? holdSide : undefined);
      const successList: Record<string, string>[] = [];
      const failureList: Record<string, string>[] = [];
      for (const result of results) {
        const ids = { orderId: result.orderId, clientOid: result.clientOid, symbol: result.symbol };
        if (!('code' in result)) successList.push(ids);
        else {
          const { code, msg } = failureText(result, 'v2-mix');
          failureList.push({ ...ids, errorMsg: msg, errorCode: code });
        }
      }
      return { successList, failureList };
    }),
    v3('POST', '/api/v3/trade/close-positions', 5, true, async (request) => {
      const body = asObject(request.body);
      const category = v3FuturesCategory(body);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      const results = await close(uidOf(request), category, symbol, sideOf(body, 'posSide'));
      return {
        list: results.map((result) => {
          if (!('code' in result)) return { orderId: result.orderId, clientOid: result.clientOid };
          const { code, msg } = failureText(result, 'v3');
          return { orderId: result.orderId, clientOid: result.clientOid, code, msg };
        }),
      };
    }),
  ];
}
