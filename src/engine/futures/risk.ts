/**
 * Position risk, linear contracts: value at mark, unrealised PnL,
 * initial margin, maintenance margin including the estimated close fee (MM* = value × (mmr +
 * taker fee)), and a wallet's cross equity and free margin.
 */
import { divide } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { directionOf, positionKey, type Position } from '../../domain/position.ts';
import { readBalance } from '../accounts/ledger.ts';
import { inverseCoinValue, scalesOf } from '../instruments/scales.ts';
import { isInverse } from '../../domain/category.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';
import { feeRate } from '../instruments/fees.ts';
import { markPrice } from './mark.ts';
import { unionCollateral } from './union-collateral.ts';
import { mmrFor } from './tiers.ts';

/** Value of `lots` at `priceMoney` (money per base coin) in the margin coin, money units. */
export function valueAt(instrument: Instrument, lots: number, priceMoney: bigint): bigint {
  if (isInverse(instrument.category)) return inverseCoinValue(instrument, lots, priceMoney);
  const scales = scalesOf(instrument);
  return divide(priceMoney * BigInt(lots) * scales.lotUnits, 10n ** BigInt(scales.quantityPlaces), 'down');
}

/**
 * The value a position's tier is looked up by: its own value (isolated, tiers per direction);
 * crossed, its value plus the other side's cross position in the symbol, as the venue combines
 * the long and short of a symbol for the tier of cross positions.
 */
function tierValueOf(
  state: EngineState,
  instrument: Instrument,
  position: Position,
  markMoney: bigint,
  markValue: bigint,
): bigint {
  if (position.marginMode !== 'crossed') return markValue;
  const otherSide = position.holdSide === 'long' ? 'short' : 'long';
  const other = state.positions.get(positionKey(position.uid, position.category, position.symbol, otherSide));
  if (!other || other.marginMode !== 'crossed') return markValue;
  return markValue + valueAt(instrument, other.sizeLots, markMoney);
}

export interface PositionRisk {
  markMoney: bigint;
  markValue: bigint;
  unrealisedPnl: bigint;
  initialMargin: bigint;
  maintenanceMargin: bigint;
  mmr: bigint;
}

export function positionRisk(state: EngineState, books: Books, position: Position): PositionRisk | null {
  const instrument = state.instruments.get(instrumentKey(position.category, position.symbol));
  if (!instrument) return null;
  const markMoney = markPrice(state, books, instrument);
  if (markMoney === null) return null;
  const markValue = valueAt(instrument, position.sizeLots, markMoney);
  // Linear: value rises with the price; inverse: the coin value of the USD size falls with it.
  const gain = isInverse(position.category)
    ? position.entryValue - markValue
    : markValue - position.entryValue;
  const unrealisedPnl = directionOf(position.holdSide) * gain;
  const mmr = mmrFor(tierValueOf(state, instrument, position, markMoney, markValue));
  return {
    markMoney,
    markValue,
    unrealisedPnl,
    initialMargin: divide(markValue, BigInt(position.leverage), 'up'),
    maintenanceMargin: divide(markValue * (mmr + feeRate(instrument, 'taker')), MONEY_ONE, 'up'),
    mmr,
  };
}

export function walletPositions(
  state: EngineState,
  uid: string,
  wallet: string,
  marginCoin: string,
): Position[] {
  const positions: Position[] = [];
  for (const position of state.positions.values()) {
    if (position.uid === uid && position.wallet === wallet && position.marginCoin === marginCoin)
      positions.push(position);
  }
  return positions;
}

export interface CrossState {
  /** Wallet available + frozen + cross unrealised PnL (isolated margin excluded). */
  equity: bigint;
  unrealisedPnl: bigint;
  initialMargin: bigint;
  maintenanceMargin: bigint;
  /** What new orders and transfers out may use: available − cross IM + min(0, cross uPnL). */
  free: bigint;
}

export function crossState(
  state: EngineState,
  books: Books,
  uid: string,
  wallet: string,
  marginCoin: string,
): CrossState {
  const balance = readBalance(state, uid, wallet, marginCoin);
  let unrealisedPnl = 0n;
  let initialMargin = 0n;
  let maintenanceMargin = 0n;
  for (const position of walletPositions(state, uid, wallet, marginCoin)) {
    if (position.marginMode !== 'crossed') continue;
    const risk = positionRisk(state, books, position);
    if (!risk) continue;
    unrealisedPnl += risk.unrealisedPnl;
    initialMargin += risk.initialMargin;
    maintenanceMargin += risk.maintenanceMargin;
  }
  // Union (multi-asset) mode: other coins in the USDT-M wallet count as margin (union.ts).
  const collateral = marginCoin === 'USDT' ? unionCollateral(state, uid, wallet) : 0n;
  const equity = balance.available + balance.frozen + unrealisedPnl + collateral;
  const free = balance.available - initialMargin + (unrealisedPnl < 0n ? unrealisedPnl : 0n) + collateral;
  return { equity, unrealisedPnl, initialMargin, maintenanceMargin, free };
}
