/**
 * The margin an opening order reserves (verified against the venue's
 * open-count example): value × [(1 + openCostUpRatio) ÷ leverage + takerFee × (1 +
 * feeRateUpRatio)]. On fills the reserve is replaced by the actual margin and fee and the
 * excess released.
 */
import { divide, parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import { feeRate } from '../instruments/fees.ts';

function ratio(text: string): bigint {
  return (text && parseScaled(text, MONEY_SCALE)) || 0n;
}

export function openReserve(instrument: Instrument, value: bigint, leverage: number): bigint {
  const marginPart = divide(
    value * (MONEY_ONE + ratio(instrument.openCostUpRatio)),
    MONEY_ONE * BigInt(leverage),
    'up',
  );
  const feePart = divide(
    value * feeRate(instrument, 'taker') * (MONEY_ONE + ratio(instrument.feeRateUpRatio)),
    MONEY_ONE * MONEY_ONE,
    'up',
  );
  return marginPart + feePart;
}
