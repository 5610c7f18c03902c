/**
 * Integer steps (engine/instruments/scales.ts): values multiplied in Numbers when that is exact
 * are the bigint products, on every instrument of the default catalogue, around 2^53 included;
 * prices and quantities parsed in Numbers give the ticks and lots the bigint parse gives.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseScaled } from '../../../src/domain/decimal.ts';
import { defaultCatalogue } from '../../../src/engine/instruments/catalogue.ts';
import {
  lotsToMoney,
  priceToTicks,
  quantityToLots,
  quoteValue,
  scalesOf,
  ticksToMoney,
} from '../../../src/engine/instruments/scales.ts';

const LIMIT = Number.MAX_SAFE_INTEGER;
/** Integers of every size: small, at the edges of 2^53 and of its square root, and beyond. */
const INTEGERS = [0, 1, 7, 10, 123, 99_999, 94_906_265, 94_906_266, 2 ** 31, 1e12, LIMIT - 1, LIMIT, 2 ** 53];

test('scales when values are multiplied give the bigint products, near 2^53 as well', () => {
  for (const instrument of defaultCatalogue()) {
    const scales = scalesOf(instrument);
    for (const a of INTEGERS) {
      assert.equal(
        lotsToMoney(instrument, a),
        BigInt(a) * scales.moneyPerLot,
        `${instrument.symbol} lots ${a}`,
      );
      assert.equal(
        ticksToMoney(instrument, a),
        BigInt(a) * scales.moneyPerTick,
        `${instrument.symbol} ticks ${a}`,
      );
      for (const b of INTEGERS) {
        assert.equal(
          quoteValue(instrument, a, b),
          BigInt(a) * BigInt(b) * scales.moneyPerTickLot,
          `${instrument.symbol} ${a} × ${b}`,
        );
      }
    }
  }
});

test('scales when prices and quantities are parsed give the bigint parse’s ticks and lots', () => {
  const texts = [
    '0',
    '-0',
    '1',
    '0.1',
    '0.01',
    '60000.5',
    '60000.55',
    '0.000001',
    '1.23456789',
    '-5',
    'x',
    '1e3',
  ];
  texts.push('9007199254740991', '9007199254740993', '123456789012.3456', '1.', '.5');
  const steps = (scaled: bigint | null, units: bigint) => {
    if (scaled === null) return 'precision';
    if (scaled % units !== 0n) return 'step';
    const count = scaled / units;
    return count > BigInt(LIMIT) ? 'range' : Number(count);
  };
  for (const instrument of defaultCatalogue()) {
    const scales = scalesOf(instrument);
    for (const text of texts) {
      const expectedTicks = steps(parseScaled(text, scales.pricePlaces), scales.tickUnits);
      const expectedLots = steps(parseScaled(text, scales.quantityPlaces), scales.lotUnits);
      assert.equal(priceToTicks(instrument, text), expectedTicks, `${instrument.symbol} price ${text}`);
      assert.equal(quantityToLots(instrument, text), expectedLots, `${instrument.symbol} quantity ${text}`);
    }
  }
});
