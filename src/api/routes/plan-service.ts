/**
 * What the plan routes (v2 mix plans, v3 strategy orders) share: live plans read from the
 * engine (always current), strategy groups, and merging a modified TP/SL preset.
 */
import type { Category } from '../../domain/category.ts';
import type { PlanPreset, PlanType, PlanView } from '../../domain/plan.ts';
import { planView } from '../../engine/triggers/view.ts';
import { optionalString, type Fields } from '../params.ts';
import { reject } from '../request.ts';
import type { Services } from '../services.ts';
import { presetOf } from './plan-input.ts';

/** Live plans of an account from the engine, newest first, as PlanViews. */
export function livePlanViews(
  services: Services,
  uid: string,
  filter: { categories: readonly Category[]; planTypes: readonly PlanType[]; symbol?: string },
): PlanView[] {
  const state = services.sequencer.exchange.state;
  const views: PlanView[] = [];
  for (const plan of state.plans.live.values()) {
    if (plan.uid !== uid || !filter.categories.includes(plan.category)) continue;
    if (!filter.planTypes.includes(plan.planType)) continue;
    if (filter.symbol && plan.symbol !== filter.symbol) continue;
    const instrument = state.instruments.get(`${plan.category}:${plan.symbol}`);
    if (instrument) views.push(planView(instrument, plan));
  }
  return views.sort((a, b) => (a.planId < b.planId ? 1 : a.planId > b.planId ? -1 : 0));
}

/** Plans grouped as strategy orders (by group id, else alone), newest group first; replaced legs left out. */
export function strategyGroups(views: readonly PlanView[]): PlanView[][] {
  const groups = new Map<string, PlanView[]>();
  for (const view of views) {
    if (view.replaced) continue;
    const key = view.groupId ?? view.planId;
    groups.set(key, [...(groups.get(key) ?? []), view]);
  }
  const ordered = [...groups.entries()].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
  return ordered.map(([, legs]) => legs.sort((a, b) => (a.planId < b.planId ? -1 : 1)));
}

/** A modified preset: '0' removes it, absent keeps it, else the merged new values. */
export function modifiedPreset(
  body: Fields,
  name: 'stopSurplus' | 'stopLoss',
  aliases: string[],
  current: PlanPreset | undefined,
): PlanPreset | null | undefined {
  const field = (suffix: string) => {
    for (const alias of [
      `new${name[0]?.toUpperCase()}${name.slice(1)}${suffix}`,
      ...aliases.map((a) => a + suffix),
    ]) {
      const value = optionalString(body, alias);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const triggerPrice = field('TriggerPrice');
  const executePrice = field('ExecutePrice');
  const triggerType = field('TriggerType');
  if (triggerPrice === undefined && executePrice === undefined && triggerType === undefined) return undefined;
  if (triggerPrice !== undefined && /^0*(\.0*)?$/.test(triggerPrice)) return null;
  const merged: Fields = {
    [`${name}TriggerPrice`]: triggerPrice ?? current?.triggerPrice,
    [`${name}TriggerType`]: triggerType ?? current?.triggerType ?? (current ? undefined : 'fill_price'),
    [`${name}ExecutePrice`]: executePrice ?? current?.executePrice,
  };
  if (merged[`${name}TriggerPrice`] === undefined) reject('PARAM_EMPTY', `new${name}TriggerPrice`);
  return presetOf(merged, name) ?? null;
}
