/**
 * Watching the orders whose first fill a plan's presets wait for (presets.ts): the trading
 * layer calls this for every order a command touched, as it finishes them. It needs only the
 * state, so trading does not depend on the rest of the triggers.
 */
import { parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import { isOpenStatus, type Order } from '../../domain/order.ts';
import { lotsToMoney, scalesOf } from '../instruments/scales.ts';
import type { EngineState } from '../state.ts';
import { averagePrice } from '../trading/order-view.ts';
import type { PendingPresets } from './plan-state.ts';

/**
 * Notes an order's first fill (or its end without one) when a plan's presets wait for it;
 * called for every order a command touched (trading-context.ts `finish`).
 */
export function notePlanOrder(state: EngineState, instrument: Instrument, order: Order): void {
  const plans = state.plans;
  const pending = plans.awaitingFill.get(order.orderId);
  if (!pending || pending.fillPrice !== undefined) return;
  if (pending.category === 'SPOT') noteSpotOrder(state, instrument, order, pending);
  else if (order.filledLots !== 0) {
    pending.fillPrice = parseScaled(averagePrice(instrument, order), MONEY_SCALE) ?? 0n;
    plans.ready.push(order.orderId);
  } else if (order.status === 'cancelled' || order.status === 'filled') {
    plans.awaitingFill.delete(order.orderId);
  }
}

/** The lots a done order's pair closes: a buy's base received net of fees, a sell's base sold. */
function closingLots(instrument: Instrument, order: Order): number {
  if (order.side === 'sell') return order.filledLots;
  const received = lotsToMoney(instrument, order.filledLots) - order.feeTotal;
  const perLot = scalesOf(instrument).moneyPerLot;
  return received > 0n ? Number(received / perLot) : 0;
}

/** Notes a spot order with presets once it is done (notePlanOrder above). */
export function noteSpotOrder(
  state: EngineState,
  instrument: Instrument,
  order: Order,
  pending: PendingPresets,
): void {
  if (isOpenStatus(order.status)) return;
  const lots = closingLots(instrument, order);
  if (lots === 0) {
    state.plans.awaitingFill.delete(order.orderId);
    return;
  }
  pending.sizeLots = lots;
  pending.fillPrice = 0n;
  state.plans.ready.push(order.orderId);
}
