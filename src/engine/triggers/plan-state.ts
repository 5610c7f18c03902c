/**
 * The plan book: live plans, and the indexes evaluation and lookups use. Plain data (Maps,
 * arrays, strings), so it is part of the snapshot and the state hash like everything else.
 *
 * Invariants:
 * - `live` holds exactly the plans with status `live`; an ended plan is reported (PlanUpdated)
 *   and dropped, its history lives in the projections.
 * - Every live plan is in exactly one list of `index` under `${category}:${symbol}|${triggerType}`:
 *   `up` (waiting for the price to rise to its trigger; ascending trigger price, then
 *   creation), `down` (waiting for a fall; descending trigger price, then creation), or
 *   `trailing` (activated trailing plans, by creation). So evaluation reads only the plans of
 *   the instrument and price source that moved, and within `up`/`down` stops at the first
 *   plan not touched.
 * - `clientOids` maps `${uid}|${clientOid}` of every live plan to its id (unique among live plans).
 * - `byPosition` lists the live TP/SL plans of each position key (they end when it closes).
 * - `counts` holds the number of live plans per account, symbol and family (trigger or TP/SL),
 *   for the per-symbol limits.
 * - `awaitingFill` holds the presets of orders placed by plans until the order first fills
 *   (they then become pos_profit/pos_loss plans), `ready` the orders that just filled.
 */
import { isTpslPlan, type Plan, type PlanPreset } from '../../domain/plan.ts';

export interface PlanIndexEntry {
  up: string[];
  down: string[];
  trailing: string[];
}

export interface PendingPresets {
  uid: string;
  category: Plan['category'];
  symbol: string;
  holdSide: Plan['holdSide'];
  /** The plan type that carried them: normal_plan presets are prices, track_plan percentages. */
  planType: Plan['planType'];
  stpMode: Plan['stpMode'];
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
  /** Set when the order first filled: its average fill price then (money units). */
  fillPrice?: bigint;
  /** Spot orders: set when the order is done, the lots its TP/SL pair closes (spot-presets.ts). */
  sizeLots?: number;
}

export interface PlanState {
  live: Map<string, Plan>;
  index: Map<string, PlanIndexEntry>;
  clientOids: Map<string, string>;
  byPosition: Map<string, string[]>;
  counts: Map<string, number>;
  awaitingFill: Map<string, PendingPresets>;
  /** Order ids in `awaitingFill` that filled during the current command. */
  ready: string[];
  /** Creation counter (evaluation ties go to the lower). */
  nextSequence: number;
}

export function createPlanState(): PlanState {
  return {
    live: new Map(),
    index: new Map(),
    clientOids: new Map(),
    byPosition: new Map(),
    counts: new Map(),
    awaitingFill: new Map(),
    ready: [],
    nextSequence: 1,
  };
}

export function indexKeyOf(plan: Pick<Plan, 'category' | 'symbol' | 'triggerType'>): string {
  return `${plan.category}:${plan.symbol}|${plan.triggerType}`;
}

export function positionKeyOf(plan: Pick<Plan, 'uid' | 'category' | 'symbol' | 'holdSide'>): string {
  return `${plan.uid}|${plan.category}|${plan.symbol}|${plan.holdSide}`;
}

function entryOf(state: PlanState, key: string): PlanIndexEntry {
  let entry = state.index.get(key);
  if (!entry) {
    entry = { up: [], down: [], trailing: [] };
    state.index.set(key, entry);
  }
  return entry;
}

/** Ordering of a waiting list: the plan the price reaches first comes first, then the older. */
function before(a: Plan, b: Plan): boolean {
  if (a.triggerPrice !== b.triggerPrice)
    return a.direction === 'up' ? a.triggerPrice < b.triggerPrice : a.triggerPrice > b.triggerPrice;
  return a.sequence < b.sequence;
}

