import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decimalPlaces,
  divide,
  formatFixed,
  formatScaled,
  isDecimalText,
  MAX_DECIMAL_TEXT_LENGTH,
  parseScaled,
  parseScaledSafe,
  rescale,
  roundDecimalText,
} from '../../src/domain/decimal.ts';

test('parseScaled when the text is a decimal gives the scaled integer', () => {
  assert.equal(parseScaled('60000', 2), 6_000_000n);
  assert.equal(parseScaled('0.001', 8), 100_000n);
  assert.equal(parseScaled('1.2300', 2), 123n, 'trailing zeros beyond the scale are fine');
  assert.equal(parseScaled('-0.5', 1), -5n);
  assert.equal(parseScaled('123456789012345678901234567890', 0), 123456789012345678901234567890n);
  assert.equal(parseScaled('900000000000000000000', 8), 900000000000000000000n * 10n ** 8n);
});

test('parseScaled when the text is not a decimal or too precise gives null', () => {
  for (const text of ['', '.5', '5.', '1e3', '0x10', ' 1', '1 ', '1.2.3', '--1', '+1', 'NaN', '1,5', '٣']) {
    assert.equal(parseScaled(text, 4), null, text);
  }
  assert.equal(parseScaled('1.234', 2), null);
  assert.equal(parseScaled('0.000000001', 8), null);
});

test('parseScaled fast and exact paths agree on random texts', () => {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const pieces = ['0', '1', '9', '5', '.', '-', '00', '7'];
  for (let round = 0; round < 20_000; round += 1) {
    const length = 1 + (next() % 18);
    let text = '';
    for (let i = 0; i < length; i += 1) text += pieces[next() % pieces.length];
    const scale = next() % 12;
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
    let expected: bigint | null = null;
    if (match) {
      const fraction = (match[3] ?? '').replace(/0+$/, '');
      if (fraction.length <= scale) {
        const value = BigInt((match[2] ?? '0') + fraction.padEnd(scale, '0'));
        expected = match[1] === '-' ? -value : value;
      }
    }
    assert.equal(parseScaled(text, scale), expected, `${text} at scale ${scale}`);
  }
});

test('formatScaled when printing trims trailing zeros and keeps the sign', () => {
  assert.equal(formatScaled(6_000_000n, 2), '60000');
  assert.equal(formatScaled(123n, 2), '1.23');
  assert.equal(formatScaled(100_000n, 8), '0.001');
  assert.equal(formatScaled(0n, 8), '0');
  assert.equal(formatScaled(-5n, 1), '-0.5');
  assert.equal(formatFixed(80_000_000n, 8, 8), '0.80000000');
});

test('divide and rescale when rounding go toward or away from zero as named', () => {
  assert.equal(divide(7n, 2n, 'down'), 3n);
  assert.equal(divide(7n, 2n, 'up'), 4n);
  assert.equal(divide(-7n, 2n, 'up'), -4n);
  assert.equal(divide(6n, 2n, 'up'), 3n);
  assert.equal(rescale(12345n, 4, 2, 'up'), 124n);
  assert.equal(rescale(12345n, 4, 2, 'down'), 123n);
  assert.equal(rescale(5n, 0, 3, 'down'), 5000n);
  assert.equal(decimalPlaces('1.2300'), 2);
});

test('formatScaled when parsing back gives the same value on random amounts', () => {
  let seed = 777;
  for (let round = 0; round < 20_000; round += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const value = BigInt(seed % 1_000_003) * 10n ** BigInt(seed % 7) * (seed % 2 === 0 ? 1n : -1n);
    const scale = seed % 10;
    const text = formatScaled(value, scale);
    assert.ok(!/\.\d*0$/.test(text) && !text.endsWith('.'), text);
    assert.equal(parseScaled(text, scale), value, `${value} at ${scale}: ${text}`);
  }
});

test('parseScaled when the text is longer than any amount can be is refused without parsing', () => {
  const huge = '1'.repeat(1_000_000);
  assert.equal(parseScaled(huge, 8), null);
  assert.equal(parseScaled(`0.${'0'.repeat(100)}1`, 8), null);
  assert.equal(isDecimalText(huge), false);
  assert.equal(isDecimalText('1'.repeat(MAX_DECIMAL_TEXT_LENGTH + 1)), false);
  assert.equal(Number.isNaN(decimalPlaces(huge)), true);
  assert.equal(roundDecimalText(huge, 2), null);
  const longest = `${'9'.repeat(20)}.${'9'.repeat(MAX_DECIMAL_TEXT_LENGTH - 21)}`;
  assert.equal(longest.length, MAX_DECIMAL_TEXT_LENGTH);
  assert.equal(isDecimalText(longest), true, 'the longest accepted text still parses');
  assert.notEqual(parseScaled(longest, MAX_DECIMAL_TEXT_LENGTH - 21), null);
});

test('parseScaledSafe when it answers a number or null answers as parseScaled does', () => {
  assert.equal(parseScaledSafe('60000.1', 2), 6_000_010);
  assert.equal(parseScaledSafe('-0', 2), 0);
  assert.equal(Object.is(parseScaledSafe('-0.00', 2), -0), false, 'no negative zero');
  assert.equal(parseScaledSafe('0.001', 2), null, 'more significant decimals than the scale');
  assert.equal(parseScaledSafe('9007199254740993', 0), undefined, 'beyond 2^53: the bigint path');
  assert.equal(parseScaledSafe('1', 16), undefined, 'a scale above 15: the bigint path');
  // Texts of every shape around the limits: digits, points, signs, junk, lengths 1–18.
  const alphabet = ['0', '1', '5', '9', '.', '-', 'e', ' '];
  let seed = 20_261_125;
  const next = (bound: number) => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed % bound;
  };
  for (let round = 0; round < 20_000; round += 1) {
    const length = 1 + next(18);
    let text = '';
    for (let at = 0; at < length; at += 1) text += alphabet[next(at === 0 ? 8 : 5)];
    const scale = next(17);
    const safe = parseScaledSafe(text, scale);
    if (safe === undefined) continue;
    const exact = parseScaled(text, scale);
    assert.equal(safe === null ? null : BigInt(safe), exact, `${JSON.stringify(text)} at scale ${scale}`);
  }
});
