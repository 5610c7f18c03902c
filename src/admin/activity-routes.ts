/**
 * Operator routes of what an account holds and did (docs/operator.md, "An account's orders,
 * fills, positions and balances"): open orders and balances and positions from the engine,
 * which is always current; order history and fills from the store's projections. Orders and
 * fills are newest first, paged by id (`cursor`: the last id of the page before); there is no
 * time window, unlike the venue's history endpoints. Decimals are strings, times Unix ms as
 * strings.
 */
import { CATEGORIES, FUTURES_CATEGORIES, type Category } from '../domain/category.ts';
import type { FillView } from '../domain/events.ts';
import type { OrderView } from '../domain/order-view.ts';
import { optionalEnum, optionalString } from '../api/params.ts';
import { reject, type ApiRequest, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { positionsOf } from '../api/routes/futures-service.ts';
import { idCursor } from '../api/routes/query-window.ts';
import { openOrderViews } from '../api/routes/trading-service.ts';
import { v3Position } from '../api/wire/futures.ts';
import { balanceRows, pageOf, pageSize } from './views.ts';

const ORDER_STATUSES = ['open', 'closed', 'all'] as const;

function orderRow({ createdTimeMs, updatedTimeMs, ...view }: OrderView) {
  return { ...view, createdTime: String(createdTimeMs), updatedTime: String(updatedTimeMs) };
}

function fillRow({ timeMs, ...fill }: FillView) {
  return { ...fill, createdTime: String(timeMs) };
}

/** The filters orders and fills share: category (any case), symbol, cursor, limit. */
function filtersOf(request: ApiRequest) {
  const { query } = request;
  const category = optionalEnum(query, 'category', CATEGORIES);
  const symbol = optionalString(query, 'symbol')?.toUpperCase();
  const idLessThan = idCursor(query, 'cursor');
  return {
    limit: pageSize(query),
    filter: {
      ...(category ? { categories: [category] } : {}),
      ...(symbol ? { symbol } : {}),
      ...(idLessThan ? { idLessThan } : {}),
    },
  };
}

export function activityRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const route = (path: string, handler: Route['handler']): Route => ({
    method: 'GET',
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });
  const accountOf = (params: Record<string, string>): string => {
    const uid = params.uid ?? '';
    if (!state().accounts.has(uid)) reject('ACCOUNT_NOT_FOUND', 'uid');
    return uid;
  };

  return [
    route('/admin/v1/accounts/:uid/orders', async (request, params) => {
      const uid = accountOf(params);
      const status = optionalEnum(request.query, 'status', ORDER_STATUSES) ?? 'all';
      const { limit, filter } = filtersOf(request);
      // One more than the page, so that the answer knows whether another page follows.
      const views =
        status === 'open'
          ? openOrderViews(services, uid, filter).slice(0, limit + 1)
          : await services.store.orders({
              uid,
              ...filter,
              closedOnly: status === 'closed',
              limit: limit + 1,
            });
      return pageOf(views, limit, (view) => view.orderId, orderRow);
    }),
    route('/admin/v1/accounts/:uid/fills', async (request, params) => {
      const uid = accountOf(params);
      const { limit, filter } = filtersOf(request);
      const orderId = idCursor(request.query, 'orderId');
      const fills = await services.store.fills({
        uid,
        ...filter,
        ...(orderId ? { orderId } : {}),
        limit: limit + 1,
      });
      return pageOf(fills, limit, (fill) => fill.execId, fillRow);
    }),
    route('/admin/v1/accounts/:uid/positions', (request, params) => {
      const uid = accountOf(params);
      const category = optionalEnum(request.query, 'category', FUTURES_CATEGORIES as readonly Category[]);
      const categories = category ? [category] : FUTURES_CATEGORIES;
      return categories.flatMap((one) =>
        positionsOf(services, uid, one).map((report) => v3Position(state(), report)),
      );
    }),
    route('/admin/v1/accounts/:uid/balances', (request, params) => {
      const uid = accountOf(params);
      const wallet = optionalString(request.query, 'wallet')?.toLowerCase();
      const coin = optionalString(request.query, 'coin')?.toUpperCase();
      return balanceRows(state(), uid).filter(
        (row) => (!wallet || row.wallet.toLowerCase() === wallet) && (!coin || row.coin === coin),
      );
    }),
  ];
}
