/**
 * Futures liquidation. A position is liquidated when its equity
 * falls to its maintenance margin MM* = value × (mmr + taker fee) at the mark price:
 * isolated, margin + uPnL ≤ MM*; crossed, the wallet's cross equity ≤ Σ MM* of its cross
 * positions. Then its orders are cancelled (isolated: that symbol's; crossed: the wallet's),
 * and the insurance fund takes the position over at the mark price: the trader's side closes
 * there (bills force_close_* in hedge mode, burst_* in one-way), the fund opens the same side
 * and size, and the trader's remaining margin (isolated margin, or the cross wallet balance)
 * goes to the fund. A negative remainder is the fund's loss.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { Position } from '../../domain/position.ts';
import { balanceFor, post } from '../accounts/ledger.ts';
import { cancelOpenOrder } from '../trading/cancel.ts';
import { finish, type TradingContext } from '../trading/trading-context.ts';
import { ensureInsuranceFund } from './insurance.ts';
import { isUnion, UNION_WALLET } from './union.ts';
import { closeLeg, openLeg, retireIfFlat } from './positions.ts';
import { crossState, positionRisk, valueAt } from './risk.ts';
import { positionModeOf } from './settings.ts';

function billTypeOf(trading: TradingContext, position: Position): string {
  const oneWay = positionModeOf(trading.context.state, position.uid, position.category) === 'one_way_mode';
  if (oneWay) return position.holdSide === 'long' ? 'burst_sell' : 'burst_buy';
  return `force_close_${position.holdSide}`;
}

/** Hands one position to the insurance fund at `markMoney`; returns the trader's realised PnL
 * (already settled for isolated positions; the caller settles it for crossed ones). */
function takeOver(
  trading: TradingContext,
  instrument: Instrument,
  position: Position,
  markMoney: bigint,
): bigint {
  const { context } = trading;
  const fund = ensureInsuranceFund(context.state, context.nowMs);
  const value = valueAt(instrument, position.sizeLots, markMoney);
  const lots = position.sizeLots;
  const { holdSide, wallet, marginCoin } = position;
  const isolated = position.marginMode === 'isolated';
  const margin = position.isolatedMargin;
  const { pnl } = closeLeg(context, position, lots, value);
  // The released isolated margin plus the PnL is what remains of the trader's stake.
  const remainder = isolated ? margin + pnl : pnl;
  if (isolated) {
    // closeLeg returned the margin to available; the trader loses it, the fund gets margin + PnL.
    post(context, {
      uid: position.uid,
      wallet,
      coin: marginCoin,
      amount: -margin,
      businessType: billTypeOf(trading, position),
      category: instrument.category,
      symbol: instrument.symbol,
    });
    post(context, {
      uid: fund,
      wallet,
      coin: marginCoin,
      amount: remainder,
      businessType: 'risk_captital_user_transfer',
      category: instrument.category,
      symbol: instrument.symbol,
    });
  }
  retireIfFlat(context, instrument, position);
  openLeg(context, {
    uid: fund,
    wallet,
    instrument,
    marginCoin,
    holdSide,
    marginMode: 'crossed',
    leverage: 1,
    lots,
    value,
  });
  return isolated ? 0n : pnl;
}

function cancelOrders(
  trading: TradingContext,
  uid: string,
  match: (order: { category: string; symbol: string; wallet: string }) => boolean,
): void {
  for (const order of [...trading.context.state.orders.values()]) {
    if (order.uid === uid && order.futures && match(order))
      cancelOpenOrder(trading, order, 'liquidation_cancel');
  }
}

function liquidateIsolated(trading: TradingContext, position: Position): void {
  const { state } = trading.context;
  const instrument = state.instruments.get(instrumentKey(position.category, position.symbol));
  const risk = positionRisk(state, trading.books, position);
  if (!instrument || !risk) return;
  cancelOrders(
    trading,
    position.uid,
    (order) => order.category === position.category && order.symbol === position.symbol,
  );
  takeOver(trading, instrument, position, risk.markMoney);
}

function liquidateCross(
  trading: TradingContext,
  uid: string,
  wallet: string,
  marginCoin: string,
  positions: Position[],
): void {
  const { context } = trading;
  cancelOrders(trading, uid, (order) => order.wallet === wallet);
  let pnl = 0n;
  for (const position of positions) {
    const instrument = context.state.instruments.get(instrumentKey(position.category, position.symbol));
    const risk = positionRisk(context.state, trading.books, position);
    if (instrument && risk) pnl += takeOver(trading, instrument, position, risk.markMoney);
  }
  // The cross wallet is swept: its balance plus the realised PnL (possibly negative) goes to
  // the fund, one bill each side.
  const balance = balanceFor(context.state, uid, wallet, marginCoin);
  const stake = balance.available;
  const fund = ensureInsuranceFund(context.state, context.nowMs);
  const symbol = positions[0]?.symbol ?? '';
  const type = positions[0] ? billTypeOf(trading, positions[0]) : 'force_close_long';
  const category = positions[0]?.category ?? '';
  post(context, { uid, wallet, coin: marginCoin, amount: -stake, businessType: type, symbol, category });
  // Union mode: the other coins that backed the positions go to the fund as well.
  if (isUnion(context.state, uid) && wallet === UNION_WALLET) {
    const prefix = `${uid}|${wallet}|`;
    for (const [key, collateral] of [...context.state.balances]) {
      const coin = key.slice(prefix.length);
      if (!key.startsWith(prefix) || coin === marginCoin || collateral.available <= 0n) continue;
      const amount = collateral.available;
      post(context, { uid, wallet, coin, amount: -amount, businessType: type, symbol, category });
      post(context, {
        uid: fund,
        wallet,
        coin,
        amount,
        businessType: 'risk_captital_user_transfer',
        symbol,
        category,
      });
    }
  }
  post(context, {
    uid: fund,
    wallet,
    coin: marginCoin,
    amount: stake + pnl,
    businessType: 'risk_captital_user_transfer',
    symbol,
    category,
  });
}

/** Checks every position (after mark moves) and liquidates what has reached maintenance. */
export function enforceFuturesRisk(trading: TradingContext): void {
  const { state } = trading.context;
  const crossWallets = new Map<string, Position[]>();
  for (const position of [...state.positions.values()]) {
    if (position.uid === ensureInsuranceFund(state, trading.context.nowMs)) continue;
    if (position.marginMode === 'isolated') {
      const risk = positionRisk(state, trading.books, position);
      if (risk && position.isolatedMargin + risk.unrealisedPnl <= risk.maintenanceMargin)
        liquidateIsolated(trading, position);
      continue;
    }
    const key = `${position.uid}|${position.wallet}|${position.marginCoin}`;
    crossWallets.set(key, [...(crossWallets.get(key) ?? []), position]);
  }
  for (const [key, positions] of crossWallets) {
    const [uid, wallet, coin] = key.split('|') as [string, string, string];
    const cross = crossState(state, trading.books, uid, wallet, coin);
    if (cross.maintenanceMargin > 0n && cross.equity <= cross.maintenanceMargin)
      liquidateCross(trading, uid, wallet, coin, positions);
  }
  finish(trading);
}
