/**
 * Classic (v2) spot trading: place-order, batch-orders (spec §6, single and multiple
 * batchMode, successList/failureList with errorCode), cancel-order, batch-cancel-order,
 * cancel-symbol-order, orderInfo, unfilled-orders, history-orders and fills.
 */
import type { OrderReference } from '../../domain/commands.ts';
import type { Failure } from '../../domain/result-code.ts';
import { asObject, optionalEnum, optionalString, type Fields } from '../params.ts';
import { caller, reject, Rejected, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { v2SpotFill, v2SpotOpenOrder, v2SpotOrder } from '../wire/orders.ts';
import { echoedClientOid, failureText, parsedValues, parseItem, parseV2SpotOrder } from './order-input.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { cancel, cancelAll, findOrder, openOrderViews, place } from './trading-service.ts';

const MAX_BATCH = 50;

function spotReference(fields: Fields, symbol?: string): OrderReference {
  const orderId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!orderId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  return {
    ...(orderId ? { orderId } : { clientOid: clientOid ?? '' }),
    ...(symbol ? { symbol: symbol.toUpperCase() } : {}),
    category: 'SPOT',
  };
}

function orderList(body: Fields): unknown[] {
  const list = body.orderList;
  if (list === undefined || list === null) reject('PARAM_EMPTY', 'orderList');
  if (!Array.isArray(list)) reject('PARAM_ERROR', 'orderList');
  if (list.length === 0) reject('PARAM_EMPTY', 'orderList');
  if (list.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
  return list;
}

function batchSymbol(body: Fields): string | undefined {
  const mode = optionalEnum(body, 'batchMode', ['single', 'multiple'] as const) ?? 'single';
  if (mode === 'multiple') return undefined;
  return optionalString(body, 'symbol');
}

interface BatchLists {
  successList: { orderId: string; clientOid: string }[];
  failureList: { orderId: string; clientOid: string; errorMsg: string; errorCode: string }[];
}

function failed(list: BatchLists, ids: { orderId: string; clientOid: string }, failure: Failure): void {
  const { code, msg } = failureText(failure, 'v2-spot');
  list.failureList.push({ orderId: ids.orderId, clientOid: ids.clientOid, errorMsg: msg, errorCode: code });
}

export function v2SpotTradeRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic', area: 'spot' });
  const uidOf = (request: Parameters<Route['handler']>[0]) => caller(request).account.uid;

  return [
    route('POST', '/api/v2/spot/trade/place-order', 10, true, async (request) => {
      const order = parseV2SpotOrder(request.body, undefined);
      const [result] = await place(services, uidOf(request), 'SPOT', [order]);
      if (!result) throw new Error('placement returned no result');
      if ('code' in result) throw new Rejected(result);
      return { orderId: result.orderId, clientOid: result.clientOid };
    }),
    route('POST', '/api/v2/spot/trade/batch-orders', 5, true, async (request) => {
      const body = asObject(request.body);
      const list = orderList(body);
      const symbol = batchSymbol(body);
      const parsed = list.map((item) => parseItem(() => parseV2SpotOrder(item, symbol)));
      const valid = parsedValues(parsed);
      const placed = valid.length > 0 ? await place(services, uidOf(request), 'SPOT', valid) : [];
      const lists: BatchLists = { successList: [], failureList: [] };
      let next = 0;
      parsed.forEach((item, index) => {
        if (!item.ok) {
          const clientOid = echoedClientOid(list[index]);
          failed(lists, { orderId: '', clientOid }, item.failure);
          return;
        }
        const result = placed[next++];
        if (!result) return;
        if ('code' in result) failed(lists, result, result);
        else lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
      });
      return lists;
    }),
    route('POST', '/api/v2/spot/trade/cancel-order', 10, true, async (request) => {
      const body = asObject(request.body);
      const [result] = await cancel(services, uidOf(request), [
        spotReference(body, optionalString(body, 'symbol')),
      ]);
      if (!result) throw new Error('cancel returned no result');
      if ('code' in result) throw new Rejected(result);
      return { orderId: result.orderId, clientOid: result.clientOid };
    }),
    route('POST', '/api/v2/spot/trade/batch-cancel-order', 10, true, async (request) => {
      const body = asObject(request.body);
      const list = orderList(body);
      const symbol = batchSymbol(body);
      const parsed = list.map((item) =>
        parseItem(() => {
          const fields = asObject(item, 'order');
          return spotReference(fields, symbol ?? optionalString(fields, 'symbol'));
        }),
      );
      const valid = parsedValues(parsed);
      const results = valid.length > 0 ? await cancel(services, uidOf(request), valid) : [];
      const lists: BatchLists = { successList: [], failureList: [] };
      let next = 0;
      for (const item of parsed) {
        if (!item.ok) {
          failed(lists, { orderId: '', clientOid: '' }, item.failure);
          continue;
        }
        const result = results[next++];
        if (!result) continue;
        if ('code' in result) failed(lists, result, result);
        else lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
      }
      return lists;
    }),
    route('POST', '/api/v2/spot/trade/cancel-symbol-order', 5, true, async (request) => {
      const body = asObject(request.body);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      if (!symbol) reject('PARAM_EMPTY', 'symbol');
      await cancelAll(services, uidOf(request), ['SPOT'], symbol);
      return { symbol };
    }),
    route('GET', '/api/v2/spot/trade/orderInfo', 20, false, async (request) => {
      const order = await findOrder(services, uidOf(request), spotReference(request.query));
      return order && order.category === 'SPOT' ? [v2SpotOrder(order)] : [];
    }),
    route('GET', '/api/v2/spot/trade/unfilled-orders', 20, false, (request) => {
      const { query } = request;
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'idLessThan');
      const orderId = optionalString(query, 'orderId');
      const views = openOrderViews(services, uidOf(request), {
        categories: ['SPOT'],
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
      }).filter((view) => !orderId || view.orderId === orderId);
      return views.slice(0, pageLimit(query, 100, 100)).map(v2SpotOpenOrder);
    }),
    route('GET', '/api/v2/spot/trade/history-orders', 20, false, async (request) => {
      const { query } = request;
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'idLessThan');
      const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
      const views = await services.store.orders({
        uid: uidOf(request),
        categories: ['SPOT'],
        closedOnly: true,
        ...window,
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      const orderId = optionalString(query, 'orderId');
      return views.filter((view) => !orderId || view.orderId === orderId).map(v2SpotOrder);
    }),
    route('GET', '/api/v2/spot/trade/fills', 10, false, async (request) => {
      const { query } = request;
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const orderId = optionalString(query, 'orderId');
      const idLessThan = idCursor(query, 'idLessThan');
      const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
      const fills = await services.store.fills({
        uid: uidOf(request),
        categories: ['SPOT'],
        ...window,
        ...(symbol ? { symbol } : {}),
        ...(orderId ? { orderId } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return fills.map(v2SpotFill);
    }),
  ];
}
