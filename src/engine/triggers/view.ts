/** Formats a plan for reports and events: prices, sizes and ratios as decimal strings. */
import { divide, formatScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import type { Plan, PlanView } from '../../domain/plan.ts';
import { lotsToQuantity, scalesOf } from '../instruments/scales.ts';

/** A money price at the instrument's price precision (prices on the grid print exactly). */
export function priceText(instrument: Instrument, price: bigint): string {
  const places = Math.min(scalesOf(instrument).pricePlaces, MONEY_SCALE);
  return formatScaled(divide(price, 10n ** BigInt(MONEY_SCALE - places), 'down'), places);
}

/** A plan's size as sent: base quantity, or a spot `total` plan's quote amount. */
export function spotSizeText(instrument: Instrument, plan: Pick<Plan, 'sizeLots' | 'spot'>): string {
  if (plan.spot?.sizeUnit !== 'total') return lotsToQuantity(instrument, plan.sizeLots);
  return formatScaled(plan.spot.quoteAmount, MONEY_SCALE);
}

export function planView(instrument: Instrument, plan: Plan): PlanView {
  return {
    planId: plan.planId,
    clientOid: plan.clientOid,
    uid: plan.uid,
    category: plan.category,
    symbol: plan.symbol,
    planType: plan.planType,
    triggerType: plan.triggerType,
    triggerPrice: priceText(instrument, plan.triggerPrice),
    orderType: plan.orderType,
    executePrice: plan.executePrice > 0n ? priceText(instrument, plan.executePrice) : '',
    size: spotSizeText(instrument, plan),
    side: plan.side,
    holdSide: plan.holdSide,
    tradeSide: plan.tradeSide,
    reduceOnly: plan.reduceOnly,
    posMode: plan.posMode,
    marginMode: plan.marginMode,
    marginCoin: plan.marginCoin,
    stpMode: plan.stpMode,
    callbackRatio: plan.trailing?.callbackRatio ?? '',
    activated: plan.trailing?.activated ?? false,
    ...(plan.takeProfit ? { takeProfit: { ...plan.takeProfit } } : {}),
    ...(plan.stopLoss ? { stopLoss: { ...plan.stopLoss } } : {}),
    ...(plan.groupId ? { groupId: plan.groupId } : {}),
    ...(plan.spot ? { spot: { sizeUnit: plan.spot.sizeUnit, timeInForce: plan.spot.timeInForce } } : {}),
    status: plan.status,
    ...(plan.replaced ? { replaced: true } : {}),
    executeOrderId: plan.executeOrderId,
    ...(plan.failCode ? { failCode: plan.failCode, failParams: [...(plan.failParams ?? [])] } : {}),
    createdTimeMs: plan.createdTimeMs,
    updatedTimeMs: plan.updatedTimeMs,
  };
}
