/**
 * Trade fees (engine/instruments/fees.ts): the fee taken in Numbers is the bigint one,
 * `divide(amount × rate, MONEY_ONE, 'up')`, for every rate sign and amounts around 2^53.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { divide } from '../../../src/domain/decimal.ts';
import type { Instrument } from '../../../src/domain/instrument.ts';
import { MONEY_ONE } from '../../../src/domain/money.ts';
import { defaultCatalogue } from '../../../src/engine/instruments/catalogue.ts';
import { feeRate, tradeFee } from '../../../src/engine/instruments/fees.ts';

const LIMIT = Number.MAX_SAFE_INTEGER;
const AMOUNTS = [0, 1, 99, 100_000_000, 100_000_001, 123_456_789, 6e12 + 7, 2 ** 40 + 3, LIMIT - 1, LIMIT]
  .map(BigInt)
  .concat([2n ** 53n, 2n ** 64n + 5n]);

function withRates(makerFeeRate: string, takerFeeRate: string): Instrument {
  const instrument = defaultCatalogue().find((each) => each.category === 'SPOT');
  if (!instrument) throw new Error('no spot instrument in the catalogue');
  return { ...instrument, makerFeeRate, takerFeeRate };
}

test('tradeFee when taken in Numbers is the bigint fee rounded away from zero', () => {
  const instruments = [
    ...defaultCatalogue(),
    withRates('-0.0002', '0.00075'),
    withRates('0.00000001', '0.99999999'),
    withRates('0', '123456789.12345678'),
  ];
  for (const instrument of instruments) {
    for (const role of ['maker', 'taker'] as const) {
      const rate = feeRate(instrument, role);
      for (const amount of AMOUNTS) {
        assert.equal(
          tradeFee(instrument, role, amount),
          divide(amount * rate, MONEY_ONE, 'up'),
          `${instrument.symbol} ${role} rate ${rate} amount ${amount}`,
        );
      }
    }
  }
});

test('tradeFee when the rate is negative rounds the rebate away from zero', () => {
  const instrument = withRates('-0.0002', '0.001');
  // 100,000,001 × −20,000 / 10^8 = −20,000.0002 → −20,001
  assert.equal(tradeFee(instrument, 'maker', 100_000_001n), -20_001n);
  // 100,000,001 × 100,000 / 10^8 = 100,000.001 → 100,001
  assert.equal(tradeFee(instrument, 'taker', 100_000_001n), 100_001n);
  assert.equal(tradeFee(instrument, 'taker', 100_000_000n), 100_000n);
});
