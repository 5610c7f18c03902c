/**
 * The plan book under random commands (seeded): placements of every kind, cancels, modifies,
 * index moves and trades. After every command: each live plan is in exactly one evaluation
 * list, waiting lists are sorted (trigger price in their direction, then creation), nothing
 * ended is indexed, the counts match, and the ledger is conserved; replaying the same stream
 * gives the same state.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../../src/domain/commands.ts';
import { stateHash } from '../../../src/engine/state-hash.ts';
import { countKeyOf } from '../../../src/engine/triggers/plan-state.ts';
import { Random } from '../../support/random.ts';
import { CATEGORY, TriggerHarness } from './support.ts';

function checkBook(engine: TriggerHarness): void {
  const plans = engine.state.plans;
  const seen = new Map<string, number>();
  for (const [key, entry] of plans.index) {
    for (const [name, list] of Object.entries(entry)) {
      for (const planId of list as string[]) {
        const plan = plans.live.get(planId);
        assert.ok(plan, `${planId} in ${key}.${name} is live`);
        assert.equal(`${plan.category}:${plan.symbol}|${plan.triggerType}`, key);
        assert.equal(name === 'trailing', plan.trailing?.activated === true, `${planId} in ${name}`);
        if (name !== 'trailing') assert.equal(plan.direction, name);
        seen.set(planId, (seen.get(planId) ?? 0) + 1);
      }
    }
    for (const list of [entry.up, entry.down]) {
      const ordered = list.map((planId) => plans.live.get(planId));
      for (let at = 1; at < ordered.length; at += 1) {
        const [a, b] = [ordered[at - 1], ordered[at]];
        if (!a || !b) continue;
        const ascending =
          a.direction === 'up' ? a.triggerPrice <= b.triggerPrice : a.triggerPrice >= b.triggerPrice;
        assert.ok(ascending && (a.triggerPrice !== b.triggerPrice || a.sequence < b.sequence), 'sorted');
      }
    }
  }
  assert.equal(seen.size, plans.live.size);
  for (const count of seen.values()) assert.equal(count, 1);
  const counts = new Map<string, number>();
  for (const plan of plans.live.values())
    counts.set(countKeyOf(plan), (counts.get(countKeyOf(plan)) ?? 0) + 1);
  assert.deepEqual(plans.counts, counts);
  engine.assertConserved();
}

function randomCommand(engine: TriggerHarness, random: Random, traders: string[]): Command {
  const uid = random.pick(traders);
  const price = () => String(random.int(570, 630) * 100);
  const roll = random.int(0, 9);
  const base = { timeMs: engine.nowMs, uid, category: CATEGORY } as const;
  if (roll <= 2) {
    const planType = random.pick([
      'normal_plan',
      'normal_plan',
      'track_plan',
      'pos_profit',
      'pos_loss',
    ] as const);
    const side = random.pick(['buy', 'sell'] as const);
    const tpsl = planType === 'pos_profit' || planType === 'pos_loss';
    return {
      type: 'PlacePlanOrders',
      ...base,
      items: [
        engine.planRequest({
          planType,
          side,
          triggerType: random.pick(['mark_price', 'fill_price'] as const),
          triggerPrice: price(),
          size: '0.01',
          ...(planType === 'track_plan' ? { callbackRatio: String(random.int(1, 5)) } : {}),
          ...(tpsl ? { posSide: random.pick(['long', 'short'] as const) } : {}),
          ...(random.bool(0.3) && !tpsl ? { reduceOnly: true } : {}),
        }),
      ],
    };
  }
  const live = [...engine.state.plans.live.values()].filter((plan) => plan.uid === uid);
  if (roll === 3 && live.length > 0) {
    const plan = random.pick(live);
    return { type: 'CancelPlanOrders', ...base, planTypes: [], items: [{ planId: plan.planId }] };
  }
  if (roll === 4 && live.length > 0) {
    const plan = random.pick(live);
    return {
      type: 'ModifyPlanOrder',
      ...base,
      planTypes: [],
      reference: { planId: plan.planId },
      triggerPrice: price(),
    };
  }
  if (roll <= 6) {
    return {
      type: 'SetIndexPrice',
      timeMs: engine.nowMs,
      category: CATEGORY,
      symbol: 'BTCUSDT',
      indexPrice: price(),
    };
  }
  return {
    type: 'PlaceOrders',
    ...base,
    items: [
      {
        symbol: 'BTCUSDT',
        side: random.pick(['buy', 'sell'] as const),
        orderType: 'limit',
        timeInForce: 'gtc',
        stpMode: 'none',
        price: price(),
        quantity: '0.01',
      },
    ],
  };
}

test('plan book when random commands run keeps its indexes, counts and ledger consistent and replays exactly', () => {
  for (const seed of [1, 2, 3]) {
    const random = new Random(seed);
    const engine = new TriggerHarness();
    const traders = Array.from({ length: 4 }, () => engine.trader('1000000'));
    const replay = new TriggerHarness();
    for (let index = 0; index < 4; index += 1) replay.trader('1000000');
    for (let step = 0; step < 400; step += 1) {
      const command = randomCommand(engine, random, traders);
      engine.run(command);
      replay.run(command);
      checkBook(engine);
    }
    assert.ok(engine.log.some((event) => event.type === 'PlanUpdated' && event.plan.status === 'executed'));
    assert.equal(stateHash(replay.state), stateHash(engine.state), `seed ${seed}`);
  }
});
