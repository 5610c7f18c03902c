/**
 * Futures liquidation as the venue runs it (venue-mechanics §3.6). A position is liquidated
 * when its margin ratio reaches 100 %, equity ≤ maintenance MM* = value × (tier MMR + taker
 * fee) at the mark: isolated, margin + uPnL ≤ MM*; crossed, the wallet's cross equity ≤ Σ MM*
 * of its cross positions. Then:
 *  1. the account's open orders on that margin are cancelled (isolated: the position's, i.e.
 *     its symbol's, its side's only in hedge mode; crossed: every futures order of the wallet);
 *  2. the position is reduced tier by tier: a position above tier 1 is brought to the ceiling
 *     of the tier below (liquidation-step.ts: a liquidation order at the bankruptcy price
 *     through the book, the insurance fund and ADL behind it); after each step the ratio is
 *     checked again and the liquidation stops once it is below 100 %, leaving a smaller
 *     position. A tier-1 position is closed whole. Crossed, the largest position goes first.
 *  3. a position closed whole leaves its remaining stake to the fund: isolated, what the
 *     liquidation returned beyond the trader's balance before it (a shortfall is the fund's);
 *     crossed, once no cross position is left, the wallet's balance (and in union mode its
 *     other coins). Bills force_close_long/short (hedge) or burst_buy/sell (one-way) for the
 *     trader, risk_captital_user_transfer for the fund.
 */
import { instrumentKey } from '../../domain/instrument.ts';
import type { Order } from '../../domain/order.ts';
import type { Position } from '../../domain/position.ts';
import { balanceFor, post } from '../accounts/ledger.ts';
import { cancelOpenOrder } from '../trading/cancel.ts';
import { finish, type TradingContext } from '../trading/trading-context.ts';
import { DEFAULT_TIERS, lowerTierCeiling, tierFor } from './tiers.ts';
import { ensureInsuranceFund, INSURANCE_FUND_UID } from './insurance.ts';
import { liquidateLots } from './liquidation-step.ts';
import { crossState, positionRisk, valueAt } from './risk.ts';
import { positionModeOf } from './settings.ts';
import { isUnion, UNION_WALLET } from './union.ts';

/** At most one step per tier and position: the loops end even if a step fills nothing. */
const MAX_STEPS = DEFAULT_TIERS.length + 1;

function billTypeOf(trading: TradingContext, position: Position): string {
  const oneWay = positionModeOf(trading.context.state, position.uid, position.category) === 'one_way_mode';
  if (oneWay) return position.holdSide === 'long' ? 'burst_sell' : 'burst_buy';
  return `force_close_${position.holdSide}`;
}

function live(trading: TradingContext, position: Position): Position | undefined {
  const found = trading.context.state.positions.get(
    `${position.uid}|${position.category}|${position.symbol}|${position.holdSide}`,
  );
  return found === position && position.sizeLots > 0 ? position : undefined;
}

/** Lots to close now: down to the ceiling of the tier below, or all of it in tier 1. */
function stepLots(trading: TradingContext, position: Position, markMoney: bigint): number {
  const instrument = trading.context.state.instruments.get(instrumentKey(position.category, position.symbol));
  if (!instrument) return position.sizeLots;
  const value = valueAt(instrument, position.sizeLots, markMoney);
  const ceiling = lowerTierCeiling(tierFor(value));
  const perLot = valueAt(instrument, 1, markMoney);
  if (ceiling === null || perLot <= 0n) return position.sizeLots;
  const keep = Number(ceiling / perLot);
  return Math.max(1, position.sizeLots - Math.min(keep, position.sizeLots));
}

/** One step on `position` with `equity` behind it; false if it could not be taken. */
function step(trading: TradingContext, position: Position, equity: bigint): boolean {
  const { state } = trading.context;
  const instrument = state.instruments.get(instrumentKey(position.category, position.symbol));
  const risk = positionRisk(state, trading.books, position);
  if (!instrument || !risk) return false;
  const lots = stepLots(trading, position, risk.markMoney);
  liquidateLots(trading, instrument, position, lots, equity, risk.markMoney);
  return true;
}

function cancelOrders(trading: TradingContext, uid: string, match: (order: Order) => boolean): void {
  for (const order of [...trading.context.state.orders.values()]) {
    if (order.uid === uid && order.futures && match(order))
      cancelOpenOrder(trading, order, 'liquidation_cancel');
  }
}

function moveToFund(trading: TradingContext, position: Position, coin: string, amount: bigint): void {
  if (amount === 0n) return;
  const { context } = trading;
  const fund = ensureInsuranceFund(context.state, context.nowMs);
  const where = { wallet: position.wallet, coin, category: position.category, symbol: position.symbol };
  post(context, {
    ...where,
    uid: position.uid,
    amount: -amount,
    businessType: billTypeOf(trading, position),
  });
  post(context, { ...where, uid: fund, amount, businessType: 'risk_captital_user_transfer' });
}

