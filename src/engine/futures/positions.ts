/**
 * Opening and closing legs of futures fills (linear contracts). Opening adds size and cost
 * basis (isolated: moves value ÷ leverage of margin out of available); closing removes the
 * pro-rata cost basis and realises closeValue − basis (long) or basis − closeValue (short),
 * releasing isolated margin pro rata. A fully closed position leaves a history record.
 */
import { divide } from '../../domain/decimal.ts';
import { isInverse } from '../../domain/category.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { formatMoney } from '../../domain/money.ts';
import {
  directionOf,
  positionKey,
  type HoldSide,
  type MarginMode,
  type Position,
} from '../../domain/position.ts';
import { balanceFor, moveToMargin } from '../accounts/ledger.ts';
import type { Context } from '../context.ts';
import { lotsToQuantity, scalesOf } from '../instruments/scales.ts';
import { positionModeOf } from './settings.ts';

export interface OpenLeg {
  uid: string;
  wallet: string;
  instrument: Instrument;
  marginCoin: string;
  holdSide: HoldSide;
  marginMode: MarginMode;
  leverage: number;
  lots: number;
  value: bigint;
}

export function openLeg(context: Context, leg: OpenLeg): Position {
  const { state } = context;
  const { instrument } = leg;
  const key = positionKey(leg.uid, instrument.category, instrument.symbol, leg.holdSide);
  let position = state.positions.get(key);
  if (!position) {
    position = {
      positionId: context.nextId(),
      uid: leg.uid,
      category: instrument.category,
      symbol: instrument.symbol,
      marginCoin: leg.marginCoin,
      wallet: leg.wallet,
      holdSide: leg.holdSide,
      marginMode: leg.marginMode,
      leverage: leg.leverage,
      sizeLots: 0,
      lockedLots: 0,
      entryValue: 0n,
      isolatedMargin: 0n,
      realisedPnl: 0n,
      openFeeTotal: 0n,
      closeFeeTotal: 0n,
      fundingTotal: 0n,
      openedLotsTotal: 0,
      openedValueTotal: 0n,
      closedLotsTotal: 0,
      closedValueTotal: 0n,
      createdTimeMs: context.nowMs,
      updatedTimeMs: context.nowMs,
    };
    state.positions.set(key, position);
  }
  position.sizeLots += leg.lots;
  position.entryValue += leg.value;
  position.openedLotsTotal += leg.lots;
  position.openedValueTotal += leg.value;
  position.updatedTimeMs = context.nowMs;
  if (position.marginMode === 'isolated') {
    const margin = divide(leg.value, BigInt(position.leverage), 'up');
    const available = balanceFor(state, leg.uid, leg.wallet, leg.marginCoin).available;
    const moved = margin < available ? margin : available;
    if (moved > 0n) moveToMargin(state, leg.uid, leg.wallet, leg.marginCoin, moved);
    position.isolatedMargin += moved;
  }
  return position;
}

export interface ClosedLeg {
  pnl: bigint;
  /** Isolated margin released back to available. */
  releasedMargin: bigint;
}

/** Closes `lots` of `position` at a total value of `value`; the caller posts pnl and fees. */
export function closeLeg(context: Context, position: Position, lots: number, value: bigint): ClosedLeg {
  const share = (amount: bigint) =>
    lots >= position.sizeLots ? amount : divide(amount * BigInt(lots), BigInt(position.sizeLots), 'down');
  const basis = share(position.entryValue);
  const releasedMargin = share(position.isolatedMargin);
  const gain = isInverse(position.category) ? basis - value : value - basis;
  const pnl = directionOf(position.holdSide) * gain;
  position.sizeLots -= lots;
  position.lockedLots = Math.max(0, Math.min(position.lockedLots, position.sizeLots));
  position.entryValue -= basis;
  position.isolatedMargin -= releasedMargin;
  position.realisedPnl += pnl;
  position.closedLotsTotal += lots;
  position.closedValueTotal += value;
  position.updatedTimeMs = context.nowMs;
  if (releasedMargin > 0n)
    moveToMargin(context.state, position.uid, position.wallet, position.marginCoin, -releasedMargin);
  return { pnl, releasedMargin };
}

function averagePrice(instrument: Instrument, value: bigint, lots: number): string {
  if (lots === 0) return '0';
  const scales = scalesOf(instrument);
  return formatMoney(
    divide(value * 10n ** BigInt(scales.quantityPlaces), BigInt(lots) * scales.lotUnits, 'down'),
  );
}

/** Retires a flat position and records its history row. */
export function retireIfFlat(context: Context, instrument: Instrument, position: Position): void {
  if (position.sizeLots > 0) return;
  const { state } = context;
  state.positions.delete(positionKey(position.uid, position.category, position.symbol, position.holdSide));
  const net = position.realisedPnl + position.fundingTotal - position.openFeeTotal - position.closeFeeTotal;
  context.emit({
    type: 'PositionClosed',
    position: {
      positionId: position.positionId,
      uid: position.uid,
      category: position.category,
      symbol: position.symbol,
      marginCoin: position.marginCoin,
      holdSide: position.holdSide,
      posMode: positionModeOf(state, position.uid, position.category),
      marginMode: position.marginMode,
      openAvgPrice: averagePrice(instrument, position.openedValueTotal, position.openedLotsTotal),
      closeAvgPrice: averagePrice(instrument, position.closedValueTotal, position.closedLotsTotal),
      openTotalPos: lotsToQuantity(instrument, position.openedLotsTotal),
      closeTotalPos: lotsToQuantity(instrument, position.closedLotsTotal),
      pnl: formatMoney(position.realisedPnl),
      netProfit: formatMoney(net),
      totalFunding: formatMoney(position.fundingTotal),
      openFee: formatMoney(-position.openFeeTotal),
      closeFee: formatMoney(-position.closeFeeTotal),
      createdTimeMs: position.createdTimeMs,
      updatedTimeMs: context.nowMs,
    },
  });
}
