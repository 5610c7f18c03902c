/**
 * Margin risk control. After index moves and on the clock, every margin wallet with debt
 * (crossed, unified, isolated) is valued; at the liquidationRiskRatio (1.0) it is liquidated:
 *
 *   1. its open margin orders are cancelled;
 *   2. each coin's own balance repays that coin's debt, interest first, then principal;
 *   3. while the risk ratio is above SAFE_RISK_RATIO (0.5, the venue's "sell assets to repay
 *      until the ratio ≤ 0.5"), one step at a time through the MARGIN books (orders marked
 *      `liquidation`, immediate-or-cancel): first a borrowed base coin is bought back with
 *      the wallet's quote coin (a short), else a base coin the wallet holds is sold (a long);
 *      each step trades only the USDT value that brings the ratio to the safe level (below),
 *      and its proceeds repay at once (step 2 again);
 *   4. it stops when the ratio is safe, when a step fills nothing (the book is too thin: what
 *      is still owed stays debt, and the wallet is checked again at the next index move or
 *      clock advance), or after MAX_ROUNDS steps.
 *
 * Trading a USDT value x at the index with taker fee rate f and repaying with the proceeds
 * takes x from the assets and x·(1 − f) from the debt, so with maintenance rate m, safe ratio
 * s, debt L and equity E = assets − L, the ratio L'·m ÷ E' reaches s when
 *   x = (L·m − s·E) ÷ ((1 − f)·m − s·f), rounded up to whole lots of the coin traded.
 * A buy-back never takes more than the coin's debt (grossed up for the fee it pays in that
 * coin); a sale never more than the wallet holds. Whatever is not needed is left in place.
 *
 * A liquidation that changed something is recorded (MarginLiquidated, with the values before
 * it); one that could do nothing is not recorded again on every check.
 */
import type { Instrument } from '../../domain/instrument.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import { readBalance } from '../accounts/ledger.ts';
import { feeRate } from '../instruments/fees.ts';
import { lotsToMoney } from '../instruments/scales.ts';
import { cancelOpenOrder } from '../trading/cancel.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';
import { finish, type TradingContext } from '../trading/trading-context.ts';
import { buyBase, sellBase } from './liquidation-orders.ts';
import { isolatedSymbolOf } from './margin-wallet.ts';
import { owedOf, repayCoin } from './repay.ts';
import { maintenanceRate } from './tiers.ts';
import { riskRatio, walletValue, type WalletValue } from './valuation.ts';

/** A liquidation stops once the risk ratio is at or under this (money units of 1): 0.5. */
export const SAFE_RISK_RATIO = MONEY_ONE / 2n;

/** Most buy-back or sale steps of one liquidation (each recomputes what is still needed). */
export const MAX_ROUNDS = 8;

function liquidationThreshold(trading: TradingContext, symbol: string | null): bigint {
  for (const instrument of trading.context.state.instruments.values()) {
    if (symbol !== null && instrument.symbol !== symbol) continue;
    if (instrument.category === 'MARGIN' && instrument.liquidationRiskRatio) {
      return parseScaled(instrument.liquidationRiskRatio, MONEY_SCALE) ?? MONEY_ONE;
    }
  }
  return MONEY_ONE;
}

function walletsWithDebt(trading: TradingContext): string[] {
  const wallets = new Set<string>();
  for (const [key, balance] of trading.context.state.balances) {
    if (balance.borrowed + balance.interest > 0n) wallets.add(key.slice(0, key.lastIndexOf('|')));
  }
  return [...wallets].sort();
}

interface Liquidation {
  trading: TradingContext;
  uid: string;
  wallet: string;
  /** The MARGIN instruments it may trade: an isolated wallet's own, else every one. */
  instruments: Instrument[];
  maintenance: bigint;
}

/** True when debt × m ≤ s × equity (exact: the ratio is at or under the safe level). */
export function isSafe(value: WalletValue, maintenance: bigint): boolean {
  const equity = value.assetsUsdt - value.liabilitiesUsdt;
  if (value.liabilitiesUsdt === 0n) return true;
  return equity > 0n && value.liabilitiesUsdt * maintenance <= SAFE_RISK_RATIO * equity;
}

/** The USDT value x (money units) to trade for the ratio to reach the safe level (header). */
export function valueToTrade(value: WalletValue, maintenance: bigint, fee: bigint): bigint {
  const equity = value.assetsUsdt - value.liabilitiesUsdt;
  const excess = value.liabilitiesUsdt * maintenance - SAFE_RISK_RATIO * equity;
  const perUnit = (MONEY_ONE - fee) * maintenance - SAFE_RISK_RATIO * fee;
  if (excess <= 0n) return 0n;
  if (perUnit <= 0n) return value.assetsUsdt;
  return divide(excess * MONEY_ONE, perUnit, 'up');
}

/** Whole lots of `instrument`'s base coin worth at least `usdt` at the coin's index. */
function lotsWorth(liquidation: Liquidation, instrument: Instrument, usdt: bigint): number {
  const price = usdtPriceOf(liquidation.trading.context.state, instrument.baseCoin);
  if (!price) return 0;
  const coin = divide(usdt * MONEY_ONE, price, 'up');
  return Number(divide(coin, lotsToMoney(instrument, 1), 'up'));
}

