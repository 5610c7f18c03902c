/**
 * A small seeded PRNG (mulberry32) and pickers, so fuzz tests are reproducible: a failure
 * message names the seed and the case number, and rerunning with that seed replays it.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  bool(probability = 0.5): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A string of `length` characters drawn from `alphabet`. */
  string(length: number, alphabet: string): string {
    let text = '';
    for (let index = 0; index < length; index += 1) text += alphabet[this.int(0, alphabet.length - 1)];
    return text;
  }

  /** Random code points, including controls, surrogates' neighbours, emoji and RTL marks. */
  unicode(length: number): string {
    const ranges: [number, number][] = [
      [0x00, 0x1f],
      [0x20, 0x7e],
      [0x7f, 0xff],
      [0x100, 0x2fff],
      [0x200e, 0x202e],
      [0xe000, 0xfffd],
      [0x1f600, 0x1f64f],
    ];
    let text = '';
    for (let index = 0; index < length; index += 1) {
      const [low, high] = this.pick(ranges);
      text += String.fromCodePoint(this.int(low, high));
    }
    return text;
  }
}

export const PRINTABLE =
  ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
