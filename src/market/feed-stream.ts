/**
 * One price stream: the instruments a feed rule drives together (feed-config.ts) and where its
 * price is. A simulated stream walks (random-walk.ts) from the price it last set; a replay
 * stream plays its points, scaled by a factor that starts at 1.
 *
 * An operator price is taken up: when any instrument of the stream shows an index price the
 * stream did not set, the stream goes on from that price (a walk restarts from it; a replay
 * is rescaled so that it passes through it), and every instrument of the stream follows.
 *
 * A paused stream sets no price (the feeds skip it); resumed, it goes on from where the index
 * stands: a walk from the current index price, with no jump for the time it stood still, a
 * replay from the point it was paused at.
 */
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import type { FeedGroup } from './feed-config.ts';
import { RandomWalk } from './random-walk.ts';
import { priceAtElapsed, type PricePoint } from './replay.ts';

/** Index prices as the engine holds them, by instrument key. */
export type IndexPrices = ReadonlyMap<string, string>;

/** A replay walked by the operator's clock is sampled this often at most (its points' spacing at least). */
const REPLAY_PATH_INTERVAL_MS = 1_000;

/** The step of a walked replay: its closest points' spacing in server time, at most a second. */
function replayIntervalMs(points: readonly PricePoint[], speed: number): number {
  let closest = Number.POSITIVE_INFINITY;
  for (let index = 1; index < points.length; index += 1) {
    const gap = (points[index]?.timeMs ?? 0) - (points[index - 1]?.timeMs ?? 0);
    if (gap > 0 && gap < closest) closest = gap;
  }
  return Math.max(1, Math.min(REPLAY_PATH_INTERVAL_MS, Math.floor(closest / speed)));
}

export function priceText(instrument: Instrument, price: number): string | null {
  const places = Number(instrument.pricePrecision || '0');
  if (!Number.isFinite(price) || price <= 0) return null;
  const text = price.toFixed(places);
  return Number(text) > 0 ? text : null;
}

export class FeedStream {
  /** The text this stream last gave each instrument (what an operator price differs from). */
  private readonly lastSet = new Map<string, string>();
  private walk: RandomWalk | null = null;
  private price: number | undefined;
  private step: number | undefined;
  private replayAnchorMs: number | undefined;
  private replayScale = 1;
  private readonly replayStepMs: number;
  private pausedAtMs: number | null = null;
  /** Resumed: the walk starts again from the current index price. */
  private rebase = false;

  constructor(
    readonly group: FeedGroup,
    readonly points: PricePoint[] = [],
  ) {
    const source = group.source;
    if (source.kind === 'sim') {
      this.walk = new RandomWalk(source.seed, group.id, source.volatility, source.intervalMs);
    }
    this.replayStepMs = replayIntervalMs(points, source.kind === 'replay' ? source.speed : 1);
  }

  /** Keeps what was learned about prices when the stream's instruments are regrouped. */
  adopt(previous: FeedStream): void {
    for (const [key, text] of previous.lastSet) this.lastSet.set(key, text);
    this.walk = previous.walk ?? this.walk;
    this.price = previous.price;
    this.step = previous.step;
    this.replayAnchorMs = previous.replayAnchorMs;
    this.replayScale = previous.replayScale;
    this.pausedAtMs = previous.pausedAtMs;
    this.rebase = previous.rebase;
  }

  get paused(): boolean {
    return this.pausedAtMs !== null;
  }

  pause(nowMs: number): void {
    this.pausedAtMs ??= nowMs;
  }

  resume(nowMs: number): void {
    if (this.pausedAtMs === null) return;
    if (this.replayAnchorMs !== undefined) this.replayAnchorMs += Math.max(0, nowMs - this.pausedAtMs);
    this.pausedAtMs = null;
    this.rebase = true;
  }

