/**
 * Classic (v2) futures orders: place-order, batch-place-order, cancel-order,
 * batch-cancel-orders, cancel-all-orders, modify-order (cancel and replace with newClientOid,
 * as the venue does), detail, orders-pending, orders-history and fills, for all six product
 * types (the demo SUSDT-, SCOIN- and SUSDC-FUTURES behave like the others).
 */
import type { Category } from '../../domain/category.ts';
import type { OrderRequest } from '../../domain/commands.ts';
import type { Failure } from '../../domain/result-code.ts';
import { positionModeOf } from '../../engine/futures/settings.ts';
import type { ReplaceResult } from '../../engine/trading/replace.ts';
import { findOpenOrder } from '../../engine/trading/cancel.ts';
import { asObject, optionalDecimal, optionalString, type Fields } from '../params.ts';
import { caller, reject, Rejected, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { v2MixFill, v2MixOrder } from '../wire/futures.ts';
import { mixReference, productTypeOf } from './mix-input.ts';
import { echoedClientOid, failureText, parsedValues, parseItem, parseV2MixOrder } from './order-input.ts';
import { v2ModifiedPresets } from './preset-input.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { submit } from './futures-service.ts';
import { cancel, cancelAll, findOrder, openOrderViews, place } from './trading-service.ts';

const MAX_BATCH = 50;

interface Lists {
  successList: { orderId: string; clientOid: string }[];
  failureList: { orderId: string; clientOid: string; errorMsg: string; errorCode: string }[];
}

function failedItem(lists: Lists, ids: { orderId: string; clientOid: string }, failure: Failure): void {
  const { code, msg } = failureText(failure, 'v2-mix');
  lists.failureList.push({ orderId: ids.orderId, clientOid: ids.clientOid, errorMsg: msg, errorCode: code });
}

function itemIds(result: { orderId: string; clientOid: string; replaced?: boolean }) {
  return { orderId: result.replaced ? null : result.orderId, clientOid: result.clientOid };
}

export function v2MixTradeRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const route = signedRoutes({ dialect: 'v2-mix', accountMode: 'classic', area: 'futures_orders' });
  const parse = (request: ApiRequest, item: unknown, defaults: Fields, category: Category): OrderRequest =>
    parseV2MixOrder(item, defaults, positionModeOf(state(), uidOf(request), category));

  return [
    route('POST', '/api/v2/mix/order/place-order', 10, true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const [result] = await place(services, uidOf(request), category, [parse(request, body, {}, category)]);
      if (!result) throw new Error('placement returned no result');
      if ('code' in result) throw new Rejected(result);
      return itemIds(result);
    }),
    route('POST', '/api/v2/mix/order/batch-place-order', 5, true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const list = body.orderList;
      if (!Array.isArray(list) || list.length === 0) reject('PARAM_EMPTY', 'orderList');
      if (list.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
      const defaults: Fields = {
        symbol: body.symbol,
        marginMode: body.marginMode,
        marginCoin: body.marginCoin,
      };
      const parsed = list.map((item) => parseItem(() => parse(request, item, defaults, category)));
      const valid = parsedValues(parsed);
      const placed = valid.length > 0 ? await place(services, uidOf(request), category, valid) : [];
      const lists: Lists = { successList: [], failureList: [] };
      let next = 0;
      parsed.forEach((item, index) => {
        const clientOid = echoedClientOid(list[index]);
        if (!item.ok) return failedItem(lists, { orderId: '', clientOid }, item.failure);
        const result = placed[next++];
        if (!result) return;
        if ('code' in result) failedItem(lists, result, result);
        else lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
      });
      return lists;
    }),
    route('POST', '/api/v2/mix/order/cancel-order', 10, true, async (request) => {
      const body = asObject(request.body);
      const [result] = await cancel(services, uidOf(request), [mixReference(body, productTypeOf(body))]);
      if (!result) throw new Error('cancel returned no result');
      if ('code' in result) throw new Rejected(result);
      return { orderId: result.orderId, clientOid: result.clientOid };
    }),
    route('POST', '/api/v2/mix/order/batch-cancel-orders', 10, true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      const list = body.orderIdList;
      const lists: Lists = { successList: [], failureList: [] };
      if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) {
        const results = await cancelAll(services, uidOf(request), [category], symbol);
        for (const result of results)
          lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
        return lists;
      }
      if (!Array.isArray(list)) reject('PARAM_ERROR', 'orderIdList');
      if (list.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
      if (!symbol) reject('PARAM_EMPTY', 'symbol');
      const references = list.map((item) => mixReference({ ...asObject(item, 'order'), symbol }, category));
      const results = await cancel(services, uidOf(request), references);
      for (const result of results) {
        if ('code' in result)
          lists.failureList.push({
            orderId: result.orderId,
            clientOid: result.clientOid,
            errorMsg: 'notExistend',
            errorCode: failureText(result, 'v2-mix').code,
          });
        else lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
      }
      return lists;
    }),
    route('POST', '/api/v2/mix/order/cancel-all-orders', 10, true, async (request) => {
      const body = asObject(request.body);
      const results = await cancelAll(services, uidOf(request), [productTypeOf(body)]);
      return {
        successList: results.map((result) => ({ orderId: result.orderId, clientOid: result.clientOid })),
        failureList: [],
      };
    }),
    route('POST', '/api/v2/mix/order/modify-order', 10, true, async (request) => {
      // The venue cancels the order and places a new one (newClientOid); price and size go together.
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const uid = uidOf(request);
      const reference = mixReference(body, category);
      const newSize = optionalDecimal(body, 'newSize');
      const newPrice = optionalDecimal(body, 'newPrice');
      if ((newSize === undefined) !== (newPrice === undefined))
        reject('PARAM_EMPTY', newSize === undefined ? 'newSize' : 'newPrice');
      const newClientOid = optionalString(body, 'newClientOid');
      const current = findOpenOrder(state(), uid, reference)?.futures;
      const presets = v2ModifiedPresets(body, current);
      const result = await submit<ReplaceResult>(services, {
        type: 'ReplaceOrder',
        timeMs: services.clock.now(),
        uid,
        order: reference,
        ...(newSize !== undefined ? { quantity: newSize } : {}),
        ...(newPrice !== undefined ? { price: newPrice } : {}),
        ...(newClientOid ? { newClientOid } : {}),
        ...presets,
      });
      if (result.failure) throw new Rejected(result.failure);
      return { orderId: result.orderId, clientOid: result.clientOid };
    }),
    route('GET', '/api/v2/mix/order/detail', 10, false, async (request) => {
      const category = productTypeOf(request.query);
      const order = await findOrder(services, uidOf(request), mixReference(request.query, category));
      if (!order || order.category !== category) reject('ORDER_QUERY_NOT_FOUND');
      return v2MixOrder(order, 'state');
    }),
    route('GET', '/api/v2/mix/order/orders-pending', 10, false, (request) => {
      const { query } = request;
      const category = productTypeOf(query);
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'idLessThan');
      const status = optionalString(query, 'status');
      const orderId = optionalString(query, 'orderId');
      const clientOid = optionalString(query, 'clientOid');
      const views = openOrderViews(services, uidOf(request), {
        categories: [category],
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
      })
        .filter((view) => (!status || view.status === status) && (!orderId || view.orderId === orderId))
        .filter((view) => !clientOid || view.clientOid === clientOid)
        .slice(0, pageLimit(query, 100, 100));
      return {
        entrustedList: views.map((view) => v2MixOrder(view, 'status')),
        endId: views.at(-1)?.orderId ?? '',
      };
    }),
    route('GET', '/api/v2/mix/order/orders-history', 10, false, async (request) => {
      const { query } = request;
      const category = productTypeOf(query);
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'idLessThan');
      const views = await services.store.orders({
        uid: uidOf(request),
        categories: [category],
        closedOnly: true,
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return {
        entrustedList: views.map((view) => v2MixOrder(view, 'status')),
        endId: views.at(-1)?.orderId ?? '',
      };
    }),
    route('GET', '/api/v2/mix/order/fills', 10, false, async (request) => {
      const { query } = request;
      const category = productTypeOf(query);
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const orderId = optionalString(query, 'orderId');
      const idLessThan = idCursor(query, 'idLessThan');
      const fills = await services.store.fills({
        uid: uidOf(request),
        categories: [category],
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(symbol ? { symbol } : {}),
        ...(orderId ? { orderId } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return { fillList: fills.map(v2MixFill), endId: fills.at(-1)?.execId ?? '' };
    }),
  ];
}