/** The first position of a sorted waiting list whose plan does not come before `plan`. */
function lowerBound(state: PlanState, list: string[], plan: Plan): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const other = state.live.get(list[middle] ?? '');
    if (other && other !== plan && before(other, plan)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insertSorted(state: PlanState, list: string[], plan: Plan): void {
  list.splice(lowerBound(state, list, plan), 0, plan.planId);
}

function removeFrom(list: string[], planId: string, at = list.indexOf(planId)): void {
  if (list[at] !== planId) at = list.indexOf(planId);
  if (at >= 0) list.splice(at, 1);
}

/** Puts a live plan in its evaluation list (waiting by direction, or activated trailing). */
export function indexPlan(state: PlanState, plan: Plan): void {
  const entry = entryOf(state, indexKeyOf(plan));
  if (plan.trailing?.activated) entry.trailing.push(plan.planId);
  else insertSorted(state, plan.direction === 'up' ? entry.up : entry.down, plan);
}

export function unindexPlan(state: PlanState, plan: Plan): void {
  const key = indexKeyOf(plan);
  const entry = state.index.get(key);
  if (!entry) return;
  // A waiting plan is found by binary search on its (unchanged) trigger and sequence.
  if (plan.trailing?.activated) removeFrom(entry.trailing, plan.planId);
  else {
    const list = plan.direction === 'up' ? entry.up : entry.down;
    removeFrom(list, plan.planId, lowerBound(state, list, plan));
  }
  if (entry.up.length + entry.down.length + entry.trailing.length === 0) state.index.delete(key);
}

/** The `counts` key of a plan: account, symbol and family. */
export function countKeyOf(plan: Pick<Plan, 'uid' | 'category' | 'symbol' | 'planType'>): string {
  return `${plan.uid}|${plan.category}:${plan.symbol}|${isTpslPlan(plan.planType) ? 'tpsl' : 'trigger'}`;
}

function count(state: PlanState, plan: Plan, delta: number): void {
  const key = countKeyOf(plan);
  const next = (state.counts.get(key) ?? 0) + delta;
  if (next > 0) state.counts.set(key, next);
  else state.counts.delete(key);
}

/** Adds a new live plan to every index. */
export function addLivePlan(state: PlanState, plan: Plan): void {
  state.live.set(plan.planId, plan);
  indexPlan(state, plan);
  count(state, plan, 1);
  if (plan.clientOid) state.clientOids.set(`${plan.uid}|${plan.clientOid}`, plan.planId);
  if (isPositionBound(plan)) {
    const key = positionKeyOf(plan);
    state.byPosition.set(key, [...(state.byPosition.get(key) ?? []), plan.planId]);
  }
}

/** Takes an ended plan out of every index. */
export function removeLivePlan(state: PlanState, plan: Plan): void {
  state.live.delete(plan.planId);
  unindexPlan(state, plan);
  count(state, plan, -1);
  if (state.clientOids.get(`${plan.uid}|${plan.clientOid}`) === plan.planId)
    state.clientOids.delete(`${plan.uid}|${plan.clientOid}`);
  const key = positionKeyOf(plan);
  const bound = state.byPosition.get(key);
  if (bound) {
    removeFrom(bound, plan.planId);
    if (bound.length === 0) state.byPosition.delete(key);
  }
}

/** TP/SL plans belong to their position: they end when it closes. */
export function isPositionBound(plan: Pick<Plan, 'planType'>): boolean {
  return plan.planType !== 'normal_plan' && plan.planType !== 'track_plan';
}

/** A live plan by id or clientOid (id wins), of this account. */
export function findLivePlan(
  state: PlanState,
  uid: string,
  reference: { planId?: string; clientOid?: string },
): Plan | undefined {
  const planId = reference.planId ?? state.clientOids.get(`${uid}|${reference.clientOid ?? ''}`);
  const plan = planId ? state.live.get(planId) : undefined;
  return plan && plan.uid === uid ? plan : undefined;
}

/** The live whole-position TP and SL of a position (pos_profit, pos_loss), for position reports. */
export function positionExits(state: PlanState, key: string): { takeProfit?: Plan; stopLoss?: Plan } {
  const exits: { takeProfit?: Plan; stopLoss?: Plan } = {};
  for (const planId of state.byPosition.get(key) ?? []) {
    const plan = state.live.get(planId);
    if (plan?.planType === 'pos_profit') exits.takeProfit = plan;
    if (plan?.planType === 'pos_loss') exits.stopLoss = plan;
  }
  return exits;
}
