/**
 * An instrument's maker and taker fee rates, money-scaled. Below trading and futures both
 * (spot and futures settlement, futures risk and reserves read them), so neither has to import
 * the other for a rate.
 */
import { parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';

/** Fee rates parsed once per instrument record (records are replaced, never mutated). */
const feeRates = new WeakMap<Instrument, { maker: bigint; taker: bigint }>();

/** The instrument asked last and its rates (each fill asks twice: maker and taker). */
let lastInstrument: Instrument | undefined;
let lastRates: { maker: bigint; taker: bigint } | undefined;

export function feeRate(instrument: Instrument, role: 'maker' | 'taker'): bigint {
  if (instrument === lastInstrument && lastRates) return role === 'maker' ? lastRates.maker : lastRates.taker;
  let rates = feeRates.get(instrument);
  if (!rates) {
    const parse = (text: string) => (text && parseScaled(text, MONEY_SCALE)) || 0n;
    rates = { maker: parse(instrument.makerFeeRate), taker: parse(instrument.takerFeeRate) };
    feeRates.set(instrument, rates);
  }
  lastInstrument = instrument;
  lastRates = rates;
  return role === 'maker' ? rates.maker : rates.taker;
}
