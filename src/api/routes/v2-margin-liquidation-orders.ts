/**
 * `GET /api/v2/margin/{crossed|isolated}/liquidation-order`: the orders a margin liquidation
 * placed (engine/margin/liquidation.ts, orders marked `liquidation`), newest first, as the
 * venue lists them: `type` `place_order` (the default) lists them, optionally for one
 * `symbol`; `swap` lists liquidations by coin swap (`fromCoin`/`toCoin`), which bourse never
 * makes, so that list is empty. `fromCoin`/`toCoin` only belong to `swap` (the venue says they
 * take no effect otherwise): with `place_order` they are refused rather than ignored.
 * Paging as the venue's: `startTime`/`endTime` (90 days), `limit` (100, at most 500), and
 * `idLessThan` (the `idLessThan` of the previous answer, its last orderId).
 */
import type { OrderView } from '../../domain/order-view.ts';
import { marginWallet } from '../../engine/margin/margin-wallet.ts';
import { optionalEnum, optionalString } from '../params.ts';
import { caller, reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { isolatedSymbol, isolatedWallets, MARGIN_TYPES } from './margin-query.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';
import { walletPage } from './wallet-pages.ts';

const TYPES = ['place_order', 'swap'] as const;

export function liquidationOrderRow(view: OrderView) {
  return {
    symbol: view.symbol,
    orderType: view.orderType,
    side: `liquidation-${view.side}`,
    priceAvg: view.avgPrice,
    price: view.avgPrice,
    fillSize: view.cumExecQty,
    size: view.qty,
    amount: view.cumExecValue,
    orderId: view.orderId,
    fromCoin: '',
    toCoin: '',
    fromSize: '',
    toSize: '',
    cTime: String(view.createdTimeMs),
    uTime: String(view.updatedTimeMs),
  };
}

export function v2MarginLiquidationOrderRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2', accountMode: 'classic', area: 'margin' });
  return MARGIN_TYPES.map((marginType) =>
    route('GET', `/api/v2/margin/${marginType}/liquidation-order`, 10, false, async (request) => {
      const { query } = request;
      const type = optionalEnum(query, 'type', TYPES) ?? 'place_order';
      const fromCoin = optionalString(query, 'fromCoin');
      const toCoin = optionalString(query, 'toCoin');
      if (type === 'place_order' && fromCoin !== undefined) reject('PARAM_ERROR', 'fromCoin');
      if (type === 'place_order' && toCoin !== undefined) reject('PARAM_ERROR', 'toCoin');
      const state = services.sequencer.exchange.state;
      const symbol = isolatedSymbol(state, query, false);
      const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
      const idLessThan = idCursor(query, 'idLessThan');
      const limit = pageLimit(query, 100, 500);
      const uid = caller(request).account.uid;
      const wallets = new Set(
        marginType === 'isolated'
          ? isolatedWallets(state, uid, symbol)
          : [marginWallet(state, uid, 'crossed')],
      );
      if (type === 'swap' || wallets.size === 0) return { resultList: [], idLessThan: '' };
      const views = await walletPage(
        (below) =>
          services.store.orders({
            uid,
            categories: ['MARGIN'],
            closedOnly: true,
            ...(symbol ? { symbol } : {}),
            ...window,
            ...(below ? { idLessThan: below } : {}),
            limit,
          }),
        (rows) => rows.filter((view) => view.source === 'liquidation' && wallets.has(view.wallet)),
        (view) => view.orderId,
        limit,
        idLessThan,
      );
      return {
        resultList: views.map(liquidationOrderRow),
        idLessThan: views[views.length - 1]?.orderId ?? '',
      };
    }),
  );
}
