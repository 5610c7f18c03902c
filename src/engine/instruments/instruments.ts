/**
 * Instrument lifecycle: the operator adds instruments, edits them and changes their status.
 * Every change is validated as a whole (the edited record must still be a valid instrument).
 */
import type { AddInstrument, PatchInstrument, SetIndexPrice } from '../../domain/commands.ts';
import { decimalPlaces, isDecimalText } from '../../domain/decimal.ts';
import { instrumentKey, INSTRUMENT_STATUSES, type Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';

/** Fields that must hold a decimal (or be empty). */
const DECIMAL_FIELDS: readonly (keyof Instrument)[] = [
  'buyLimitPriceRatio',
  'sellLimitPriceRatio',
  'feeRateUpRatio',
  'openCostUpRatio',
  'makerFeeRate',
  'takerFeeRate',
  'minOrderQty',
  'maxOrderQty',
  'maxMarketOrderQty',
  'minOrderAmount',
  'pricePrecision',
  'quantityPrecision',
  'quotePrecision',
  'priceMultiplier',
  'quantityMultiplier',
  'minLeverage',
  'maxLeverage',
  'warningRiskRatio',
  'liquidationRiskRatio',
  'maxCrossedLeverage',
  'maxIsolatedLeverage',
  'userMinBorrow',
  'fundInterval',
];

const SYMBOL_PATTERN = /^[A-Z0-9_]{2,32}$/;

export function validateInstrument(instrument: Instrument): Failure | null {
  if (!SYMBOL_PATTERN.test(instrument.symbol)) return { code: 'PARAM_ERROR', params: ['symbol'] };
  if (!instrument.baseCoin || !instrument.quoteCoin) return { code: 'PARAM_EMPTY', params: ['baseCoin'] };
  if (!INSTRUMENT_STATUSES.includes(instrument.status)) return { code: 'PARAM_ERROR', params: ['status'] };
  for (const field of DECIMAL_FIELDS) {
    const value = instrument[field];
    if (typeof value !== 'string' || (value !== '' && !isDecimalText(value))) {
      return { code: 'PARAM_ERROR', params: [field] };
    }
  }
  const pricePlaces = Number(instrument.pricePrecision);
  const quantityPlaces = Number(instrument.quantityPrecision);
  if (!Number.isInteger(pricePlaces) || pricePlaces > 8)
    return { code: 'PARAM_ERROR', params: ['pricePrecision'] };
  if (!Number.isInteger(quantityPlaces) || quantityPlaces > 8) {
    return { code: 'PARAM_ERROR', params: ['quantityPrecision'] };
  }
  if (pricePlaces + quantityPlaces > MONEY_SCALE)
    return { code: 'PARAM_ERROR', params: ['quantityPrecision'] };
  const multipliers: [keyof Instrument, number][] = [
    ['priceMultiplier', pricePlaces],
    ['quantityMultiplier', quantityPlaces],
  ];
  for (const [field, places] of multipliers) {
    const value = instrument[field] as string;
    if (value !== '' && (Number(value) <= 0 || decimalPlaces(value) > places)) {
      return { code: 'PARAM_ERROR', params: [field] };
    }
  }
  return null;
}

export function addInstrument(context: Context, command: AddInstrument): Outcome<Instrument> {
  const key = instrumentKey(command.instrument.category, command.instrument.symbol);
  if (context.state.instruments.has(key)) return fail('INSTRUMENT_EXISTS', command.instrument.symbol);
  const invalid = validateInstrument(command.instrument);
  if (invalid) return { ok: false, ...invalid };
  const instrument = { ...command.instrument, marginCoins: [...command.instrument.marginCoins] };
  context.state.instruments.set(key, instrument);
  context.emit({ type: 'InstrumentChanged', instrument: { ...instrument }, timeMs: context.nowMs });
  return ok(instrument);
}

export function patchInstrument(context: Context, command: PatchInstrument): Outcome<Instrument> {
  const key = instrumentKey(command.category, command.symbol);
  const current = context.state.instruments.get(key);
  if (!current) return fail('SYMBOL_NOT_FOUND', command.symbol);
  const next: Instrument = {
    ...current,
    ...command.changes,
    symbol: current.symbol,
    category: current.category,
  };
  const invalid = validateInstrument(next);
  if (invalid) return { ok: false, ...invalid };
  context.state.instruments.set(key, next);
  context.emit({ type: 'InstrumentChanged', instrument: { ...next }, timeMs: context.nowMs });
  return ok(next);
}

export function setIndexPrice(context: Context, command: SetIndexPrice): Outcome<{ indexPrice: string }> {
  const instrument = context.state.instruments.get(instrumentKey(command.category, command.symbol));
  if (!instrument) return fail('SYMBOL_NOT_FOUND', command.symbol);
  if (!isDecimalText(command.indexPrice) || Number(command.indexPrice) <= 0) {
    return fail('PARAM_ERROR', 'indexPrice');
  }
  context.state.indexPrices.set(instrumentKey(instrument.category, instrument.symbol), command.indexPrice);
  emitIndexPrice(context, instrument, command.indexPrice);
  return ok({ indexPrice: command.indexPrice });
}

function emitIndexPrice(context: Context, instrument: Instrument, indexPrice: string): void {
  context.emit({
    type: 'IndexPriceSet',
    category: instrument.category,
    symbol: instrument.symbol,
    indexPrice,
    timeMs: context.nowMs,
  });
}
