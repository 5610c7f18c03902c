/**
 * The ADL indicator of the caller's open positions: v2 `GET /api/v2/mix/position/adlRank`
 * (one product type; rows `symbol, marginCoin, adlRank, rank, holdSide`) and v3
 * `GET /api/v3/position/adlRank` (every futures category; `symbol, marginCoin, adlRank,
 * holdSide`). The value is the position's place in its side's deleveraging queue, 0..1,
 * closer to 1 deleveraged sooner; 0 for a losing position (engine/futures/adl.ts).
 */
import { FUTURES_CATEGORIES, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import type { Position } from '../../domain/position.ts';
import { adlRankOf } from '../../engine/futures/adl.ts';
import { caller, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes, signedRoutesByMethod } from './route-kit.ts';
import { positionsOf } from './futures-service.ts';
import { productTypeOf } from './mix-input.ts';

function rowsOf(services: Services, uid: string, categories: readonly Category[]) {
  const { state, books } = services.sequencer.exchange;
  return categories.flatMap((category) =>
    positionsOf(services, uid, category).map(({ position }: { position: Position }) => ({
      symbol: position.symbol,
      marginCoin: position.marginCoin,
      adlRank: adlRankOf(state, books, position),
      holdSide: position.holdSide,
    })),
  );
}

export function adlRankRoutes(services: Services): Route[] {
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const v2 = signedRoutes({ dialect: 'v2-mix', accountMode: 'classic', area: 'futures_positions' });
  const v3 = signedRoutesByMethod({ dialect: 'v3', accountMode: 'unified', area: 'futures_positions' });
  const v3Futures = V3_CATEGORIES.filter((category) => FUTURES_CATEGORIES.includes(category));
  return [
    v2('GET', '/api/v2/mix/position/adlRank', 5, false, (request) =>
      rowsOf(services, uidOf(request), [productTypeOf(request.query)]).map((row) => ({
        ...row,
        rank: row.adlRank,
      })),
    ),
    v3('GET', '/api/v3/position/adlRank', 5, (request) => rowsOf(services, uidOf(request), v3Futures)),
  ];
}
