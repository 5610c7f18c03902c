/**
 * Unified (v3) strategy orders (endpoints.md §11) over the same plan engine as v2:
 * place-strategy-order, modify-strategy-order, cancel-strategy-order, unfilled-strategy-orders
 * and history-strategy-orders.
 *
 * `type: tpsl` (default): a TP leg and/or an SL leg protecting the position `posSide`; `full`
 * mode (default) makes whole-position pos_profit/pos_loss plans, `partial` profit_plan/
 * loss_plan of `qty`. The legs form one group: one orderId (the group's), cancelled together,
 * and when one fires the other is cancelled. `type: trigger` (bitget-api's extension): a
 * trigger order (normal_plan) with v3 semantics (side = trade direction, posSide in hedge mode,
 * reduceOnly in one-way mode) and optional TP/SL presets. `tpTriggerBy`/`slTriggerBy`/
 * `triggerBy`: `market` = last price (default), `mark` = mark price.
 */
import type { ModifyPlanOrder, PlanReference, PlanRequest } from '../../domain/commands.ts';
import { isTpslPlan } from '../../domain/plan.ts';
import { HOLD_SIDES } from '../../domain/position.ts';
import { positionModeOf } from '../../engine/futures/settings.ts';
import { resolvePlans, type PlanItemResult } from '../../engine/triggers/cancel.ts';
import { planView } from '../../engine/triggers/view.ts';
import {
  asObject,
  optionalDecimal,
  optionalEnum,
  optionalString,
  requiredDecimal,
  requiredEnum,
  requiredString,
} from '../params.ts';
import { caller, reject, Rejected, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutesByMethod } from './route-kit.ts';
import { v3StrategyRow } from '../wire/plans.ts';
import { submit } from './futures-service.ts';
import { planClientOid } from './plan-input.ts';
import { livePlanViews, strategyGroups } from './plan-service.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import {
  futuresCategory,
  legOf,
  legOfPreset,
  legOfView,
  listedCategory,
  presetOfLeg,
  reference,
  tpslLegs,
  TRIGGER_PLANS,
  triggerByOf,
  triggerRequest,
  typesOf,
} from './strategy-input.ts';

type PlanIds = { orderId: string; clientOid: string };

