/**
 * The text of the engine's ids: 10^17 + n, 18 digits (`100000000000000042`).
 *
 * Printed without turning n into a string each time: V8 remembers the string of every number
 * it converts in a cache that lives in the old generation, so each id's digits survived
 * young-generation collections and were promoted (about 5 MB every 4 s at 50,000 orders/s,
 * docs/performance.md). Here the last four digits come from a table and the rest, which
 * changes once every 10,000 ids, is printed once.
 */
import { ID_BASE } from './state.ts';

/** Below this the id is printed by padding; it is far beyond any counter (9·10^15). */
const SMALL_LIMIT = Number.MAX_SAFE_INTEGER;

/** `1` and the zeros before an n of each length: ids are 18 digits, 10^17 + n. */
const PREFIXES = Array.from({ length: 18 }, (_, length) => `1${'0'.repeat(17 - length)}`);

const LOW_SPAN = 10_000;
const LOW_DIGITS = Array.from({ length: LOW_SPAN }, (_, low) => String(low).padStart(4, '0'));

/** The id text of the 10,000 ids that share everything but their last four digits. */
let high = -1;
let highText = '';

export function idText(n: number): string {
  if (n >= SMALL_LIMIT) return (ID_BASE + BigInt(n)).toString();
  if (n < LOW_SPAN) {
    const digits = String(n);
    return (PREFIXES[digits.length] ?? '') + digits;
  }
  const nHigh = Math.floor(n / LOW_SPAN);
  if (nHigh !== high) {
    const digits = String(nHigh);
    high = nHigh;
    highText = (PREFIXES[digits.length + 4] ?? '') + digits;
  }
  return highText + (LOW_DIGITS[n - nHigh * LOW_SPAN] as string);
}
