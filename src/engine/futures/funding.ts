/**
 * Funding on the engine clock. Each perpetual settles on its grid
 * (every fundInterval hours from 00:00 UTC). The rate is the operator's when set, else
 *   F = clamp(P + clamp(0.01 % − P, −0.05 %, +0.05 %), −0.3 %, +0.3 %) ÷ (8 ÷ interval),
 * with P the premium (mark − index) ÷ index at settlement. Every position pays or receives
 * value at mark × F (longs pay when F > 0): payers are charged rounded up, receivers paid
 * rounded down, and the rounding remainder goes to the insurance fund. Bills:
 * contract_settle_fee. Isolated positions pay from their margin, crossed from the wallet. Every
 * settlement, with or without positions, is a FundingRateSettled event (history-fund-rate).
 */
import { divide, formatScaled, parseScaled } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import type { Position } from '../../domain/position.ts';
import type { SetFundingRate } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import { balanceFor, post } from '../accounts/ledger.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { ensureInsuranceFund } from './insurance.ts';
import { indexPrice, markPrice } from './mark.ts';
import { valueAt } from './risk.ts';

const HOUR_MS = 60 * 60 * 1000;
const BASE_RATE = MONEY_ONE / 10_000n; // 0.01 %
const INNER_CLAMP = MONEY_ONE / 2_000n; // 0.05 %
const OUTER_CLAMP = (MONEY_ONE * 3n) / 1_000n; // 0.3 %

const clamp = (value: bigint, low: bigint, high: bigint) => (value < low ? low : value > high ? high : value);

export function fundingIntervalMs(instrument: Instrument): number | null {
  if (instrument.symbolType !== 'perpetual') return null;
  const hours = Number(instrument.fundInterval || '0');
  return hours > 0 ? hours * HOUR_MS : null;
}

export function nextFundingTime(nowMs: number, intervalMs: number): number {
  return (Math.floor(nowMs / intervalMs) + 1) * intervalMs;
}

/** The rate that would settle now, money-scaled (MONEY_ONE = 100 %). */
export function currentFundingRate(trading: TradingContext, instrument: Instrument): bigint {
  const { state } = trading.context;
  const key = instrumentKey(instrument.category, instrument.symbol);
  const override = state.funding.get(key)?.rateOverride;
  if (override)
    return parseScaled(override.replace(/^-/, ''), MONEY_SCALE)! * (override.startsWith('-') ? -1n : 1n);
  const index = indexPrice(state, instrument);
  const mark = markPrice(state, trading.books, instrument);
  const premium = index && mark ? divide((mark - index) * MONEY_ONE, index, 'down') : 0n;
  const rate = clamp(
    premium + clamp(BASE_RATE - premium, -INNER_CLAMP, INNER_CLAMP),
    -OUTER_CLAMP,
    OUTER_CLAMP,
  );
  const hours = BigInt(Number(instrument.fundInterval || '8'));
  return divide(rate * hours, 8n, 'down');
}

function settlePosition(
  trading: TradingContext,
  instrument: Instrument,
  position: Position,
  rate: bigint,
  markMoney: bigint,
): bigint {
  const { context } = trading;
  const value = valueAt(instrument, position.sizeLots, markMoney);
  const pays = (position.holdSide === 'long') === rate > 0n;
  const magnitude = divide(value * (rate < 0n ? -rate : rate), MONEY_ONE, pays ? 'up' : 'down');
  if (magnitude === 0n) return 0n;
  const amount = pays ? -magnitude : magnitude;
  if (pays && position.marginMode === 'isolated') {
    // Paid out of the position's margin: move it to available first, then charge.
    const balance = balanceFor(context.state, position.uid, position.wallet, position.marginCoin);
    const fromMargin = magnitude < position.isolatedMargin ? magnitude : position.isolatedMargin;
    balance.margin -= fromMargin;
    balance.available += fromMargin;
    position.isolatedMargin -= fromMargin;
  }
  const balance = balanceFor(context.state, position.uid, position.wallet, position.marginCoin);
  const charged = pays && balance.available < magnitude ? -balance.available : amount;
  post(context, {
    uid: position.uid,
    wallet: position.wallet,
    coin: position.marginCoin,
    amount: charged,
    businessType: 'contract_settle_fee',
    category: instrument.category,
    symbol: position.symbol,
  });
  position.fundingTotal += charged;
  return charged;
}

export function settleFundingDue(trading: TradingContext): void {
  const { state, nowMs } = trading.context;
  for (const instrument of state.instruments.values()) {
    const intervalMs = fundingIntervalMs(instrument);
    if (intervalMs === null || instrument.status === 'offline') continue;
    const key = instrumentKey(instrument.category, instrument.symbol);
    let entry = state.funding.get(key);
    if (!entry) {
      entry = { nextFundingTimeMs: nextFundingTime(nowMs, intervalMs), rateOverride: null, lastRate: '0' };
      state.funding.set(key, entry);
    }
    while (entry.nextFundingTimeMs <= nowMs) {
      const rate = currentFundingRate(trading, instrument);
      const mark = markPrice(state, trading.books, instrument);
      let net = 0n;
      if (mark !== null && rate !== 0n) {
        for (const position of [...state.positions.values()]) {
          if (position.category === instrument.category && position.symbol === instrument.symbol) {
            net += settlePosition(trading, instrument, position, rate, mark);
          }
        }
      }
      if (net !== 0n) {
        const coin = instrument.marginCoins[0] ?? instrument.quoteCoin;
        const wallet =
          [...state.positions.values()].find((position) => position.symbol === instrument.symbol)?.wallet ??
          '';
        post(trading.context, {
          uid: ensureInsuranceFund(state, nowMs),
          wallet,
          coin,
          amount: -net,
          businessType: 'contract_settle_fee',
          category: instrument.category,
          symbol: instrument.symbol,
        });
      }
      entry.lastRate = formatScaled(rate, MONEY_SCALE);
      if (trading.context.recording) {
        trading.context.emit({
          type: 'FundingRateSettled',
          category: instrument.category,
          symbol: instrument.symbol,
          fundingRate: entry.lastRate,
          timeMs: entry.nextFundingTimeMs,
        });
      }
      entry.nextFundingTimeMs += intervalMs;
    }
  }
}

export function setFundingRate(
  trading: TradingContext,
  command: SetFundingRate,
): Outcome<{ rate: string | null }> {
  const { state, nowMs } = trading.context;
  const key = instrumentKey(command.category, command.symbol);
  const instrument = state.instruments.get(key);
  if (!instrument) return fail('SYMBOL_NOT_FOUND', command.symbol);
  const intervalMs = fundingIntervalMs(instrument);
  if (intervalMs === null) return fail('PARAM_ERROR', 'symbol');
  if (command.rate !== null && !/^-?\d+(\.\d{1,8})?$/.test(command.rate)) return fail('PARAM_ERROR', 'rate');
  const entry = state.funding.get(key) ?? {
    nextFundingTimeMs: nextFundingTime(nowMs, intervalMs),
    rateOverride: null,
    lastRate: '0',
  };
  entry.rateOverride = command.rate;
  state.funding.set(key, entry);
  return ok({ rate: command.rate });
}
