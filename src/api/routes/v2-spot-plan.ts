/**
 * Classic (v2) spot plan orders (docs/triggers.md, "Spot plans"): place-plan-order,
 * modify-plan-order, cancel-plan-order, batch-cancel-plan-order, current-plan-order,
 * history-plan-order and plan-sub-order, on the same plan engine as futures plans. Live plans
 * are read from the engine (always current), ended ones from the projections. 20 requests per
 * second per UID each (batch-cancel 5); the spot trade permission.
 */
import type { PlanType, PlanView } from '../../domain/plan.ts';
import type { PlanItemResult } from '../../engine/triggers/cancel.ts';
import { asObject, optionalString, optionalStringList, type Fields } from '../params.ts';
import { caller, reject, Rejected, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { v2SpotPlanRow, v2SpotPlanSubOrders } from '../wire/spot-plans.ts';
import { submit } from './futures-service.ts';
import { livePlanViews } from './plan-service.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';
import { parseSpotModify, parseSpotPlan, spotPlanReference } from './spot-plan-input.ts';
import { findOrder } from './trading-service.ts';

type PlanIds = { orderId: string; clientOid: string };

const MAX_SYMBOL_LIST = 100;

/** Trigger plans, and the TP/SL pairs of spot orders with presets (engine/triggers/spot-presets.ts). */
const SPOT_PLAN_TYPES: PlanType[] = ['normal_plan', 'profit_plan', 'loss_plan'];

/** A page of rows, newest first: `nextFlag` says whether older rows follow. */
function page(views: PlanView[], limit: number) {
  const rows = views.slice(0, limit);
  return {
    nextFlag: views.length > limit,
    idLessThan: rows.at(-1)?.planId ?? '',
    orderList: rows.map(v2SpotPlanRow),
  };
}

function symbolOf(fields: Fields): string | undefined {
  return optionalString(fields, 'symbol')?.toUpperCase();
}

export function v2SpotPlanRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic', area: 'spot' });
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const now = () => services.clock.now();
  const cancelPlans = (uid: string, fields: { symbols?: string[]; items?: { planId?: string }[] }) =>
    submit<PlanItemResult[]>(services, {
      type: 'CancelPlanOrders',
      timeMs: now(),
      uid,
      category: 'SPOT',
      planTypes: SPOT_PLAN_TYPES,
      ...fields,
    });

  return [
    route('POST', '/api/v2/spot/trade/place-plan-order', 20, true, async (request) => {
      const item = parseSpotPlan(asObject(request.body));
      const placed = await submit<PlanIds[]>(services, {
        type: 'PlacePlanOrders',
        timeMs: now(),
        uid: uidOf(request),
        category: 'SPOT',
        items: [item],
      });
      return placed[0];
    }),
    route('POST', '/api/v2/spot/trade/modify-plan-order', 20, true, (request) =>
      submit<PlanIds>(services, {
        type: 'ModifyPlanOrder',
        timeMs: now(),
        uid: uidOf(request),
        ...parseSpotModify(asObject(request.body)),
      }),
    ),
    route('POST', '/api/v2/spot/trade/cancel-plan-order', 20, true, async (request) => {
      const reference = spotPlanReference(asObject(request.body));
      const [result] = await cancelPlans(uidOf(request), { items: [reference] });
      if (!result || 'code' in result) throw new Rejected({ code: 'PLAN_NOT_FOUND' });
      return { result: 'success' };
    }),
    route('POST', '/api/v2/spot/trade/batch-cancel-plan-order', 5, true, async (request) => {
      const body = request.body === undefined || request.body === null ? {} : asObject(request.body);
      const list = optionalStringList(body, 'symbolList', MAX_SYMBOL_LIST);
      const symbols = list && list.length > 0 ? list.map((symbol) => symbol.toUpperCase()) : undefined;
      const results = await cancelPlans(uidOf(request), symbols ? { symbols } : {});
      return {
        successList: results.map((result) => ({ orderId: result.orderId, clientOid: result.clientOid })),
        failureList: [],
      };
    }),
    route('GET', '/api/v2/spot/trade/current-plan-order', 20, false, (request) => {
      const { query } = request;
      const symbol = symbolOf(query);
      const idLessThan = idCursor(query, 'idLessThan');
      const window = timeWindow(query, now(), 90 * DAY_MS, 90 * DAY_MS);
      const views = livePlanViews(services, uidOf(request), {
        categories: ['SPOT'],
        planTypes: SPOT_PLAN_TYPES,
        ...(symbol ? { symbol } : {}),
      }).filter(
        (view) =>
          (!idLessThan || view.planId < idLessThan) &&
          view.createdTimeMs >= window.startTimeMs &&
          view.createdTimeMs <= window.endTimeMs,
      );
      return page(views, pageLimit(query, 20, 100));
    }),
    route('GET', '/api/v2/spot/trade/history-plan-order', 20, false, async (request) => {
      const { query } = request;
      const symbol = symbolOf(query);
      const idLessThan = idCursor(query, 'idLessThan');
      const limit = pageLimit(query, 100, 100);
      const views = await services.store.plans({
        uid: uidOf(request),
        categories: ['SPOT'],
        planTypes: SPOT_PLAN_TYPES,
        statuses: ['executed', 'fail_execute', 'cancelled'],
        ...timeWindow(query, now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: limit + 1,
      });
      return page(views, limit);
    }),
    route('GET', '/api/v2/spot/trade/plan-sub-order', 20, false, async (request) => {
      const planOrderId = optionalString(request.query, 'planOrderId');
      if (!planOrderId) reject('PARAM_EMPTY', 'planOrderId');
      const uid = uidOf(request);
      const plan = await services.store.plan(uid, { planId: planOrderId });
      if (!plan || plan.category !== 'SPOT') reject('PLAN_NOT_FOUND');
      const order = plan.executeOrderId
        ? await findOrder(services, uid, { orderId: plan.executeOrderId })
        : null;
      return v2SpotPlanSubOrders(plan, order);
    }),
  ];
}