/** Lots to buy so that, less the taker fee charged in the coin, `owed` is received. */
function lotsCovering(instrument: Instrument, owed: bigint): number {
  const fee = feeRate(instrument, 'taker');
  const lotMoney = lotsToMoney(instrument, 1);
  let lots = Number(divide(divide(owed * MONEY_ONE, MONEY_ONE - fee, 'up'), lotMoney, 'up'));
  const gross = lotMoney * BigInt(lots);
  if (gross - divide(gross * fee, MONEY_ONE, 'up') < owed) lots += 1;
  return lots;
}

/** Every coin of the wallet pays its own debt from its balance (interest first). */
function repayAll(liquidation: Liquidation): boolean {
  const { trading, uid, wallet } = liquidation;
  const prefix = `${uid}|${wallet}|`;
  let repaid = false;
  for (const key of [...trading.context.state.balances.keys()]) {
    if (!key.startsWith(prefix)) continue;
    const coin = key.slice(prefix.length);
    if (repayCoin(trading.context, uid, wallet, coin, undefined, 'liquidation_repay')) repaid = true;
  }
  return repaid;
}

type Round = 'safe' | 'traded' | 'stuck';

/** One step: a buy-back of a borrowed base coin, else a sale of a held one (header, 3). */
function liquidationRound(liquidation: Liquidation): Round {
  const { trading, uid, wallet, instruments, maintenance } = liquidation;
  const { state } = trading.context;
  const value = walletValue(state, uid, wallet);
  if (isSafe(value, maintenance)) return 'safe';
  for (const instrument of instruments) {
    const coin = instrument.baseCoin;
    const left = owedOf(state, uid, wallet, coin) - readBalance(state, uid, wallet, coin).available;
    if (left <= 0n) continue;
    const need = valueToTrade(value, maintenance, feeRate(instrument, 'taker'));
    const lots = Math.min(lotsWorth(liquidation, instrument, need), lotsCovering(instrument, left));
    if (buyBase(trading, uid, wallet, instrument, lots).filled) return 'traded';
  }
  // A sale into a book whose quote coin is owed first: its proceeds repay at once.
  const owesQuote = (instrument: Instrument) => owedOf(state, uid, wallet, instrument.quoteCoin) > 0n;
  const sales = [...instruments.filter(owesQuote), ...instruments.filter((one) => !owesQuote(one))];
  for (const instrument of sales) {
    const coin = instrument.baseCoin;
    if (owedOf(state, uid, wallet, coin) > 0n || usdtPriceOf(state, coin) === null) continue;
    const need = valueToTrade(value, maintenance, feeRate(instrument, 'taker'));
    if (sellBase(trading, uid, wallet, instrument, lotsWorth(liquidation, instrument, need)).filled)
      return 'traded';
  }
  return 'stuck';
}

export function liquidateWallet(trading: TradingContext, uid: string, wallet: string, ratio: bigint): void {
  const { context } = trading;
  const { state } = context;
  const before = walletValue(state, uid, wallet);
  let changed = false;
  for (const order of [...state.orders.values()]) {
    if (order.uid === uid && order.wallet === wallet && order.category === 'MARGIN') {
      cancelOpenOrder(trading, order, 'liquidation_cancel');
      changed = true;
    }
  }
  const symbol = isolatedSymbolOf(wallet);
  const instruments = [...state.instruments.values()]
    .filter(
      (instrument) => instrument.category === 'MARGIN' && (symbol === null || instrument.symbol === symbol),
    )
    .sort((one, other) => (one.symbol < other.symbol ? -1 : one.symbol > other.symbol ? 1 : 0));
  const liquidation: Liquidation = {
    trading,
    uid,
    wallet,
    instruments,
    maintenance: maintenanceRate(symbol !== null),
  };
  if (repayAll(liquidation)) changed = true;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if (liquidationRound(liquidation) !== 'traded') break;
    changed = true;
    repayAll(liquidation);
  }
  finish(trading);
  if (!changed) return;
  const liqId = context.nextId();
  if (!context.recording) return;
  context.emit({
    type: 'MarginLiquidated',
    liqId,
    uid,
    wallet,
    symbol: symbol ?? '',
    riskRatio: ratio,
    totalAssetsUsdt: before.assetsUsdt,
    totalDebtUsdt: before.liabilitiesUsdt,
    feeUsdt: 0n,
    startMs: context.nowMs,
    endMs: context.nowMs,
  });
}

/**
 * Every wallet with debt, crossed (or unified) and isolated alike, each against its own
 * threshold and maintenance rate: an isolated wallet's liquidation touches nothing else.
 */
export function enforceMarginRisk(trading: TradingContext): void {
  for (const walletKey of walletsWithDebt(trading)) {
    const [uid, wallet] = walletKey.split('|') as [string, string];
    const symbol = isolatedSymbolOf(wallet);
    if (wallet !== 'crossed_margin' && wallet !== 'unified' && symbol === null) continue;
    const value = walletValue(trading.context.state, uid, wallet);
    const ratio = riskRatio(value, maintenanceRate(symbol !== null));
    if (ratio !== null && ratio >= liquidationThreshold(trading, symbol))
      liquidateWallet(trading, uid, wallet, ratio);
  }
}
