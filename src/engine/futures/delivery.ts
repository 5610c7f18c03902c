/**
 * Delivery: at deliveryTime every open position of a delivery contract
 * is closed at the index price with the taker fee (bills delivery_long / delivery_short), its
 * open orders are cancelled, and the instrument goes offline.
 */
import { divide } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { cancelOpenOrder } from '../trading/cancel.ts';
import { feeRate } from '../instruments/fees.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { indexPrice } from './mark.ts';
import { closeLeg, retireIfFlat } from './positions.ts';
import { valueAt } from './risk.ts';
import { postCovered } from './settle.ts';

function deliver(trading: TradingContext, instrument: Instrument, priceMoney: bigint): void {
  const { context } = trading;
  const { state } = context;
  for (const order of [...state.orders.values()]) {
    if (order.category === instrument.category && order.symbol === instrument.symbol)
      cancelOpenOrder(trading, order, 'normal_cancel');
  }
  for (const position of [...state.positions.values()]) {
    if (position.category !== instrument.category || position.symbol !== instrument.symbol) continue;
    const value = valueAt(instrument, position.sizeLots, priceMoney);
    const { pnl } = closeLeg(context, position, position.sizeLots, value);
    const fee = divide(value * feeRate(instrument, 'taker'), MONEY_ONE, 'up');
    position.closeFeeTotal += fee;
    postCovered(context, {
      uid: position.uid,
      wallet: position.wallet,
      coin: position.marginCoin,
      amount: pnl - fee,
      businessType: `delivery_${position.holdSide}`,
      category: instrument.category,
      symbol: instrument.symbol,
      fee,
    });
    if (fee > 0n)
      state.feesCollected.set(
        position.marginCoin,
        (state.feesCollected.get(position.marginCoin) ?? 0n) + fee,
      );
    retireIfFlat(context, instrument, position);
  }
  const offline: Instrument = { ...instrument, status: 'offline' };
  state.instruments.set(`${instrument.category}:${instrument.symbol}`, offline);
  context.emit({ type: 'InstrumentChanged', instrument: { ...offline }, timeMs: context.nowMs });
}

export function settleDeliveriesDue(trading: TradingContext): void {
  const { state, nowMs } = trading.context;
  // Runs before every command: the due ones are collected first (delivering replaces the
  // instrument record), so the common case copies nothing.
  let due: Instrument[] | undefined;
  for (const instrument of state.instruments.values()) {
    if (instrument.symbolType !== 'delivery' || instrument.status === 'offline') continue;
    const deliveryTimeMs = Number(instrument.deliveryTime || '0');
    if (deliveryTimeMs <= 0 || deliveryTimeMs > nowMs) continue;
    (due ??= []).push(instrument);
  }
  if (!due) return;
  for (const instrument of due) {
    const price = indexPrice(state, instrument);
    if (price !== null) deliver(trading, instrument, price);
  }
}