  /**
   * The price an operator set on one of the stream's instruments since the stream last set it;
   * once seen it is taken (the stream's record of every instrument is brought up to date).
   */
  private takeOperatorPrice(prices: IndexPrices): number | null {
    let taken: number | null = null;
    for (const instrument of this.group.instruments) {
      const key = instrumentKey(instrument.category, instrument.symbol);
      const current = prices.get(key);
      const last = this.lastSet.get(key);
      if (current !== undefined && last !== undefined && Number(current) !== Number(last)) {
        taken ??= Number(current);
      }
    }
    if (taken === null) return null;
    for (const instrument of this.group.instruments) {
      const key = instrumentKey(instrument.category, instrument.symbol);
      const current = prices.get(key);
      if (current !== undefined) this.lastSet.set(key, current);
    }
    return taken;
  }

  /** The stream's price at `nowMs`, taking up an operator price first; null when it has none. */
  priceAt(nowMs: number, prices: IndexPrices): number | null {
    if (this.walk) return this.walkTo(this.walk, nowMs, prices);
    const raw = this.replayRaw(nowMs);
    const taken = this.takeOperatorPrice(prices);
    if (taken !== null && raw > 0) this.replayScale = taken / raw;
    return raw * this.replayScale;
  }

  private walkTo(walk: RandomWalk, nowMs: number, prices: IndexPrices): number | null {
    const step = walk.stepAt(nowMs);
    const taken = this.takeOperatorPrice(prices);
    if (this.price === undefined || this.step === undefined || taken !== null || this.rebase) {
      this.rebase = false;
      const source = this.group.source;
      const first = this.group.instruments[0];
      const current = first ? Number(prices.get(instrumentKey(first.category, first.symbol))) : Number.NaN;
      const start = this.price === undefined && source.kind === 'sim' ? source.start : undefined;
      const base = taken ?? start ?? current;
      if (!(base > 0)) return null;
      this.price = base;
      this.step = step;
      return base;
    }
    this.price = walk.advance(this.price, this.step, step);
    this.step = step;
    return this.price;
  }

  private replayRaw(nowMs: number): number {
    if (this.points.length === 0 || this.group.source.kind !== 'replay') return Number.NaN;
    this.replayAnchorMs ??= nowMs;
    const { speed, loop } = this.group.source;
    return priceAtElapsed(this.points, (nowMs - this.replayAnchorMs) * speed, loop);
  }

  /** The texts to set for `price`, remembering them as this stream's own. */
  textsFor(price: number): [Instrument, string][] {
    const texts: [Instrument, string][] = [];
    for (const instrument of this.group.instruments) {
      const text = priceText(instrument, price);
      if (!text) continue;
      this.lastSet.set(instrumentKey(instrument.category, instrument.symbol), text);
      texts.push([instrument, text]);
    }
    return texts;
  }

  /**
   * The steps of the stream in (startMs, endMs], at most `maxSteps` of them (a longer span is
   * walked in strides of several steps). Null when the stream has no price yet.
   */
  pathSteps(startMs: number, endMs: number, prices: IndexPrices, maxSteps: number) {
    const base = this.priceAt(startMs, prices);
    if (base === null || !(base > 0)) return null;
    const intervalMs = this.walk ? this.walk.intervalMs : this.replayStepMs;
    const firstStep = Math.floor(startMs / intervalMs) + 1;
    const lastStep = Math.floor(endMs / intervalMs);
    const stride = Math.max(1, Math.ceil((lastStep - firstStep + 1) / maxSteps));
    const values: number[] = [];
    for (let step = firstStep + stride - 1; step <= lastStep; step += stride) {
      const price = this.priceAt(step * intervalMs, prices);
      if (price === null) return null;
      values.push(price);
    }
    return { firstMs: (firstStep + stride - 1) * intervalMs, intervalMs: intervalMs * stride, values };
  }

  /** After a walk: the engine now holds these texts, set by this stream. */
  noteSet(instrument: Instrument, text: string): void {
    this.lastSet.set(instrumentKey(instrument.category, instrument.symbol), text);
  }
}
