/**
 * Evaluation: which plans fire, and in what order. Runs after every command (the exchange
 * calls it after the handler, and after SetIndexPrice before the risk checks), so it sees
 * every change of the mark price (index moves, the book's premium) and of the last price.
 *
 * One pass:
 *  1. tidy the book: presets of orders that filled become position TP/SL plans; TP/SL plans
 *     whose position has closed are cancelled;
 *  2. for each instrument with plans, in instrument-key order, and each price source
 *     (`mark_price`, `fill_price`) that has a price: activated trailing plans follow the
 *     extreme (highest for a sell, lowest for a buy); waiting plans whose trigger is touched
 *     (up: price ≥ trigger; down: price ≤ trigger) are collected, except trailing plans,
 *     which activate instead (their extreme starts at the price); activated trailing plans
 *     whose price retraced the callback ratio from the extreme are collected (sell: price ≤
 *     extreme × (1 − r); buy: price ≥ extreme × (1 + r); exact integer comparison);
 *  3. the instrument's collected plans fire in order of how far the price has gone past their
 *     trigger (or trailing stop), farthest first — the order in which the move crossed them —
 *     ties by creation sequence (older first). Each is checked again against the price at its
 *     turn (orders fired before it may have moved the price back) and fires only if still
 *     touched.
 * Orders placed by fired plans can move the last and mark prices and touch further plans:
 * another pass runs, up to MAX_TRIGGER_PASSES per command. Each pass fires at least one plan
 * or ends evaluation, so a loop cannot run away; plans still touched when the bound is hit
 * stay live and are evaluated again after the next command.
 *
 * Known limits: the last price is read once per pass (the last trade of the command so far),
 * so a trailing extreme does not see intermediate fills of one sweep.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { PERCENT_SCALE, TRIGGER_TYPES, type Plan } from '../../domain/plan.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { firePlan } from './fire.ts';
import { endPlan, reportPlan } from './lifecycle.ts';
import type { PlanIndexEntry } from './plan-state.ts';
import { attachReadyPresets } from './presets.ts';
import { currentPrice } from './prices.ts';

export const MAX_TRIGGER_PASSES = 8;

const HUNDRED = 100n * 10n ** BigInt(PERCENT_SCALE);

/** How far past its trigger (or trailing stop) the price is, money units; null: not touched. */
export function overshootOf(plan: Plan, price: bigint): bigint | null {
  const trailing = plan.trailing;
  if (trailing?.activated) {
    const extreme = trailing.extremePrice;
    const sell = plan.side === 'sell';
    const stopTimesHundred =
      extreme * (sell ? HUNDRED - trailing.ratioScaled : HUNDRED + trailing.ratioScaled);
    const past = sell ? stopTimesHundred - price * HUNDRED : price * HUNDRED - stopTimesHundred;
    return past >= 0n ? past / HUNDRED : null;
  }
  const past = plan.direction === 'up' ? price - plan.triggerPrice : plan.triggerPrice - price;
  return past >= 0n ? past : null;
}

function follow(plan: Plan, price: bigint): void {
  const trailing = plan.trailing;
  if (!trailing) return;
  const higher = price > trailing.extremePrice;
  if (plan.side === 'sell' ? higher : price < trailing.extremePrice) trailing.extremePrice = price;
}

interface Candidate {
  plan: Plan;
  overshoot: bigint;
}

function collect(trading: TradingContext, entry: PlanIndexEntry, price: bigint, found: Candidate[]): void {
  const plans = trading.context.state.plans;
  // Activated trailing plans first: follow the extreme, then check the retrace.
  for (const planId of entry.trailing) {
    const plan = plans.live.get(planId);
    if (!plan) continue;
    follow(plan, price);
    const overshoot = overshootOf(plan, price);
    if (overshoot !== null) found.push({ plan, overshoot });
  }
  for (const list of [entry.up, entry.down]) {
    // Touched plans are a prefix of the list; trailing ones leave it, activated (their extreme
    // starts at the price, so they cannot retrace in this pass).
    let prefix = 0;
    const staying: string[] = [];
    for (const planId of list) {
      const plan = plans.live.get(planId);
      const overshoot = plan ? overshootOf(plan, price) : null;
      if (!plan || overshoot === null) break;
      prefix += 1;
      if (plan.trailing) {
        plan.trailing.activated = true;
        plan.trailing.extremePrice = price;
        entry.trailing.push(plan.planId);
        reportPlan(trading.context, plan);
      } else {
        staying.push(planId);
        found.push({ plan, overshoot });
      }
    }
    if (staying.length < prefix) list.splice(0, prefix, ...staying);
  }
}

function fireInstrument(trading: TradingContext, instrument: Instrument, key: string): boolean {
  const { state } = trading.context;
  const found: Candidate[] = [];
  for (const triggerType of TRIGGER_TYPES) {
    const entry = state.plans.index.get(`${key}|${triggerType}`);
    const price = entry ? currentPrice(state, trading.books, instrument, triggerType) : null;
    if (entry && price !== null) collect(trading, entry, price, found);
  }
  found.sort((a, b) =>
    a.overshoot !== b.overshoot ? (a.overshoot > b.overshoot ? -1 : 1) : a.plan.sequence - b.plan.sequence,
  );
  let fired = false;
  for (const { plan } of found) {
    if (plan.status !== 'live') continue;
    const price = currentPrice(state, trading.books, instrument, plan.triggerType);
    if (price === null || overshootOf(plan, price) === null) continue;
    firePlan(trading, plan);
    fired = true;
  }
  return fired;
}

/** Cancels TP/SL plans whose position has closed (or was closed and opened again). */
function retireOrphans(trading: TradingContext): void {
  const { context } = trading;
  const { plans, positions } = context.state;
  // Runs after every command: with no TP/SL plan there is nothing to copy and walk.
  if (plans.byPosition.size === 0) return;
  for (const [key, planIds] of [...plans.byPosition]) {
    const position = positions.get(key);
    for (const planId of [...planIds]) {
      const plan = plans.live.get(planId);
      if (plan && plan.positionId !== position?.positionId) endPlan(context, plan, 'cancelled');
    }
  }
}

function firePass(trading: TradingContext): boolean {
  const { state } = trading.context;
  if (state.plans.index.size === 0) return false;
  const keys = new Set<string>();
  for (const indexKey of state.plans.index.keys()) keys.add(indexKey.slice(0, indexKey.lastIndexOf('|')));
  let fired = false;
  for (const key of [...keys].sort()) {
    const instrument = state.instruments.get(key);
    if (instrument && instrumentKey(instrument.category, instrument.symbol) === key)
      fired = fireInstrument(trading, instrument, key) || fired;
  }
  return fired;
}

export function evaluatePlans(trading: TradingContext): void {
  for (let pass = 0; pass < MAX_TRIGGER_PASSES; pass += 1) {
    attachReadyPresets(trading);
    retireOrphans(trading);
    if (!firePass(trading)) return;
  }
  attachReadyPresets(trading);
  retireOrphans(trading);
}
