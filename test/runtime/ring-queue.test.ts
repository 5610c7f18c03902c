/**
 * RingQueue (runtime/ring-queue.ts): first in, first out across growth and wrap-around, and a
 * slot keeps nothing once its item has left.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RingQueue } from '../../src/runtime/ring-queue.ts';

test('RingQueue when items are pushed and shifted in any interleaving gives them back in order, as an array would', () => {
  const queue = new RingQueue<number>(4);
  const model: number[] = [];
  let next = 0;
  // A fixed interleaving that wraps the ring and makes it grow twice (4 → 8 → 16).
  const steps = 'ppp s ppppp ss pppppppp sss p ssssssssss pp s'.replace(/ /g, '');
  for (const step of steps) {
    if (step === 'p') {
      queue.push(next);
      model.push(next);
      next += 1;
    } else {
      assert.equal(queue.peek(), model[0]);
      assert.equal(queue.shift(), model.shift());
    }
    assert.equal(queue.size, model.length);
  }
  assert.deepEqual(queue.drain(), model);
  assert.equal(queue.size, 0);
  assert.equal(queue.shift(), undefined);
  assert.equal(queue.peek(), undefined);
});

test('RingQueue when an item is shifted keeps no reference to it', () => {
  const queue = new RingQueue<{ id: number }>(2);
  for (let id = 0; id < 5; id += 1) queue.push({ id });
  queue.shift();
  queue.shift();
  const slots = (queue as unknown as { slots: unknown[] }).slots;
  assert.equal(slots.filter((slot) => slot !== undefined).length, 3, 'only the three waiting items are held');
});
