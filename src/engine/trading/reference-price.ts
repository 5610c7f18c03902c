/**
 * The reference ("market") price of an instrument for price bands, market-order protection
 * and valuation: the index price when one is set (the operator or a feed drives it), else the
 * last trade. Money units per one base coin; null when neither exists yet.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { parseScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import type { EngineState } from '../state.ts';
import { ticksToMoney } from '../instruments/scales.ts';

/** Parsed index prices by their text: the same few prices are read on every order. */
const parsedPrices = new Map<string, bigint | null>();

function parsePrice(text: string): bigint | null {
  let parsed = parsedPrices.get(text);
  if (parsed === undefined) {
    if (parsedPrices.size > 10_000) parsedPrices.clear();
    parsed = parseScaled(text, MONEY_SCALE);
    parsedPrices.set(text, parsed);
  }
  return parsed;
}

export function referencePrice(state: EngineState, instrument: Instrument): bigint | null {
  const key = instrumentKey(instrument.category, instrument.symbol);
  const index = state.indexPrices.get(key);
  if (index) return parsePrice(index);
  const last = state.lastTradeTicks.get(key);
  return last === undefined ? null : ticksToMoney(instrument, last);
}

/** A coin's value in USDT (money units per coin): stablecoins at 1, others by SPOT XUSDT. */
export function usdtPriceOf(state: EngineState, coin: string): bigint | null {
  if (coin === 'USDT' || coin === 'USDC' || coin === 'SUSDT' || coin === 'SUSDC' || coin === 'USD') {
    return 10n ** BigInt(MONEY_SCALE);
  }
  const spot = state.instruments.get(instrumentKey('SPOT', `${coin}USDT`));
  return spot ? referencePrice(state, spot) : null;
}
