/**
 * v2 margin trading, crossed and isolated: place-order, batch-place-order (≤ 50),
 * cancel-order, batch-cancel-order, open-orders, history-orders and fills. A crossed order
 * trades from the crossed wallet, an isolated one from its symbol's wallet and nothing else;
 * `loanType` decides whether it borrows what is lacking and repays from what it receives.
 */
import type { FillView } from '../../domain/events.ts';
import type { OrderView } from '../../domain/order-view.ts';
import { marginWallet, type MarginType } from '../../engine/margin/margin-wallet.ts';
import { asObject, optionalString } from '../params.ts';
import { caller, reject, Rejected, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { v2SpotFill } from '../wire/orders.ts';
import { marginOrderRow } from '../wire/margin.ts';
import { list, parseMarginOrder, reference, symbolOf } from './margin-order-input.ts';
import { echoedClientOid, failureText, parsedValues, parseItem } from './order-input.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';
import { cancel, findOrder, openOrderViews, place } from './trading-service.ts';
import { MARGIN_TYPES } from './margin-query.ts';
import { walletPage } from './wallet-pages.ts';

interface BatchLists {
  successList: { orderId: string; clientOid: string }[];
  failureList: { orderId: string; clientOid: string; errorMsg: string; errorCode: string }[];
}

export function v2MarginTradeRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic', area: 'margin' });
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const state = () => services.sequencer.exchange.state;
  const walletOf = (request: ApiRequest, marginType: MarginType, symbol: string) =>
    marginWallet(state(), uidOf(request), marginType, symbol);

  const routes: Route[] = [];
  for (const marginType of MARGIN_TYPES) {
    const base = `/api/v2/margin/${marginType}`;
    const mine = (request: ApiRequest, symbol: string) => (view: OrderView) =>
      view.category === 'MARGIN' && view.wallet === walletOf(request, marginType, symbol);
    routes.push(
      route('POST', `${base}/place-order`, 10, true, async (request) => {
        const body = asObject(request.body);
        const order = parseMarginOrder(body, symbolOf(body), marginType);
        const [result] = await place(services, uidOf(request), 'MARGIN', [order]);
        if (!result) throw new Error('placement returned no result');
        if ('code' in result) throw new Rejected(result);
        return { orderId: result.orderId, clientOid: result.clientOid };
      }),
      route('POST', `${base}/batch-place-order`, 5, true, async (request) => {
        const body = asObject(request.body);
        const symbol = symbolOf(body);
        const items = list(body, 'orderList');
        const parsed = items.map((item) => parseItem(() => parseMarginOrder(item, symbol, marginType)));
        const valid = parsedValues(parsed);
        const placed = valid.length > 0 ? await place(services, uidOf(request), 'MARGIN', valid) : [];
        const lists: BatchLists = { successList: [], failureList: [] };
        let next = 0;
        parsed.forEach((item, index) => {
          if (!item.ok) {
            const { code, msg } = failureText(item.failure, 'v2-spot');
            lists.failureList.push({
              orderId: '',
              clientOid: echoedClientOid(items[index]),
              errorMsg: msg,
              errorCode: code,
            });
            return;
          }
          const result = placed[next++];
          if (!result) return;
          if ('code' in result) {
            const { code, msg } = failureText(result, 'v2-spot');
            lists.failureList.push({
              orderId: '',
              clientOid: result.clientOid,
              errorMsg: msg,
              errorCode: code,
            });
          } else lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
        });
        return lists;
      }),
      route('POST', `${base}/cancel-order`, 10, true, async (request) => {
        const body = asObject(request.body);
        const symbol = symbolOf(body);
        const ref = { ...reference(body, symbol), wallet: walletOf(request, marginType, symbol) };
        const [result] = await cancel(services, uidOf(request), [ref]);
        if (!result) throw new Error('cancel returned no result');
        if ('code' in result) throw new Rejected(result);
        return { orderId: result.orderId, clientOid: result.clientOid };
      }),
      route('POST', `${base}/batch-cancel-order`, 10, true, async (request) => {
        const body = asObject(request.body);
        const symbol = symbolOf(body);
        const items = list(body, 'orderIdList');
        const parsed = items.map((item) =>
          parseItem(() =>
            reference(typeof item === 'string' ? { orderId: item } : asObject(item, 'order'), symbol),
          ),
        );
        // Only the wallet's own orders: another wallet's order is not found (43001).
        const wallet = walletOf(request, marginType, symbol);
        const valid = parsedValues(parsed).map((ref) => ({ ...ref, wallet }));
        const results = valid.length > 0 ? await cancel(services, uidOf(request), valid) : [];
        const lists: BatchLists = { successList: [], failureList: [] };
        let next = 0;
        for (const item of parsed) {
          if (!item.ok) {
            const { code, msg } = failureText(item.failure, 'v2-spot');
            lists.failureList.push({ orderId: '', clientOid: '', errorMsg: msg, errorCode: code });
            continue;
          }
          const result = results[next++];
          if (!result) continue;
          if ('code' in result) {
            const { code, msg } = failureText(result, 'v2-spot');
            lists.failureList.push({
              orderId: result.orderId,
              clientOid: result.clientOid,
              errorMsg: msg,
              errorCode: code,
            });
          } else lists.successList.push({ orderId: result.orderId, clientOid: result.clientOid });
        }
        return lists;
      }),
      route('GET', `${base}/open-orders`, 20, false, (request) => {
        const { query } = request;
        const symbol = symbolOf(query);
        if (optionalString(query, 'startTime') === undefined) reject('PARAM_EMPTY', 'startTime');
        const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
        const idLessThan = idCursor(query, 'idLessThan');
        const orderId = optionalString(query, 'orderId');
        const clientOid = optionalString(query, 'clientOid');
        const views = openOrderViews(services, uidOf(request), {
          categories: ['MARGIN'],
          symbol,
          ...window,
          ...(idLessThan ? { idLessThan } : {}),
        })
          .filter(mine(request, symbol))
          .filter(
            (view) => (!orderId || view.orderId === orderId) && (!clientOid || view.clientOid === clientOid),
          )
          .slice(0, pageLimit(query, 100, 500));
        const ids = views.map((view) => view.orderId);
        return {
          orderList: views.map(marginOrderRow),
          maxId: ids[0] ?? '',
          minId: ids[ids.length - 1] ?? '',
        };
      }),
      route('GET', `${base}/history-orders`, 20, false, async (request) => {
        const { query } = request;
        const symbol = symbolOf(query);
        if (optionalString(query, 'startTime') === undefined) reject('PARAM_EMPTY', 'startTime');
        const idLessThan = idCursor(query, 'idLessThan');
        const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
        const orderId = optionalString(query, 'orderId');
        const clientOid = optionalString(query, 'clientOid');
        // orderId and clientOid are filtered in the query; the wallet here (wallet-pages.ts).
        const limit = pageLimit(query, 100, 500);
        const rows = await walletPage(
          (below) =>
            services.store.orders({
              uid: uidOf(request),
              categories: ['MARGIN'],
              closedOnly: true,
              symbol,
              ...window,
              ...(orderId ? { orderId } : {}),
              ...(clientOid ? { clientOid } : {}),
              ...(below ? { idLessThan: below } : {}),
              limit,
            }),
          (views) => views.filter(mine(request, symbol)),
          (view) => view.orderId,
          limit,
          idLessThan,
        );
        const ids = rows.map((view) => view.orderId);
        return { orderList: rows.map(marginOrderRow), maxId: ids[0] ?? '', minId: ids[ids.length - 1] ?? '' };
      }),
      route('GET', `${base}/fills`, 10, false, async (request) => {
        const { query } = request;
        const symbol = symbolOf(query);
        if (optionalString(query, 'startTime') === undefined) reject('PARAM_EMPTY', 'startTime');
        const orderId = optionalString(query, 'orderId');
        const idLessThan = idCursor(query, 'idLessThan');
        const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
        const uid = uidOf(request);
        // A fill belongs to this wallet when its order does (wallet-pages.ts).
        const wallet = walletOf(request, marginType, symbol);
        const limit = pageLimit(query, 100, 500);
        const own = async (fills: FillView[]) => {
          const orderIds = [...new Set(fills.map((fill) => fill.orderId))];
          const orders = await Promise.all(orderIds.map((id) => findOrder(services, uid, { orderId: id })));
          const mineIds = new Set(
            orders.filter((order) => order?.wallet === wallet).map((order) => order?.orderId),
          );
          return fills.filter((fill) => mineIds.has(fill.orderId));
        };
        const fills = await walletPage(
          (below) =>
            services.store.fills({
              uid,
              categories: ['MARGIN'],
              symbol,
              ...window,
              ...(orderId ? { orderId } : {}),
              ...(below ? { idLessThan: below } : {}),
              limit,
            }),
          own,
          (fill) => fill.execId,
          limit,
          idLessThan,
        );
        const rows = fills.map(v2SpotFill);
        const ids = rows.map((row) => String(row.tradeId));
        return { fills: rows, maxId: ids[0] ?? '', minId: ids[ids.length - 1] ?? '' };
      }),
    );
  }
  return routes;
}
