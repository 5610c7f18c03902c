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
import { caller, reject, Rejected, unwrap, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { v3Fill, v3Order } from '../wire/orders.ts';
import {
  echoedClientOid,
  failureText,
  isPlainV3Order,
  parsedValues,
  parseItem,
  parseV3Order,
  readV3Order,
  v3Category,
} from './order-input.ts';
import { v3ModifiedPresets } from './preset-input.ts';
import { BATCH_TRIGGER_WHY, orderTriggerOf, placeOrderTrigger } from './v3-order-trigger.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { readableCategories, requireTrade, tradeRule, writableTarget } from './trade-access.ts';
import { cancel, cancelAll, findOrder, openOrderViews, place } from './trading-service.ts';

const MAX_BATCH = 20;

// Every category a request names must be permitted (trade-access.ts); cancel-batch checks
// each item in the handler instead, so that a refused item is answered in its place.
const tradePermission = tradeRule(true);
const tradeRead = tradeRule(false);
const anyTradePermission = tradeRule(true, () => []);

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

type V3Item = { category: Category; request: OrderRequest };

/** A place-batch item refused on its own: answered in its place, the others placed. */
interface FailedItem {
  orderId: null;
  clientOid: string;
  code: string;
  msg: string;
}

/** One place-batch item: its order, or its answer when it is refused. */
function readBatchItem(item: unknown): V3Item | FailedItem {
  try {
    const fields = asObject(item, 'order');
    const plain = isPlainV3Order(fields);
    if (!plain && orderTriggerOf(fields) !== undefined)
      reject('FIELD_UNSERVED', 'triggerPrice', BATCH_TRIGGER_WHY);
    return readV3Order(fields, plain);
  } catch (error) {
    if (!(error instanceof Rejected)) throw error;
    return { orderId: null, clientOid: echoedClientOid(item), ...failureText(error.failure, 'v3') };
  }
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
        requireTrade(request, category, true);
        const uid = caller(request).account.uid;
        // ccxt's trigger orders on a unified account: served as the trigger strategy order.
        const fields = asObject(request.body);
        const trigger = orderTriggerOf(fields);
        if (trigger !== undefined)
          return placeOrderTrigger(services, { uid, category, fields, trigger, clientOid: order.clientOid });
        const [result] = await place(services, uid, category, [order]);
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
        // One pass: each item read once, into its request or the answer it gets in its place.
        const read: (V3Item | FailedItem)[] = [];
        const valid: OrderRequest[] = [];
        let category: Category | undefined;
        let mixed = false;
        for (const item of items) {
          const one = readBatchItem(item);
          read.push(one);
          if (!('request' in one)) continue;
          category ??= one.category;
          if (one.category !== category) mixed = true;
          valid.push(one.request);
        }
        if (mixed) reject('PARAM_ERROR', 'category');
        category ??= 'SPOT';
        requireTrade(request, category, true);
        const placed =
          valid.length > 0 ? await place(services, caller(request).account.uid, category, valid) : [];
        let next = 0;
        return read.map((one) =>
          'request' in one ? itemResult(placed[next++] ?? { orderId: '', clientOid: '' }) : one,
        );
      },
      tradePermission,
    ),
    route('POST', '/api/v3/trade/cancel-order', 10, async (request) => {
      const target = writableTarget(services, request, reference(asObject(request.body)));
      const [result] = await cancel(services, caller(request).account.uid, [target]);
      if (!result) throw new Error('cancel returned no result');
      if ('code' in result) throw new Rejected(result);
      return { orderId: result.orderId, clientOid: result.clientOid };
    }),
    route(
      'POST',
      '/api/v3/trade/cancel-batch',
      5,
      async (request) => {
        const items = asArray(request.body, 'orderList');
        if (items.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
        // An item whose order the key may not trade is answered 25620 in its place.
        const parsed = items.map((item) =>
          parseItem(() => writableTarget(services, request, reference(asObject(item, 'order')))),
        );
        const valid = parsedValues(parsed);
        const results = valid.length > 0 ? await cancel(services, caller(request).account.uid, valid) : [];
        let next = 0;
        return parsed.map((item) =>
          item.ok
            ? itemResult(results[next++] ?? { orderId: '', clientOid: '' })
            : { orderId: null, clientOid: '', ...failureText(item.failure, 'v3') },
        );
      },
      anyTradePermission,
    ),
    route('POST', '/api/v3/trade/cancel-symbol-order', 5, async (request) => {
      const body = asObject(request.body);
      const category = v3Category(body);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      const results = await cancelAll(services, caller(request).account.uid, [category], symbol);
      return { list: results.map(itemResult) };
    }),
    route('POST', '/api/v3/trade/modify-order', 10, async (request) => {
      const body = asObject(request.body);
      const given = reference(body);
      const quantity = optionalDecimal(body, 'qty');
      const price = optionalDecimal(body, 'price');
      const presets = v3ModifiedPresets(body);
      if (quantity === undefined && price === undefined && Object.keys(presets).length === 0)
        reject('PARAM_EMPTY', 'qty');
      const autoCancel = (optionalEnum(body, 'autoCancel', ['yes', 'no'] as const) ?? 'no') === 'yes';
      const uid = caller(request).account.uid;
      const key = `${uid}|${given.orderId ?? `c:${given.clientOid}`}`;
      if (pendingModifies.has(key)) reject('MODIFY_PENDING');
      const target = writableTarget(services, request, given);
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
      const target = reference(request.query);
      const order = await findOrder(services, caller(request).account.uid, target);
      if (!order || (target.category && order.category !== target.category)) reject('ORDER_NOT_FOUND');
      requireTrade(request, order.category, false);
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
        categories: category ? [category] : readableCategories(request),
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
        categories: category ? [category] : readableCategories(request),
        ...(symbol ? { symbol } : {}),
        ...(orderId ? { orderId } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return { list: fills.map(v3Fill), cursor: fills.at(-1)?.execId ?? '' };
    }),
  ];
}
