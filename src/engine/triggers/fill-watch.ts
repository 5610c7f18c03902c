/**
 * Watching the orders whose first fill a plan's presets wait for (presets.ts): the trading
 * layer calls this for every order a command touched, as it finishes them. It needs only the
 * state, so trading does not depend on the rest of the triggers.
 */
import { parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import type { EngineState } from '../state.ts';
import { averagePrice } from '../trading/order-view.ts';

/**
 * Notes an order's first fill (or its end without one) when a plan's presets wait for it;
 * called for every order a command touched (trading-context.ts `finish`).
 */
export function notePlanOrder(state: EngineState, instrument: Instrument, order: Order): void {
  const plans = state.plans;
  const pending = plans.awaitingFill.get(order.orderId);
  if (!pending || pending.fillPrice !== undefined) return;
  if (order.filledLots !== 0) {
    pending.fillPrice = parseScaled(averagePrice(instrument, order), MONEY_SCALE) ?? 0n;
    plans.ready.push(order.orderId);
  } else if (order.status === 'cancelled' || order.status === 'filled') {
    plans.awaitingFill.delete(order.orderId);
  }
}
