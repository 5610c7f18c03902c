/** The follower's rounds that reads wait on (src/cluster/follow-loop.ts), with a scripted round. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FollowLoop } from '../../src/cluster/follow-loop.ts';

/** A journal whose head the test moves, and a round that reads it after `readMs`. */
function scripted(readMs: number) {
  const journal = { head: 0, seq: 0, rounds: 0, fail: false };
  const loop = new FollowLoop(
    async () => {
      journal.rounds += 1;
      const head = journal.head;
      await new Promise((resolve) => setTimeout(resolve, readMs));
      if (journal.fail) return false;
      journal.seq = head;
      return true;
    },
    60_000,
    () => journal.seq,
  );
  return { journal, loop };
}

test('follow loop: a read waiting for a sequence starts a round at once instead of after the interval', async () => {
  const { journal, loop } = scripted(5);
  loop.start();
  journal.head = 3;
  const startedMs = performance.now();
  assert.equal(await loop.reached(3, 2_000), true);
  assert.ok(performance.now() - startedMs < 1_000, 'not the 60 s interval');
  assert.equal(await loop.reached(2, 1), true, 'already reached: at once');
  loop.stop();
});

test('follow loop: fresh waits for a round begun after the call, not for the one running', async () => {
  const { journal, loop } = scripted(30);
  loop.start();
  journal.head = 1;
  const first = loop.reached(1, 2_000);
  // A round is running now (it read head 1); what commits meanwhile needs the next round.
  await new Promise((resolve) => setTimeout(resolve, 10));
  journal.head = 2;
  assert.equal(await loop.fresh(2_000), true);
  assert.equal(journal.seq, 2, 'the fresh round read what was committed before the call');
  assert.equal(await first, true);
  assert.equal(journal.rounds, 2);
  loop.stop();
});

test('follow loop: waits are bounded, and a failed read counts for nothing', async () => {
  const { journal, loop } = scripted(1);
  loop.start();
  journal.fail = true;
  journal.head = 5;
  assert.equal(await loop.fresh(50), false);
  assert.equal(await loop.reached(5, 50), false);
  journal.fail = false;
  assert.equal(await loop.reached(5, 2_000), true);
  loop.stop();
});
