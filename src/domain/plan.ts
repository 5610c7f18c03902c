/**
 * Plan orders: trigger orders (`normal_plan`), trailing stops (`track_plan`) and the take-profit
 * and stop-loss family (`profit_plan`, `loss_plan`, `pos_profit`, `pos_loss`, `moving_plan`).
 * A plan holds nothing (no margin, no position lots) while it waits; when its trigger price is
 * touched it places an ordinary order and ends. Status changes go through PLAN_TRANSITIONS:
 *
 *   live ──► executed        (the order it placed was accepted; `executeOrderId` links it)
 *     ├────► fail_execute    (the order it placed was refused; `failCode` says why)
 *     └────► cancelled       (by the owner, or its position closed: TP/SL plans)
 *
 * Prices are money units per base coin (domain/money.ts), on the instrument's price grid.
 */
import type { Category } from './category.ts';
import type { OrderSide, OrderType, StpMode, TimeInForce } from './order.ts';
import type { HoldSide, MarginMode, PositionMode } from './position.ts';
import type { ResultCode } from './result-code.ts';

export const PLAN_TYPES = [
  'normal_plan',
  'track_plan',
  'profit_plan',
  'loss_plan',
  'pos_profit',
  'pos_loss',
  'moving_plan',
] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

/** The take-profit and stop-loss family: they close (part of) an existing position. */
export const TPSL_PLAN_TYPES: readonly PlanType[] = [
  'profit_plan',
  'loss_plan',
  'pos_profit',
  'pos_loss',
  'moving_plan',
];

export const TRIGGER_TYPES = ['fill_price', 'mark_price'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export type PlanStatus = 'live' | 'executed' | 'fail_execute' | 'cancelled';

export const PLAN_TRANSITIONS: Readonly<Record<PlanStatus, readonly PlanStatus[]>> = {
  live: ['executed', 'fail_execute', 'cancelled'],
  executed: [],
  fail_execute: [],
  cancelled: [],
};

/** Callback ratios (percent) and TP/SL percentages are scaled by 10^8 (1 % = 100000000n). */
export const PERCENT_SCALE = 8;

export function isTpslPlan(planType: PlanType): boolean {
  return TPSL_PLAN_TYPES.includes(planType);
}

export function isTrailingPlan(planType: PlanType): boolean {
  return planType === 'track_plan' || planType === 'moving_plan';
}

/**
 * A take-profit or stop-loss preset of a trigger order, as sent. For a normal_plan the trigger
 * is a price; for a track_plan a percentage of the fill price. `executePrice` '' is market.
 */
export interface PlanPreset {
  triggerPrice: string;
  triggerType: TriggerType;
  executePrice: string;
}

/**
 * Spot plans (v2 spot place-plan-order): how `size` was given and the order's time in force.
 * `amount`: base coin (the plan's `sizeLots`); `total`: quote coin (`quoteAmount`), turned
 * into base lots or a market-buy budget at the price when the plan fires.
 */
export interface SpotPlanTerms {
  sizeUnit: 'amount' | 'total';
  /** `total`: the quote amount in money units; 0n for `amount`. */
  quoteAmount: bigint;
  timeInForce: TimeInForce;
}

/** Trailing state: before activation nothing is tracked; then the extreme price seen. */
export interface TrailingState {
  /** Callback ratio as sent (percent, e.g. "2.5"). */
  callbackRatio: string;
  /** The same, scaled by 10^PERCENT_SCALE. */
  ratioScaled: bigint;
  activated: boolean;
  /** Highest (sell) or lowest (buy) price since activation, money units. */
  extremePrice: bigint;
}

export interface Plan {
  planId: string;
  clientOid: string;
  uid: string;
  category: Category;
  symbol: string;
  planType: PlanType;
  triggerType: TriggerType;
  /** Trigger price (trailing: activation price), money units. */
  triggerPrice: bigint;
  /** `up`: touched when the price is at or above the trigger; `down`: at or below. */
  direction: 'up' | 'down';
  orderType: OrderType;
  /** Limit price of the order it places (money units); 0n for a market order. */
  executePrice: bigint;
  /** Lots it places; 0 means the whole position when it fires (pos_profit, pos_loss). */
  sizeLots: number;
  /** The order it places, in engine terms: `side` is the trade direction. */
  side: OrderSide;
  /** The position side it opens or closes (TP/SL: the position it protects). */
  holdSide: HoldSide;
  tradeSide: 'open' | 'close';
  reduceOnly: boolean;
  posMode: PositionMode;
  marginMode: MarginMode;
  marginCoin: string;
  stpMode: StpMode;
  trailing?: TrailingState;
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
  /** TP/SL plans: the position they protect; they end when it closes. */
  positionId?: string;
  /** v3 strategy orders: the plans of one strategy order (its TP and SL legs) share this id. */
  groupId?: string;
  /** Spot plans only (category SPOT): their size unit and time in force. */
  spot?: SpotPlanTerms;
  status: PlanStatus;
  /** Cancelled because its group was modified (v3 modify-strategy-order): not reported as a leg. */
  replaced?: boolean;
  executeOrderId: string;
  /** fail_execute: why the placed order was refused. */
  failCode?: Exclude<ResultCode, 'OK'>;
  failParams?: string[];
  /** Creation order: ties in evaluation go to the older plan. */
  sequence: number;
  createdTimeMs: number;
  updatedTimeMs: number;
}

/** A plan as reported (decimal strings), produced by the engine with the instrument of the moment. */
export interface PlanView {
  planId: string;
  clientOid: string;
  uid: string;
  category: string;
  symbol: string;
  planType: PlanType;
  triggerType: TriggerType;
  triggerPrice: string;
  orderType: OrderType;
  /** '' for a market order. */
  executePrice: string;
  /** Base quantity; '0' for whole-position TP/SL; a spot `total` plan's quote amount. */
  size: string;
  side: OrderSide;
  holdSide: HoldSide;
  tradeSide: 'open' | 'close';
  reduceOnly: boolean;
  posMode: PositionMode;
  marginMode: MarginMode;
  marginCoin: string;
  stpMode: StpMode;
  /** '' unless trailing. */
  callbackRatio: string;
  /** Trailing: 'yes' once activated. */
  activated: boolean;
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
  groupId?: string;
  /** Spot plans: `amount` (size in base coin) or `total` (in quote coin), and the order's force. */
  spot?: { sizeUnit: 'amount' | 'total'; timeInForce: TimeInForce };
  status: PlanStatus;
  replaced?: boolean;
  executeOrderId: string;
  failCode?: string;
  failParams?: string[];
  createdTimeMs: number;
  updatedTimeMs: number;
}

export function transitionPlan(plan: Plan, next: PlanStatus): void {
  if (!PLAN_TRANSITIONS[plan.status].includes(next)) {
    throw new Error(`plan ${plan.planId}: illegal transition ${plan.status} → ${next}`);
  }
  plan.status = next;
}

/** Live plans per account and symbol: trigger orders and TP/SL orders are counted apart. */
export const MAX_TRIGGER_PLANS_PER_SYMBOL = 100;
export const MAX_TPSL_PLANS_PER_SYMBOL = 100;
