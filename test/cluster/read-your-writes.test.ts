/** The sequences an edge keeps per API key (src/cluster/read-your-writes.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeySequences } from '../../src/cluster/read-your-writes.ts';

test('key sequences: the newest per key, the least recently written forgotten past the capacity', () => {
  const keys = new KeySequences(2);
  keys.record('a', 5);
  keys.record('b', 7);
  // An answer that arrives late (an earlier write's) does not move the key back.
  keys.record('a', 3);
  assert.equal(keys.seqOf('a'), 5);
  // 'a' was written last, so 'b' is the one forgotten.
  keys.record('c', 9);
  assert.equal(keys.size, 2);
  assert.equal(keys.seqOf('b'), undefined);
  assert.equal(keys.seqOf('a'), 5);
  assert.equal(keys.seqOf('c'), 9);
  keys.clear();
  assert.equal(keys.seqOf('c'), undefined);
});