export function v3StrategyRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const now = () => services.clock.now();
  const route = signedRoutesByMethod({ dialect: 'v3', accountMode: 'unified', area: 'futures_orders' });
  /** The live legs of a strategy order, with their views. */
  const legsOf = (uid: string, target: PlanReference) => {
    const legs = resolvePlans(state().plans, uid, target);
    if (legs.length === 0) reject('PLAN_NOT_FOUND');
    return legs.flatMap((leg) => {
      const instrument = state().instruments.get(`${leg.category}:${leg.symbol}`);
      return instrument ? [{ plan: leg, view: planView(instrument, leg) }] : [];
    });
  };

  return [
    route('POST', '/api/v3/trade/place-strategy-order', 10, async (request) => {
      const body = asObject(request.body);
      const category = futuresCategory(body);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const uid = uidOf(request);
      const clientOid = planClientOid(body);
      const type = optionalEnum(body, 'type', ['tpsl', 'trigger'] as const) ?? 'tpsl';
      let items: PlanRequest[];
      if (type === 'trigger') {
        items = [triggerRequest(body, symbol, positionModeOf(state(), uid, category) === 'hedge_mode')];
        if (clientOid) items.forEach((item) => (item.clientOid = clientOid));
      } else {
        const mode = optionalEnum(body, 'tpslMode', ['full', 'partial'] as const) ?? 'full';
        const holdSide = requiredEnum(body, 'posSide', HOLD_SIDES);
        const qty = mode === 'partial' ? requiredDecimal(body, 'qty') : undefined;
        items = tpslLegs(body, { symbol, holdSide, qty, ...(clientOid ? { clientOid } : {}) });
      }
      const [placed] = await submit<PlanIds[]>(services, {
        type: 'PlacePlanOrders',
        timeMs: now(),
        uid,
        category,
        items,
        grouped: type === 'tpsl',
      });
      return placed;
    }),
    route('POST', '/api/v3/trade/modify-strategy-order', 10, (request) => {
      const body = asObject(request.body);
      const uid = uidOf(request);
      const target = reference(body);
      const legs = legsOf(uid, target);
      const [first] = legs;
      if (!first) reject('PLAN_NOT_FOUND');
      const { plan, view } = first;
      const qty = optionalDecimal(body, 'qty');
      if (!isTpslPlan(plan.planType)) {
        const changes: Omit<ModifyPlanOrder, 'type' | 'timeMs'> = {
          uid,
          category: plan.category,
          reference: { planId: plan.planId },
          planTypes: TRIGGER_PLANS,
        };
        if (qty !== undefined) changes.size = qty;
        const triggerPrice = optionalDecimal(body, 'triggerPrice');
        if (triggerPrice !== undefined) changes.triggerPrice = triggerPrice;
        if (optionalString(body, 'triggerBy')) changes.triggerType = triggerByOf(body, 'triggerBy');
        const price = optionalDecimal(body, 'triggerOrderPrice');
        if (price !== undefined) changes.price = price;
        const current = { tp: legOfPreset(plan.takeProfit), sl: legOfPreset(plan.stopLoss) };
        const takeProfit = legOf(body, 'tp', current.tp);
        const stopLoss = legOf(body, 'sl', current.sl);
        if (takeProfit !== current.tp) changes.takeProfit = presetOfLeg(takeProfit) ?? null;
        if (stopLoss !== current.sl) changes.stopLoss = presetOfLeg(stopLoss) ?? null;
        return submit<PlanIds>(services, { type: 'ModifyPlanOrder', timeMs: now(), ...changes });
      }
      // A spot order's TP/SL pair (engine/triggers/spot-presets.ts) is cancelled, not modified.
      if (plan.category === 'SPOT')
        reject('FIELD_UNSERVED', 'orderId', 'a spot TP/SL pair is not modified; cancel it');
      const views = legs.map((leg) => leg.view);
      const partial = plan.planType === 'profit_plan' || plan.planType === 'loss_plan';
      const items = tpslLegs(
        body,
        { symbol: plan.symbol, holdSide: plan.holdSide, qty: partial ? (qty ?? view.size) : undefined },
        {
          tp: legOfView(views.find((leg) => leg.planType === 'pos_profit' || leg.planType === 'profit_plan')),
          sl: legOfView(views.find((leg) => leg.planType === 'pos_loss' || leg.planType === 'loss_plan')),
        },
      );
      return submit<PlanIds>(services, {
        type: 'ReplacePlanGroup',
        timeMs: now(),
        uid,
        category: plan.category,
        reference: target,
        items,
      });
    }),
    route('POST', '/api/v3/trade/cancel-strategy-order', 10, async (request) => {
      const body = asObject(request.body);
      const uid = uidOf(request);
      const target = reference(body);
      const [first] = legsOf(uid, target);
      if (!first) reject('PLAN_NOT_FOUND');
      const [result] = await submit<PlanItemResult[]>(services, {
        type: 'CancelPlanOrders',
        timeMs: now(),
        uid,
        category: first.plan.category,
        planTypes: [],
        items: [target],
      });
      if (result && 'code' in result) throw new Rejected(result);
      return null;
    }),
    route('GET', '/api/v3/trade/unfilled-strategy-orders', 20, (request) => {
      const { query } = request;
      const category = listedCategory(query);
      const views = livePlanViews(services, uidOf(request), {
        categories: [category],
        planTypes: typesOf(query),
      });
      return strategyGroups(views).map(v3StrategyRow);
    }),
    route('GET', '/api/v3/trade/history-strategy-orders', 20, async (request) => {
      const { query } = request;
      const category = listedCategory(query);
      const limit = pageLimit(query, 100, 100);
      const cursor = idCursor(query, 'cursor');
      const uid = uidOf(request);
      const rows = await services.store.plans({
        uid,
        categories: [category],
        planTypes: typesOf(query),
        statuses: ['executed', 'fail_execute', 'cancelled'],
        ...timeWindow(query, now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(cursor ? { idLessThan: cursor } : {}),
        limit: limit * 3 + 2,
      });
      // A group with a live leg (a leg replaced by a modification) is not history yet.
      const live = state().plans.live;
      const liveGroups = new Set([...live.values()].flatMap((plan) => (plan.groupId ? [plan.groupId] : [])));
      const groups = strategyGroups(rows)
        .filter((legs) => !legs.some((leg) => live.has(leg.planId) || liveGroups.has(leg.groupId ?? '')))
        .slice(0, limit);
      const last = groups.at(-1)?.[0];
      return { list: groups.map(v3StrategyRow), cursor: last?.planId ?? '' };
    }),
  ];
}
