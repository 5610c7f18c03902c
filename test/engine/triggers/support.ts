/**
 * Builders for trigger tests on BTCUSDT USDT-M (tick 0.1, lot 0.0001, taker 0.06 %, maker
 * 0.02 %, leverage 20, crossed): funded futures accounts, index moves, plan placement, and a
 * position opened against a counterparty. Everything goes through production commands.
 */
import assert from 'node:assert/strict';
import type { OrderRequest, PlanRequest } from '../../../src/domain/commands.ts';
import type { EngineEvent } from '../../../src/domain/events.ts';
import type { Plan, PlanView } from '../../../src/domain/plan.ts';
import { EngineHarness } from '../../support/engine-builders.ts';

export const WALLET = 'usdt_futures';
export const CATEGORY = 'USDT-FUTURES';

export class TriggerHarness extends EngineHarness {
  private events?: EngineEvent[];

  /** Every event of every command since construction, in order. */
  get log(): EngineEvent[] {
    return (this.events ??= []);
  }

  override run(command: Parameters<EngineHarness['run']>[0]) {
    const result = super.run(command);
    this.log.push(...result.events);
    return result;
  }

  override ok<T = unknown>(command: Parameters<EngineHarness['run']>[0]): T {
    const { outcome } = this.run(command);
    assert.ok(
      outcome.ok,
      outcome.ok ? '' : `${command.type} failed: ${outcome.code} ${outcome.params?.join(' ') ?? ''}`,
    );
    return outcome.value as T;
  }

  trader(usdt = '100000'): string {
    return this.account({ USDT: usdt }, WALLET);
  }

  setIndex(indexPrice: string, symbol = 'BTCUSDT'): void {
    this.ok({ type: 'SetIndexPrice', timeMs: this.nowMs, category: CATEGORY, symbol, indexPrice });
  }

  order(uid: string, item: Partial<OrderRequest> & { quantity: string }) {
    const [result] = this.place(uid, CATEGORY, item);
    assert.ok(result && !result.code, JSON.stringify(result));
    return result;
  }

  /** `uid` opens `side` of `size` at `price` against a fresh counterparty (one-way mode). */
  open(uid: string, side: 'long' | 'short', size: string, price: string): void {
    const counterparty = this.trader();
    this.order(counterparty, { side: side === 'long' ? 'sell' : 'buy', price, quantity: size });
    this.order(uid, { side: side === 'long' ? 'buy' : 'sell', price, quantity: size });
  }

  /** A resting limit order of a fresh liquidity account. */
  rest(side: 'buy' | 'sell', price: string, size: string): string {
    const maker = this.trader('1000000');
    this.order(maker, { side, price, quantity: size });
    return maker;
  }

  planRequest(item: Partial<PlanRequest>): PlanRequest {
    return {
      planType: 'normal_plan',
      symbol: 'BTCUSDT',
      triggerType: 'mark_price',
      triggerPrice: '59000',
      orderType: 'market',
      size: '0.1',
      side: 'sell',
      stpMode: 'none',
      ...item,
    };
  }

  placePlan(uid: string, item: Partial<PlanRequest>) {
    return this.run({
      type: 'PlacePlanOrders',
      timeMs: this.nowMs,
      uid,
      category: CATEGORY,
      items: [this.planRequest(item)],
    });
  }

  plan(uid: string, item: Partial<PlanRequest>): string {
    const { outcome } = this.placePlan(uid, item);
    assert.ok(outcome.ok, outcome.ok ? '' : `${outcome.code} ${outcome.params?.join(' ') ?? ''}`);
    const [ids] = outcome.value as { orderId: string }[];
    assert.ok(ids);
    return ids.orderId;
  }

  live(planId: string): Plan | undefined {
    return this.state.plans.live.get(planId);
  }

  /** The latest report of a plan. */
  report(planId: string): PlanView | undefined {
    const updates = this.log.filter(
      (event): event is Extract<EngineEvent, { type: 'PlanUpdated' }> =>
        event.type === 'PlanUpdated' && event.plan.planId === planId,
    );
    return updates.at(-1)?.plan;
  }

  /** Plan ids in the order they ended as executed. */
  executedOrder(): string[] {
    return this.log.flatMap((event) =>
      event.type === 'PlanUpdated' && event.plan.status === 'executed' ? [event.plan.planId] : [],
    );
  }

  lastOrder(orderId: string) {
    const updates = this.log.filter(
      (event): event is Extract<EngineEvent, { type: 'OrderUpdated' }> =>
        event.type === 'OrderUpdated' && event.order.orderId === orderId,
    );
    return updates.at(-1)?.order;
  }

  position(uid: string, side: 'long' | 'short') {
    return this.state.positions.get(`${uid}|${CATEGORY}|BTCUSDT|${side}`);
  }
}
