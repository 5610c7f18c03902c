/** Engine id texts (engine/id-text.ts): always 10^17 + n printed, in any order of use. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idText } from '../../src/engine/id-text.ts';
import { ID_BASE } from '../../src/engine/state.ts';

test('idText when given any counter gives the digits of 10^17 + n, whatever came before', () => {
  const counters = [
    0, 1, 9, 10, 9_999, 10_000, 10_001, 19_999, 20_000, 99_999_999, 100_000_000, 123_456_789_012,
  ];
  counters.push(Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, 2 ** 60);
  // A fixed pseudo-random walk over the range, back and forth across blocks of 10,000.
  let seed = 12_345;
  for (let index = 0; index < 2_000; index += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    counters.push(seed % 3 === 0 ? seed : seed * 1_000 + (index % 10_000));
  }
  for (const n of [...counters, ...counters.reverse()]) {
    assert.equal(idText(n), (ID_BASE + BigInt(n)).toString(), `n = ${n}`);
  }
});
