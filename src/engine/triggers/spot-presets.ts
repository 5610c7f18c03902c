/**
 * TP/SL presets of spot orders (v2 spot `presetTakeProfitPrice` / `presetStopLossPrice`, v3
 * SPOT `takeProfit` / `stopLoss`; docs/triggers.md, "Spot TP/SL presets"). They are checked
 * when the order is placed and kept on it (its detail shows them). When the order is done —
 * filled, or cancelled after part of it filled — they become a spot TP/SL pair: two spot plans
 * (profit_plan, loss_plan) that close what the order traded: a buy's pair sells the base coin
 * it received net of fees, a sell's pair buys back the base coin it sold. The two are one
 * group: when one fires the other is cancelled (OCO). An order done without a fill leaves
 * nothing.
 *
 * Why at the end and not at the first fill: the pair is sized on what the order received,
 * which is only known once it stops filling (a resting order may fill in many steps).
 *
 * Rules: prices on the symbol's grid; a buy's TP above and SL below the price it trades at (its
 * limit price, else the current price of the trigger source), a sell's the other way round
 * (PRESET_PRICE_INVALID otherwise). The pair's plans hold nothing while they wait, like every
 * spot plan; their order is checked when they fire (a balance spent meanwhile: fail_execute).
 */
import type { OrderRequest } from '../../domain/commands.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { parseMoney } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import type { ValidOrder } from '../trading/validate.ts';
import { checkOrderPresets, type OrderPresets } from './order-presets.ts';
import { createPlan, openPlan } from './place.ts';
import type { PendingPresets } from './plan-state.ts';
import { exitDirection } from './validate.ts';

const SIDE_CODES = new Set<string>([
  'PRESET_PRICE_INVALID',
  'TAKE_PROFIT_LONG_PRICE_INVALID',
  'TAKE_PROFIT_SHORT_PRICE_INVALID',
  'STOP_LOSS_LONG_PRICE_INVALID',
  'STOP_LOSS_SHORT_PRICE_INVALID',
]);

/** The presets of a spot order, checked against its side and price. */
export function checkSpotPresets(
  trading: TradingContext,
  valid: ValidOrder,
  request: Pick<OrderRequest, 'side' | 'orderType' | 'takeProfit' | 'stopLoss'>,
): Outcome<OrderPresets> {
  const intent = { holdSide: request.side === 'buy' ? 'long' : 'short', tradeSide: 'open' } as const;
  const presets: OrderPresets = {};
  for (const key of ['takeProfit', 'stopLoss'] as const) {
    const preset = request[key];
    if (!preset) continue;
    const checked = checkOrderPresets(
      trading,
      valid,
      { orderType: request.orderType, [key]: preset },
      intent,
    );
    if (!checked.ok) {
      // The futures codes speak of long and short positions; spot has one code for a wrong side.
      return SIDE_CODES.has(checked.code) ? fail('PRESET_PRICE_INVALID', key) : checked;
    }
    presets[key] = checked.value[key];
  }
  return ok(presets);
}

/** Keeps the presets on a new spot order and makes them wait for the order to be done. */
export function awaitSpotPresets(trading: TradingContext, order: Order, presets: OrderPresets): void {
  if (!presets.takeProfit && !presets.stopLoss) return;
  order.spotPresets = { ...presets };
  trading.context.state.plans.awaitingFill.set(order.orderId, {
    uid: order.uid,
    category: order.category,
    symbol: order.symbol,
    holdSide: order.side === 'buy' ? 'long' : 'short',
    planType: 'normal_plan',
    stpMode: order.stpMode,
    ...presets,
  });
}

/** Places the pair of a done spot order (presets.ts attachReadyPresets). */
export function attachSpotPresets(context: Context, pending: PendingPresets): void {
  const instrument = context.state.instruments.get(instrumentKey(pending.category, pending.symbol));
  if (!instrument || !pending.sizeLots) return;
  let groupId: string | undefined;
  const paired = Boolean(pending.takeProfit && pending.stopLoss);
  for (const [preset, planType, kind] of [
    [pending.takeProfit, 'profit_plan', 'take_profit'],
    [pending.stopLoss, 'loss_plan', 'stop_loss'],
  ] as const) {
    if (!preset) continue;
    const executePrice = preset.executePrice ? (parseMoney(preset.executePrice) ?? 0n) : 0n;
    const plan = createPlan(context, {
      clientOid: '',
      uid: pending.uid,
      category: pending.category,
      symbol: pending.symbol,
      planType,
      triggerType: preset.triggerType,
      triggerPrice: parseMoney(preset.triggerPrice) ?? 0n,
      direction: exitDirection(kind, pending.holdSide),
      orderType: executePrice > 0n ? 'limit' : 'market',
      executePrice,
      sizeLots: pending.sizeLots,
      side: pending.holdSide === 'long' ? 'sell' : 'buy',
      // Futures fields, fixed for spot as on every spot plan (spot.ts).
      holdSide: pending.holdSide,
      tradeSide: 'close',
      reduceOnly: false,
      posMode: 'one_way_mode',
      marginMode: 'crossed',
      marginCoin: instrument.quoteCoin,
      stpMode: pending.stpMode,
      spot: { sizeUnit: 'amount', quoteAmount: 0n, timeInForce: 'gtc' },
    });
    if (paired) plan.groupId = groupId ??= plan.planId;
    openPlan(context, plan);
  }
}
