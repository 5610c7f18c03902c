/**
 * Decimal strings at the edge, scaled integers inside.
 *
 * Invariant: a value parsed with `parseScaled(text, scale)` and printed with
 * `formatScaled(value, scale)` is the same number; nothing here ever goes through a float.
 *
 * Limit: a text longer than MAX_DECIMAL_TEXT_LENGTH characters is not a decimal here. Turning
 * digits into a bigint costs time quadratic in their count (a 1 MB number held the event loop
 * ~0.3 s), and no price, quantity or amount needs more than 16 significant digits (scaled
 * integers stay below 2^53, money has 8 decimals), so the length is checked before any parse.
 */

/** Characters in the longest decimal text accepted (sign, digits and point included). */
export const MAX_DECIMAL_TEXT_LENGTH = 40;

const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;
const SIGNED_DECIMAL_PATTERN = /^(-?)(\d+)(?:\.(\d+))?$/;

export function isDecimalText(text: string): boolean {
  return text.length <= MAX_DECIMAL_TEXT_LENGTH && DECIMAL_PATTERN.test(text);
}

/** Number of digits after the point, ignoring trailing zeros ("1.2300" has 2). */
export function decimalPlaces(text: string): number {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return Number.NaN;
  const match = SIGNED_DECIMAL_PATTERN.exec(text);
  if (!match) return Number.NaN;
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return fraction.length;
}

/**
 * Parses a non-negative decimal string into an integer of `scale` decimal places.
 * Returns null when the text is not a decimal (or longer than MAX_DECIMAL_TEXT_LENGTH) or has
 * more significant decimals than `scale`.
 */
export function parseScaled(text: string, scale: number): bigint | null {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return null;
  const fast = parseScaledFast(text, scale);
  return fast === undefined ? parseScaledExact(text, scale) : fast;
}

const ZERO = 48;
const NINE = 57;
const POINT = 46;
const MINUS = 45;

/**
 * The common case without a regular expression or a string-to-bigint parse: up to 15 digits,
 * accumulated as an integer Number (exact below 2^53). `undefined` when the text needs the
 * exact path; the answer is always the exact path's.
 */
function parseScaledFast(text: string, scale: number): bigint | null | undefined {
  const scaled = parseScaledSafe(text, scale);
  return typeof scaled === 'number' ? BigInt(scaled) : scaled;
}

/**
 * `parseScaled` as a Number, for the common case: the same value as `parseScaled` whenever it
 * returns a number (a safe integer, so exact) or null; `undefined` when only the exact bigint
 * path can tell (more than 15 digits, a scale above 15, or a value of 2^53 or more).
 */
export function parseScaledSafe(text: string, scale: number): number | null | undefined {
  const length = text.length;
  if (length === 0 || length > 16 || scale > 15) return undefined;
  let index = 0;
  const negative = text.charCodeAt(0) === MINUS;
  if (negative) index = 1;
  let value = 0;
  let wholeDigits = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === POINT) break;
    if (code < ZERO || code > NINE) return null;
    value = value * 10 + (code - ZERO);
    wholeDigits += 1;
    index += 1;
  }
  if (wholeDigits === 0) return null;
  let places = 0;
  if (index < length) {
    index += 1; // the point
    if (index === length) return null;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code < ZERO || code > NINE) return null;
      if (places < scale) {
        value = value * 10 + (code - ZERO);
        places += 1;
      } else if (code !== ZERO) {
        return null; // more significant decimals than the scale allows
      }
      index += 1;
    }
  }
  const scaled = value * 10 ** (scale - places);
  if (!Number.isSafeInteger(scaled)) return undefined;
  // 0 rather than -0 for "-0": the bigint path has no negative zero.
  return negative && scaled !== 0 ? -scaled : scaled;
}

function parseScaledExact(text: string, scale: number): bigint | null {
  const match = SIGNED_DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const negative = match[1] === '-';
  const whole = match[2] ?? '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > scale) return null;
  const digits = whole + fraction.padEnd(scale, '0');
  const value = BigInt(digits);
  return negative ? -value : value;
}

/** Prints a scaled integer as a plain decimal string without trailing zeros ("0" for zero). */
export function formatScaled(value: bigint, scale: number): string {
  if (value === 0n) return '0';
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const split = digits.length - scale;
  // Trailing zeros of the fraction go (a loop: this runs for every printed amount).
  let end = digits.length;
  while (end > split && digits.charCodeAt(end - 1) === ZERO) end -= 1;
  const text = end > split ? `${digits.slice(0, split)}.${digits.slice(split, end)}` : digits.slice(0, split);
  return negative && text !== '0' ? `-${text}` : text;
}

/** Prints with exactly `places` decimals (the venue pads some fields, e.g. "0.80000000"). */
export function formatFixed(value: bigint, scale: number, places: number): string {
  const rescaled = rescale(value, scale, places, 'down');
  const negative = rescaled < 0n;
  const digits = (negative ? -rescaled : rescaled).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const text = places > 0 ? `${whole}.${digits.slice(digits.length - places)}` : whole;
  return negative ? `-${text}` : text;
}

export type Rounding = 'down' | 'up';

/**
 * Rounds a non-negative decimal text to exactly `places` decimals, half away from zero
 * ("60000.125" to 2 places is "60000.13"); null when the text is not a decimal.
 */
export function roundDecimalText(text: string, places: number): string | null {
  const own = decimalPlaces(text);
  if (!Number.isFinite(own) || !isDecimalText(text)) return null;
  const scale = Math.max(own, places);
  const scaled = parseScaled(text, scale);
  if (scaled === null) return null;
  const factor = 10n ** BigInt(scale - places);
  return formatFixed((scaled + factor / 2n) / factor, places, places);
}

/** Integer division with an explicit rounding direction (toward zero / away from zero). */
export function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  const quotient = numerator / denominator;
  if (rounding === 'down' || quotient * denominator === numerator) return quotient;
  return numerator < 0n !== denominator < 0n ? quotient - 1n : quotient + 1n;
}

/** Changes the scale of a value; rounding applies when decimals are dropped. */
export function rescale(value: bigint, fromScale: number, toScale: number, rounding: Rounding): bigint {
  if (toScale >= fromScale) return value * 10n ** BigInt(toScale - fromScale);
  return divide(value, 10n ** BigInt(fromScale - toScale), rounding);
}