function isolatedBreached(trading: TradingContext, position: Position): { equity: bigint } | null {
  const risk = positionRisk(trading.context.state, trading.books, position);
  if (!risk) return null;
  const equity = position.isolatedMargin + risk.unrealisedPnl;
  return equity <= risk.maintenanceMargin ? { equity } : null;
}

function liquidateIsolated(trading: TradingContext, position: Position): void {
  const { state } = trading.context;
  // That position's orders: its symbol's, and in hedge mode only its side's (one-way, an
  // order of either side changes the one position).
  const hedge = positionModeOf(state, position.uid, position.category) === 'hedge_mode';
  cancelOrders(
    trading,
    position.uid,
    (order) =>
      order.category === position.category &&
      order.symbol === position.symbol &&
      (!hedge || order.futures?.holdSide === position.holdSide),
  );
  const before = balanceFor(state, position.uid, position.wallet, position.marginCoin).available;
  for (let steps = 0; steps < MAX_STEPS && live(trading, position); steps++) {
    const breached = isolatedBreached(trading, position);
    if (!breached || !step(trading, position, breached.equity)) return;
  }
  if (live(trading, position)) return;
  // Closed whole: the trader's other funds neither gain nor lose by it.
  const after = balanceFor(state, position.uid, position.wallet, position.marginCoin).available;
  moveToFund(trading, position, position.marginCoin, after - before);
}

function crossPositions(trading: TradingContext, uid: string, wallet: string, coin: string): Position[] {
  const positions: Position[] = [];
  for (const position of trading.context.state.positions.values()) {
    if (position.uid === uid && position.wallet === wallet && position.marginCoin === coin)
      if (position.marginMode === 'crossed' && position.sizeLots > 0) positions.push(position);
  }
  return positions;
}

function largest(trading: TradingContext, positions: Position[]): Position | undefined {
  let best: Position | undefined;
  let bestMargin = -1n;
  for (const position of positions) {
    const margin = positionRisk(trading.context.state, trading.books, position)?.maintenanceMargin ?? 0n;
    if (margin > bestMargin) [best, bestMargin] = [position, margin];
  }
  return best;
}

function sweepCross(trading: TradingContext, position: Position): void {
  const { context } = trading;
  const { uid, wallet, marginCoin } = position;
  moveToFund(trading, position, marginCoin, balanceFor(context.state, uid, wallet, marginCoin).available);
  // Union mode: the other coins that backed the positions go to the fund as well.
  if (!isUnion(context.state, uid) || wallet !== UNION_WALLET) return;
  const prefix = `${uid}|${wallet}|`;
  for (const [key, collateral] of [...context.state.balances]) {
    const coin = key.slice(prefix.length);
    if (!key.startsWith(prefix) || coin === marginCoin || collateral.available <= 0n) continue;
    moveToFund(trading, position, coin, collateral.available);
  }
}

function liquidateCross(trading: TradingContext, uid: string, wallet: string, coin: string): void {
  const { state } = trading.context;
  const breached = () => {
    const cross = crossState(state, trading.books, uid, wallet, coin);
    return cross.maintenanceMargin > 0n && cross.equity <= cross.maintenanceMargin ? cross : null;
  };
  if (!breached()) return;
  cancelOrders(trading, uid, (order) => order.wallet === wallet);
  let last: Position | undefined;
  const limit = MAX_STEPS * Math.max(1, crossPositions(trading, uid, wallet, coin).length);
  for (let steps = 0; steps < limit; steps++) {
    const cross = breached();
    if (!cross) return;
    const position = largest(trading, crossPositions(trading, uid, wallet, coin));
    if (!position) break;
    last = position;
    if (!step(trading, position, cross.equity)) return;
  }
  if (last && crossPositions(trading, uid, wallet, coin).length === 0) sweepCross(trading, last);
}

/** Checks every position (after mark moves) and liquidates what has reached maintenance. */
export function enforceFuturesRisk(trading: TradingContext): void {
  const { state } = trading.context;
  const crossWallets = new Set<string>();
  for (const position of [...state.positions.values()]) {
    if (position.uid === INSURANCE_FUND_UID) continue;
    if (position.marginMode === 'isolated') {
      if (isolatedBreached(trading, position)) liquidateIsolated(trading, position);
      continue;
    }
    crossWallets.add(`${position.uid}|${position.wallet}|${position.marginCoin}`);
  }
  for (const key of crossWallets) {
    const [uid, wallet, coin] = key.split('|') as [string, string, string];
    liquidateCross(trading, uid, wallet, coin);
  }
  finish(trading);
}
