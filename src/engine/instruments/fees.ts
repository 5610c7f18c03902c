/**
 * An instrument's maker and taker fee rates, money-scaled. Below trading and futures both
 * (spot and futures settlement, futures risk and reserves read them), so neither has to import
 * the other for a rate.
 */
import { divide, parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';

interface Rates {
  maker: bigint;
  taker: bigint;
  /** The two above as Numbers (exact: NaN when they would not be safe integers). */
  makerNumber: number;
  takerNumber: number;
}

/** Fee rates parsed once per instrument record (records are replaced, never mutated). */
const feeRates = new WeakMap<Instrument, Rates>();

/** The instrument asked last and its rates (each fill asks twice: maker and taker). */
let lastInstrument: Instrument | undefined;
let lastRates: Rates | undefined;

function safeOrNaN(value: bigint): number {
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : Number.NaN;
}

function ratesOf(instrument: Instrument): Rates {
  if (instrument === lastInstrument && lastRates) return lastRates;
  let rates = feeRates.get(instrument);
  if (!rates) {
    const parse = (text: string) => (text && parseScaled(text, MONEY_SCALE)) || 0n;
    const maker = parse(instrument.makerFeeRate);
    const taker = parse(instrument.takerFeeRate);
    rates = { maker, taker, makerNumber: safeOrNaN(maker), takerNumber: safeOrNaN(taker) };
    feeRates.set(instrument, rates);
  }
  lastInstrument = instrument;
  lastRates = rates;
  return rates;
}

export function feeRate(instrument: Instrument, role: 'maker' | 'taker'): bigint {
  const rates = ratesOf(instrument);
  return role === 'maker' ? rates.maker : rates.taker;
}

const MONEY_ONE_NUMBER = Number(MONEY_ONE);

/**
 * The trade fee on `amount`: the role's rate times it, money-scaled, rounded up (away from
 * zero, against the payer; a negative maker rate is a rebate, rounded the same way), as
 * `divide(amount × rate, MONEY_ONE, 'up')`. In Numbers when the product is a safe integer
 * (then exact: a true product of 2^53 or more is not one), with the remainder taken apart so
 * no float quotient is rounded: the bigint product and division made three or four bigints
 * per side of every fill.
 */
export function tradeFee(instrument: Instrument, role: 'maker' | 'taker', amount: bigint): bigint {
  const rates = ratesOf(instrument);
  const rate = role === 'maker' ? rates.makerNumber : rates.takerNumber;
  const amountNumber = Number(amount);
  const product = amountNumber * rate;
  if (Number.isSafeInteger(product) && Number.isSafeInteger(amountNumber)) {
    const remainder = product % MONEY_ONE_NUMBER;
    const whole = (product - remainder) / MONEY_ONE_NUMBER;
    return BigInt(remainder > 0 ? whole + 1 : remainder < 0 ? whole - 1 : whole);
  }
  return divide(amount * (role === 'maker' ? rates.maker : rates.taker), MONEY_ONE, 'up');
}
