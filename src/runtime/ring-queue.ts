/**
 * A first-in, first-out queue in a ring of reused slots: for long-lived queues of short-lived
 * items on hot paths (requests waiting for their answer).
 *
 * Why not a Map or an array with push/shift: those reallocate their storage as they grow and
 * shrink, and the storage they leave behind, once in V8's old generation, keeps the items it
 * held alive through young-generation collections until the next full one. Items that should
 * have died young (an append's resolver, and through it the whole batch it answers) were then
 * promoted, which made every scavenge copy megabytes (docs/performance.md). The ring only
 * reallocates to grow, which a bounded number of waiting items makes rare, and a slot is
 * cleared as soon as its item leaves.
 */
export class RingQueue<T> {
  private slots: (T | undefined)[];
  private head = 0;
  private count = 0;

  /** `capacity` is rounded up to a power of two. */
  constructor(capacity = 16) {
    let size = 1;
    while (size < capacity) size *= 2;
    this.slots = new Array<T | undefined>(size).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count === this.slots.length) this.grow();
    this.slots[(this.head + this.count) & (this.slots.length - 1)] = item;
    this.count += 1;
  }

  /** The oldest item, left in the queue. */
  peek(): T | undefined {
    return this.count === 0 ? undefined : this.slots[this.head];
  }

  /** Takes the oldest item out. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & (this.slots.length - 1);
    this.count -= 1;
    return item;
  }

  /** Takes every item out, oldest first. */
  drain(): T[] {
    const items: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) items.push(item);
    return items;
  }

  private grow(): void {
    const slots = new Array<T | undefined>(this.slots.length * 2).fill(undefined);
    for (let index = 0; index < this.count; index += 1) {
      slots[index] = this.slots[(this.head + index) & (this.slots.length - 1)];
    }
    this.slots = slots;
    this.head = 0;
  }
}
