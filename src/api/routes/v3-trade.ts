/**
 * Unified (v3) trading: place-order, place-batch (spec §2), cancel-order, cancel-batch,
 * cancel-symbol-order, modify-order (spec §5), order-info, unfilled-orders, history-orders
 * and fills (spec §1), for spot, margin and the three futures categories.
 */
import { parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import type { OrderReference, OrderRequest } from '../../domain/commands.ts';
import type { Failure } from '../../domain/result-code.ts';
import type { ModifyResult } from '../../engine/trading/modify.ts';
import { asArray, asObject, optionalDecimal, optionalEnum, optionalString, type Fields } from '../params.ts';
import {
  caller,
  reject,
  Rejected,
  unwrap,
  type ApiRequest,
  type PermissionRule,
  type Route,
} from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { v3Fill, v3Order } from '../wire/orders.ts';
import { failureText, parsedValues, parseItem, parseV3Order, v3Category } from './order-input.ts';
import { v3ModifiedPresets } from './preset-input.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { cancel, cancelAll, findOrder, openOrderViews, permissionAreaOf, place } from './trading-service.ts';

const MAX_BATCH = 20;

function firstCategory(request: ApiRequest): Category | null {
  const body = Array.isArray(request.body) ? request.body[0] : request.body;
  const text = body && typeof body === 'object' ? (body as Fields).category : undefined;
  return typeof text === 'string' ? parseCategory(text, V3_CATEGORIES) : null;
}

const TRADE_AREAS = ['spot', 'margin', 'futures_orders'] as const;

/** The category's trading area when the request names one, else any trading area. */
const tradeAccess =
  (write: boolean) =>
  (request: ApiRequest): PermissionRule => {
    const category =
      firstCategory(request) ?? parseCategory(String(request.query.category ?? ''), V3_CATEGORIES);
    return { area: category ? permissionAreaOf(category) : TRADE_AREAS, write };
  };
const tradePermission = tradeAccess(true);
const tradeRead = tradeAccess(false);

function reference(fields: Fields): OrderReference {
  const orderId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!orderId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  const symbol = optionalString(fields, 'symbol')?.toUpperCase();
  const categoryText = optionalString(fields, 'category');
  const category = categoryText ? parseCategory(categoryText, V3_CATEGORIES) : undefined;
  if (category === null) reject('PARAM_ERROR', 'category');
  return {
    ...(orderId ? { orderId } : {}),
    ...(clientOid && !orderId ? { clientOid } : {}),
    ...(symbol ? { symbol } : {}),
    ...(category ? { category } : {}),
  };
}

function itemResult(result: { orderId: string; clientOid: string; replaced?: boolean } & Partial<Failure>) {
  // A reduce-only order that replaced older ones is answered without an orderId (spec state table).
  if (!result.code) return { orderId: result.replaced ? null : result.orderId, clientOid: result.clientOid };
  const { code, msg } = failureText(result as Failure, 'v3');
  return { orderId: result.orderId || null, clientOid: result.clientOid, code, msg };
}

export function v3TradeRoutes(services: Services): Route[] {
  const pendingModifies = new Set<string>();
  const family = signedRoutes({ dialect: 'v3', accountMode: 'unified' });
  const route = (
    method: Route['method'],
    path: string,
    perSecond: number,
    handler: Route['handler'],
    permission?: Route['permission'],
  ): Route =>
    // Every route needs a trading permission: writes read-and-write, reads either.
    family(method, path, perSecond, permission ?? (method === 'GET' ? tradeRead : tradePermission), handler);

  return [
    route(
      'POST',
      '/api/v3/trade/place-order',
      10,
      async (request) => {
        const { category, request: order } = parseV3Order(request.body);
        const [result] = await place(services, caller(request).account.uid, category, [order]);
        if (!result) throw new Error('placement returned no result');
        if ('code' in result) throw new Rejected(result);
        return itemResult(result);
      },
      tradePermission,
    ),
    route(
      'POST',
      '/api/v3/trade/place-batch',
      5,
      async (request) => {
        const items = asArray(request.body, 'orderList');
        if (items.length === 0) reject('PARAM_EMPTY', 'orderList');
        if (items.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
        const parsed = items.map((item) => parseItem(() => parseV3Order(item)));
        const orders = parsedValues(parsed);
        const category = orders[0]?.category ?? 'SPOT';
        if (orders.some((order) => order.category !== category)) reject('PARAM_ERROR', 'category');
        const valid: OrderRequest[] = orders.map((order) => order.request);
        const placed =
          valid.length > 0 ? await place(services, caller(request).account.uid, category, valid) : [];
        let next = 0;
        return parsed.map((item, index) => {
          if (item.ok) return itemResult(placed[next++] ?? { orderId: '', clientOid: '' });
          const clientOid = optionalString(asObject(items[index] ?? {}, 'order'), 'clientOid') ?? '';
          return { orderId: null, clientOid, ...failureText(item.failure, 'v3') };
        });
      },
      tradePermission,
    ),
    route('POST', '/api/v3/trade/cancel-order', 10, async (request) => {
      const [result] = await cancel(services, caller(request).account.uid, [
        reference(asObject(request.body)),
      ]);
      if (!result) throw new Error('cancel returned no result');
      if ('code' in result) throw new Rejected(result);
      return { orderId: result.orderId, clientOid: result.clientOid };
    }),
    route('POST', '/api/v3/trade/cancel-batch', 5, async (request) => {
      const items = asArray(request.body, 'orderList');
      if (items.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
      const parsed = items.map((item) => parseItem(() => reference(asObject(item, 'order'))));
      const valid = parsedValues(parsed);
      const results = valid.length > 0 ? await cancel(services, caller(request).account.uid, valid) : [];
      let next = 0;
      return parsed.map((item) =>
        item.ok
          ? itemResult(results[next++] ?? { orderId: '', clientOid: '' })
          : { orderId: null, clientOid: '', ...failureText(item.failure, 'v3') },
      );
    }),
    route('POST', '/api/v3/trade/cancel-symbol-order', 5, async (request) => {
      const body = asObject(request.body);
      const category = v3Category(body);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      const results = await cancelAll(services, caller(request).account.uid, [category], symbol);
      return { list: results.map(itemResult) };
    }),
    route('POST', '/api/v3/trade/modify-order', 10, async (request) => {
      const body = asObject(request.body);
      const target = reference(body);
      const quantity = optionalDecimal(body, 'qty');
      const price = optionalDecimal(body, 'price');
      const presets = v3ModifiedPresets(body);
      if (quantity === undefined && price === undefined && Object.keys(presets).length === 0)
        reject('PARAM_EMPTY', 'qty');
      const autoCancel = (optionalEnum(body, 'autoCancel', ['yes', 'no'] as const) ?? 'no') === 'yes';
      const uid = caller(request).account.uid;
      const key = `${uid}|${target.orderId ?? `c:${target.clientOid}`}`;
      if (pendingModifies.has(key)) reject('MODIFY_PENDING');
      pendingModifies.add(key);
      try {
        const outcome = await services.sequencer.submit<ModifyResult>({
          type: 'ModifyOrder',
          timeMs: services.clock.now(),
          uid,
          order: target,
          ...(quantity !== undefined ? { quantity } : {}),
          ...(price !== undefined ? { price } : {}),
          ...presets,
          autoCancel,
        });
        if (!outcome.ok && outcome.code === 'ORDER_NOT_FOUND' && (await findOrder(services, uid, target))) {
          reject('ORDER_NOT_MODIFIABLE');
        }
        const result = unwrap(outcome);
        if (result.failure) throw new Rejected(result.failure);
        return { orderId: result.orderId, clientOid: result.clientOid };
      } finally {
        pendingModifies.delete(key);
      }
    }),
    route('GET', '/api/v3/trade/order-info', 20, async (request) => {
      const order = await findOrder(services, caller(request).account.uid, reference(request.query));
      if (!order) reject('ORDER_NOT_FOUND');
      return v3Order(order);
    }),
    route('GET', '/api/v3/trade/unfilled-orders', 20, (request) => {
      const { query } = request;
      const categoryText = optionalString(query, 'category');
      const category = categoryText ? parseCategory(categoryText, V3_CATEGORIES) : undefined;
      if (category === null) reject('PARAM_ERROR', 'category');
      const limit = pageLimit(query, 100, 100);
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'cursor');
      const views = openOrderViews(services, caller(request).account.uid, {
        ...(category ? { categories: [category] } : {}),
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
      }).slice(0, limit);
      return { list: views.map(v3Order), cursor: views.at(-1)?.orderId ?? '' };
    }),
    route('GET', '/api/v3/trade/history-orders', 20, async (request) => {
      const { query } = request;
      const category = v3Category(query);
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 30 * DAY_MS);
      const idLessThan = idCursor(query, 'cursor');
      const views = await services.store.orders({
        uid: caller(request).account.uid,
        categories: [category],
        closedOnly: true,
        ...window,
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return { list: views.map(v3Order), cursor: views.at(-1)?.orderId ?? '' };
    }),
    route('GET', '/api/v3/trade/fills', 20, async (request) => {
      const { query } = request;
      const categoryText = optionalString(query, 'category');
      const category = categoryText ? parseCategory(categoryText, V3_CATEGORIES) : undefined;
      if (category === null) reject('PARAM_ERROR', 'category');
      const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 30 * DAY_MS);
      const orderId = optionalString(query, 'orderId');
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const idLessThan = idCursor(query, 'cursor');
      const fills = await services.store.fills({
        uid: caller(request).account.uid,
        ...window,
        ...(category ? { categories: [category] } : {}),
        ...(symbol ? { symbol } : {}),
        ...(orderId ? { orderId } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return { list: fills.map(v3Fill), cursor: fills.at(-1)?.execId ?? '' };
    }),
  ];
}
