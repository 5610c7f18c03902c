/**
 * Positions and futures wallets as reported (v2 single-position/all-position, v3
 * current-position, v2 accounts): every figure computed from the live state at the mark price.
 * Liquidation price, linear: LP = (X − d·E·S) ÷ (S·(m + f − d)), X the
 * isolated margin (isolated) or the cross equity less this position's uPnL and the other
 * positions' maintenance (crossed); "0" when there is none.
 */
import { divide } from '../../domain/decimal.ts';
import { isInverse } from '../../domain/category.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { formatMoney, MONEY_ONE } from '../../domain/money.ts';
import { directionOf, type Position } from '../../domain/position.ts';
import { lotsToMoney, lotsToQuantity } from '../instruments/scales.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';
import { feeRate } from '../instruments/fees.ts';
import { crossState, positionRisk } from './risk.ts';

export interface PositionReport {
  position: Position;
  total: string;
  available: string;
  locked: string;
  openPriceAvg: string;
  markPrice: string;
  unrealisedPnl: string;
  marginSize: string;
  liquidationPrice: string;
  keepMarginRate: string;
  marginRatio: string;
  breakEvenPrice: string;
  achievedProfits: string;
  totalFunding: string;
  deductedFee: string;
  openDelegateSize: string;
  leverage: string;
}

const ratioText = (value: bigint) => formatMoney(value);

export function positionReport(state: EngineState, books: Books, position: Position): PositionReport | null {
  const instrument = state.instruments.get(instrumentKey(position.category, position.symbol));
  const risk = positionRisk(state, books, position);
  if (!instrument || !risk) return null;
  const sizeBase = lotsToMoney(instrument, position.sizeLots);
  const d = directionOf(position.holdSide);
  const taker = feeRate(instrument, 'taker');
  const margin = position.marginMode === 'isolated' ? position.isolatedMargin : risk.initialMargin;
  let stake = position.isolatedMargin;
  let ratio =
    position.isolatedMargin + risk.unrealisedPnl > 0n
      ? divide(risk.maintenanceMargin * MONEY_ONE, position.isolatedMargin + risk.unrealisedPnl, 'up')
      : MONEY_ONE;
  if (position.marginMode === 'crossed') {
    const cross = crossState(state, books, position.uid, position.wallet, position.marginCoin);
    stake = cross.equity - risk.unrealisedPnl - (cross.maintenanceMargin - risk.maintenanceMargin);
    ratio = cross.equity > 0n ? divide(cross.maintenanceMargin * MONEY_ONE, cross.equity, 'up') : MONEY_ONE;
  }
  const inverse = isInverse(position.category);
  let liquidation: bigint;
  let entryPrice: bigint;
  let breakEven: bigint;
  if (inverse) {
    // Size is USD (sizeBase holds USD money here); entryValue is coin. Solving
    // X + d·(basis − Q/P) = (Q/P)(m + f) for P gives P = Q·(m + f + d) ÷ (X + d·basis).
    const below = stake + d * position.entryValue;
    liquidation = below > 0n ? divide(sizeBase * (risk.mmr + taker + d * MONEY_ONE), below, 'down') : 0n;
    entryPrice = position.entryValue > 0n ? divide(sizeBase * MONEY_ONE, position.entryValue, 'down') : 0n;
    breakEven = entryPrice;
  } else {
    const numerator = stake - d * position.entryValue;
    const denominator = sizeBase * (risk.mmr + taker - d * MONEY_ONE);
    liquidation = denominator !== 0n ? divide(numerator * MONEY_ONE * MONEY_ONE, denominator, 'down') : 0n;
    entryPrice = sizeBase > 0n ? divide(position.entryValue * MONEY_ONE, sizeBase, 'down') : 0n;
    const costs = position.openFeeTotal - position.fundingTotal;
    const scaled = (position.entryValue + d * costs) * MONEY_ONE * MONEY_ONE;
    breakEven = sizeBase > 0n ? divide(scaled, sizeBase * (MONEY_ONE - d * taker), 'down') : 0n;
  }
  let pendingOpen = 0;
  for (const order of state.orders.values()) {
    if (
      order.uid === position.uid &&
      order.symbol === position.symbol &&
      order.futures?.tradeSide === 'open' &&
      order.futures.holdSide === position.holdSide
    ) {
      pendingOpen += order.quantityLots - order.filledLots;
    }
  }
  return {
    position,
    total: lotsToQuantity(instrument, position.sizeLots),
    available: lotsToQuantity(instrument, position.sizeLots - position.lockedLots),
    locked: lotsToQuantity(instrument, position.lockedLots),
    openPriceAvg: formatMoney(entryPrice),
    markPrice: formatMoney(risk.markMoney),
    unrealisedPnl: formatMoney(risk.unrealisedPnl),
    marginSize: formatMoney(margin),
    liquidationPrice: liquidation > 0n ? formatMoney(liquidation) : '0',
    keepMarginRate: ratioText(risk.mmr),
    marginRatio: ratioText(ratio),
    breakEvenPrice: formatMoney(breakEven),
    achievedProfits: formatMoney(position.realisedPnl),
    totalFunding: formatMoney(position.fundingTotal),
    deductedFee: formatMoney(position.openFeeTotal + position.closeFeeTotal),
    openDelegateSize: lotsToQuantity(instrument, pendingOpen),
    leverage: String(position.leverage),
  };
}

export interface WalletReport {
  marginCoin: string;
  available: string;
  locked: string;
  crossedMaxAvailable: string;
  isolatedMaxAvailable: string;
  maxTransferOut: string;
  accountEquity: string;
  crossedRiskRate: string;
  unrealizedPL: string;
  crossedUnrealizedPL: string;
  isolatedUnrealizedPL: string;
}

export function walletReport(
  state: EngineState,
  books: Books,
  uid: string,
  wallet: string,
  marginCoin: string,
): WalletReport {
  const balance = state.balances.get(`${uid}|${wallet}|${marginCoin}`);
  const available = balance?.available ?? 0n;
  const frozen = balance?.frozen ?? 0n;
  const cross = crossState(state, books, uid, wallet, marginCoin);
  let isolatedPnl = 0n;
  let isolatedMargin = 0n;
  for (const position of state.positions.values()) {
    if (position.uid !== uid || position.wallet !== wallet || position.marginCoin !== marginCoin) continue;
    if (position.marginMode !== 'isolated') continue;
    isolatedMargin += position.isolatedMargin;
    isolatedPnl += positionRisk(state, books, position)?.unrealisedPnl ?? 0n;
  }
  const free = cross.free > 0n ? cross.free : 0n;
  return {
    marginCoin,
    available: formatMoney(available),
    locked: formatMoney(frozen),
    crossedMaxAvailable: formatMoney(free),
    isolatedMaxAvailable: formatMoney(free),
    maxTransferOut: formatMoney(free),
    accountEquity: formatMoney(available + frozen + isolatedMargin + cross.unrealisedPnl + isolatedPnl),
    crossedRiskRate:
      cross.equity > 0n ? formatMoney(divide(cross.maintenanceMargin * MONEY_ONE, cross.equity, 'up')) : '0',
    unrealizedPL: formatMoney(cross.unrealisedPnl + isolatedPnl),
    crossedUnrealizedPL: formatMoney(cross.unrealisedPnl),
    isolatedUnrealizedPL: formatMoney(isolatedPnl),
  };
}
