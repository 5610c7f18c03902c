/**
 * Classic (v2) futures plan orders (spec §3, §4; endpoints.md §6): place-plan-order (trigger
 * and trailing stop, with TP/SL presets), cancel-plan-order, modify-plan-order,
 * orders-plan-pending, orders-plan-history, place-tpsl-order, place-pos-tpsl, modify-tpsl-order
 * and plan-sub-order. Live plans are read from the engine (always current), ended ones from
 * the projections. 10 requests per second per UID each.
 */
import type { Category } from '../../domain/category.ts';
import type { ModifyPlanOrder, PlanReference } from '../../domain/commands.ts';
import type { OrderView } from '../../domain/order-view.ts';
import { TPSL_PLAN_TYPES, TRIGGER_TYPES, type PlanType } from '../../domain/plan.ts';
import { positionModeOf } from '../../engine/futures/settings.ts';
import { resolvePlans, type PlanItemResult } from '../../engine/triggers/cancel.ts';
import { findLivePlan } from '../../engine/triggers/plan-state.ts';
import { asObject, optionalDecimal, optionalEnum, optionalString, type Fields } from '../params.ts';
import { caller, reject, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { v2MixOrder } from '../wire/futures.ts';
import { v2PlanHistoryRow, v2PlanRow } from '../wire/plans.ts';
import { submit } from './futures-service.ts';
import { livePlanViews, modifiedPreset } from './plan-service.ts';
import { productTypeOf } from './mix-input.ts';
import { failureText } from './order-input.ts';
import { parsePlacePlan, parsePlacePositionTpsl, parsePlaceTpsl, planTypeFilter } from './plan-input.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { findOrder } from './trading-service.ts';

const MAX_CANCEL_LIST = 50;

type PlanIds = { orderId: string; clientOid: string };

function pendingTypes(text: string | undefined): PlanType[] {
  const value = optionalEnum({ planType: text }, 'planType', [
    'normal_plan',
    'track_plan',
    'profit_loss',
  ] as const);
  if (!value) reject('PARAM_EMPTY', 'planType');
  return value === 'profit_loss' ? [...TPSL_PLAN_TYPES] : [value];
}

function reference(fields: Fields): PlanReference {
  const planId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!planId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  return planId ? { planId } : { clientOid: clientOid ?? '' };
}

export function v2MixPlanRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const now = () => services.clock.now();
  const family = signedRoutes({ dialect: 'v2-mix', accountMode: 'classic', area: 'futures_orders' });
  // Every plan endpoint: 10 per second per UID (the spec's place and cancel limits).
  const route = (method: Route['method'], path: string, write: boolean, handler: Route['handler']): Route =>
    family(method, path, 10, write, handler);
  const place = (uid: string, category: Category, items: ReturnType<typeof parsePlaceTpsl>[]) =>
    submit<PlanIds[]>(services, { type: 'PlacePlanOrders', timeMs: now(), uid, category, items });
  const modify = (command: Omit<ModifyPlanOrder, 'type' | 'timeMs'>) =>
    submit<PlanIds>(services, { type: 'ModifyPlanOrder', timeMs: now(), ...command });

  return [
    route('POST', '/api/v2/mix/order/place-plan-order', true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const uid = uidOf(request);
      const [placed] = await place(uid, category, [
        parsePlacePlan(body, positionModeOf(state(), uid, category)),
      ]);
      return placed;
    }),
    route('POST', '/api/v2/mix/order/place-tpsl-order', true, async (request) => {
      const body = asObject(request.body);
      const [placed] = await place(uidOf(request), productTypeOf(body), [parsePlaceTpsl(body)]);
      return placed;
    }),
    route('POST', '/api/v2/mix/order/place-pos-tpsl', true, async (request) => {
      const body = asObject(request.body);
      const legs = parsePlacePositionTpsl(body);
      const placed = await place(uidOf(request), productTypeOf(body), legs);
      const clientOidOf = (types: PlanType[]) =>
        placed[legs.findIndex((leg) => types.includes(leg.planType))]?.clientOid ?? '';
      const stopSurplusClientOid = clientOidOf(['pos_profit', 'profit_plan']);
      const stopLossClientOid = clientOidOf(['pos_loss', 'loss_plan']);
      return placed.map((ids) => ({ orderId: ids.orderId, stopSurplusClientOid, stopLossClientOid }));
    }),
    route('POST', '/api/v2/mix/order/cancel-plan-order', true, async (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const planTypes = planTypeFilter(optionalString(body, 'planType'), 'normal_plan');
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      const list = body.orderIdList;
      const listed = Array.isArray(list) && list.length > 0;
      if (list !== undefined && list !== null && !Array.isArray(list)) reject('PARAM_ERROR', 'orderIdList');
      if (listed && list.length > MAX_CANCEL_LIST) reject('BATCH_TOO_LARGE', String(MAX_CANCEL_LIST));
      if (listed && !symbol) reject('PARAM_EMPTY', 'symbol');
      const items = listed ? list.map((item) => reference(asObject(item, 'orderIdList'))) : undefined;
      const results = await submit<PlanItemResult[]>(services, {
        type: 'CancelPlanOrders',
        timeMs: now(),
        uid: uidOf(request),
        category,
        planTypes,
        ...(symbol ? { symbol } : {}),
        ...(items ? { items } : {}),
      });
      const successList: PlanIds[] = [];
      const failureList: (PlanIds & { errorMsg: string })[] = [];
      for (const result of results) {
        const ids = { orderId: result.orderId, clientOid: result.clientOid };
        if (!('code' in result)) successList.push(ids);
        else
          failureList.push({
            ...ids,
            errorMsg: result.code.endsWith('NOT_FOUND') ? 'notExistend' : failureText(result, 'v2-mix').msg,
          });
      }
      return { successList, failureList };
    }),
    route('POST', '/api/v2/mix/order/modify-plan-order', true, (request) => {
      const body = asObject(request.body);
      const category = productTypeOf(body);
      const uid = uidOf(request);
      const target = reference(body);
      const planType = optionalString(body, 'planType');
      const types: PlanType[] = planType ? planTypeFilter(planType, planType) : ['normal_plan', 'track_plan'];
      const live = findLivePlan(state().plans, uid, target);
      const newTriggerType = optionalEnum(body, 'newTriggerType', TRIGGER_TYPES);
      const newTriggerPrice = optionalDecimal(body, 'newTriggerPrice');
      if (newTriggerType && newTriggerPrice === undefined) reject('PARAM_EMPTY', 'newTriggerPrice');
      const changes: Omit<ModifyPlanOrder, 'type' | 'timeMs'> = {
        uid,
        category,
        reference: target,
        planTypes: types,
      };
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      if (symbol) changes.symbol = symbol;
      const size = optionalDecimal(body, 'newSize');
      if (size !== undefined) changes.size = size;
      const price = optionalDecimal(body, 'newPrice');
      if (price !== undefined) changes.price = price;
      const callbackRatio = optionalDecimal(body, 'newCallbackRatio');
      if (callbackRatio !== undefined) changes.callbackRatio = callbackRatio;
      if (newTriggerPrice !== undefined) changes.triggerPrice = newTriggerPrice;
      if (newTriggerType) changes.triggerType = newTriggerType;
      const takeProfit = modifiedPreset(body, 'stopSurplus', ['newSurplus'], live?.takeProfit);
      if (takeProfit !== undefined) changes.takeProfit = takeProfit;
      const stopLoss = modifiedPreset(body, 'stopLoss', [], live?.stopLoss);
      if (stopLoss !== undefined) changes.stopLoss = stopLoss;
      return modify(changes);
    }),
    route('POST', '/api/v2/mix/order/modify-tpsl-order', true, (request) => {
      const body = asObject(request.body);
      const changes: Omit<ModifyPlanOrder, 'type' | 'timeMs'> = {
        uid: uidOf(request),
        category: productTypeOf(body),
        reference: reference(body),
        planTypes: [...TPSL_PLAN_TYPES],
      };
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      if (symbol) changes.symbol = symbol;
      const triggerPrice = optionalDecimal(body, 'triggerPrice');
      if (triggerPrice !== undefined) changes.triggerPrice = triggerPrice;
      const triggerType = optionalEnum(body, 'triggerType', TRIGGER_TYPES);
      if (triggerType) changes.triggerType = triggerType;
      const size = optionalDecimal(body, 'size');
      if (size !== undefined) changes.size = size;
      const executePrice = optionalDecimal(body, 'executePrice');
      if (executePrice !== undefined && !/^0*(\.0*)?$/.test(executePrice)) changes.price = executePrice;
      const rangeRate = optionalDecimal(body, 'rangeRate');
      if (rangeRate !== undefined) changes.callbackRatio = rangeRate;
      return modify(changes);
    }),
    route('GET', '/api/v2/mix/order/orders-plan-pending', false, (request) => {
      const { query } = request;
      const category = productTypeOf(query);
      const planTypes = pendingTypes(optionalString(query, 'planType'));
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const orderId = optionalString(query, 'orderId');
      const clientOid = optionalString(query, 'clientOid');
      const idLessThan = idCursor(query, 'idLessThan');
      const startTime = optionalDecimal(query, 'startTime');
      const endTime = optionalDecimal(query, 'endTime');
      const views = livePlanViews(services, uidOf(request), {
        categories: [category],
        planTypes,
        ...(symbol ? { symbol } : {}),
      })
        .filter(
          (view) => (!orderId || view.planId === orderId) && (!clientOid || view.clientOid === clientOid),
        )
        .filter((view) => !idLessThan || view.planId < idLessThan)
        .filter((view) => startTime === undefined || view.createdTimeMs >= Number(startTime))
        .filter((view) => endTime === undefined || view.createdTimeMs <= Number(endTime))
        .slice(0, pageLimit(query, 100, 100));
      return { entrustedList: views.map(v2PlanRow), endId: views.at(-1)?.planId ?? '' };
    }),
    route('GET', '/api/v2/mix/order/orders-plan-history', false, async (request) => {
      const { query } = request;
      const category = productTypeOf(query);
      const planTypes = pendingTypes(optionalString(query, 'planType'));
      const status = optionalEnum(query, 'planStatus', [
        'executed',
        'fail_execute',
        'fail_trigger',
        'cancelled',
      ] as const);
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      const orderId = optionalString(query, 'orderId');
      const clientOid = optionalString(query, 'clientOid');
      const idLessThan = idCursor(query, 'idLessThan');
      const uid = uidOf(request);
      const plans = await services.store.plans({
        uid,
        categories: [category],
        planTypes,
        statuses: status
          ? [status === 'fail_trigger' ? 'fail_execute' : status]
          : ['executed', 'fail_execute', 'cancelled'],
        ...timeWindow(query, now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(symbol ? { symbol } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      const selected = plans.filter(
        (plan) => (!orderId || plan.planId === orderId) && (!clientOid || plan.clientOid === clientOid),
      );
      const orders = await Promise.all(
        selected.map((plan) =>
          plan.executeOrderId
            ? findOrder(services, uid, { orderId: plan.executeOrderId })
            : Promise.resolve(null),
        ),
      );
      return {
        entrustedList: selected.map((plan, index) => v2PlanHistoryRow(plan, orders[index] ?? null)),
        endId: plans.at(-1)?.planId ?? '',
      };
    }),
    route('GET', '/api/v2/mix/order/plan-sub-order', false, async (request) => {
      const { query } = request;
      productTypeOf(query);
      const planOrderId = optionalString(query, 'planOrderId');
      if (!planOrderId) reject('PARAM_EMPTY', 'planOrderId');
      const uid = uidOf(request);
      const live = resolvePlans(state().plans, uid, { planId: planOrderId });
      const plan = live.length > 0 ? null : await services.store.plan(uid, { planId: planOrderId });
      if (live.length === 0 && !plan) reject('PLAN_NOT_FOUND');
      const order: OrderView | null = plan?.executeOrderId
        ? await findOrder(services, uid, { orderId: plan.executeOrderId })
        : null;
      if (!order) return [];
      const row = v2MixOrder(order, 'status');
      return [{ orderId: order.orderId, price: row.price, type: order.orderType, status: row.status }];
    }),
  ];
}
