/**
 * The price-feed driver: on a timer it reads the server clock, works out each feed group's
 * price for that moment (a seeded random walk or a replay file) and submits a SetIndexPrice
 * command for every instrument whose printed price changed, so prices are journaled and
 * replay like any command. It talks to the engine only through the sequencer.
 *
 * Bounded: one poll at a time (a slow store never piles polls up), one command per instrument
 * per poll at most. On a simulated clock nothing moves until the operator advances the clock;
 * the next poll then lands on the price for the new time. An operator price set in between
 * is taken up: the walk goes on from it. A paused stream (the operator's, setPaused) sets no
 * price, by poll or by walk, until it is resumed.
 */
import type { PricePathStream } from '../domain/commands.ts';
import { roundDecimalText } from '../domain/decimal.ts';
import { ok, type Outcome } from '../domain/result-code.ts';
import { instrumentKey } from '../domain/instrument.ts';
import { MAX_PATH_PRICES } from '../engine/instruments/price-path.ts';
import type { Services } from '../api/services.ts';
import type { FeedStreamStatus } from '../ports/market-control.ts';
import { feedGroups, type FeedGroup, type FeedRule } from './feed-config.ts';
import { FeedStream } from './feed-stream.ts';
import { loadReplay } from './replay.ts';

export { priceText } from './feed-stream.ts';

export type MarketLog = (message: string, fields?: Record<string, unknown>) => void;

/** Simulated time one AdvanceClock of a walk covers (one journal entry each), at least. */
export const WALK_CHUNK_MS = 60_000;
/** A walk is cut into at most this many AdvanceClocks (a long walk takes longer chunks). */
const MAX_WALK_CHUNKS = 1_440;
/** Steps per stream one walk takes at most; a longer walk strides over several steps at once. */
const MAX_WALK_STEPS = 1_000_000;

export class PriceFeeds {
  private streams: FeedStream[] = [];
  private instrumentCount = -1;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly services: Services,
    private readonly rules: FeedRule[],
    private readonly log: MarketLog,
  ) {}

  get active(): boolean {
    return this.rules.some((rule) => rule.source.kind !== 'operator');
  }

  start(pollMs = 250): void {
    if (!this.active || this.timer) return;
    this.timer = setInterval(() => void this.poll(), pollMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Every stream, with its instruments and whether it is paused. */
  streamStatus(): FeedStreamStatus[] {
    this.refreshStreams();
    return this.streams.map((stream) => ({
      feed: stream.group.id,
      source: stream.group.source.kind,
      instruments: stream.group.instruments.map(({ category, symbol }) => instrumentKey(category, symbol)),
      paused: stream.paused,
    }));
  }

  /** Pauses or resumes the streams with these ids (the caller checked that they exist). */
  setPaused(ids: readonly string[], paused: boolean): void {
    this.refreshStreams();
    const nowMs = this.services.clock.now();
    for (const stream of this.streams) {
      if (!ids.includes(stream.group.id)) continue;
      if (paused) stream.pause(nowMs);
      else stream.resume(nowMs);
    }
  }

  /** One round now (tests call it directly); waits for a round or walk already in flight instead. */
  poll(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Advances the simulated clock by `ms` along the feeds' price path, one AdvanceClock per
   * WALK_CHUNK_MS of simulated time; `between` runs after each (the liquidity provider
   * re-quotes there). Polls wait until the walk is done.
   */
  async walk(ms: number, between: () => Promise<void>): Promise<Outcome<{ nowMs: number }>> {
    while (this.running) await this.running;
    const walking = this.walkChunks(ms, between);
    this.running = walking.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await walking;
    } finally {
      this.running = null;
    }
  }

  private async walkChunks(ms: number, between: () => Promise<void>): Promise<Outcome<{ nowMs: number }>> {
    const { sequencer, clock } = this.services;
    const endMs = clock.now() + ms;
    // Without a feed nothing walks: one jump. With one, chunks of a minute or more.
    const chunkMs = this.active ? Math.max(WALK_CHUNK_MS, Math.ceil(ms / MAX_WALK_CHUNKS)) : ms;
    const maxSteps = Math.max(1, Math.floor(MAX_WALK_STEPS / Math.ceil(ms / chunkMs)));
    let nowMs = clock.now();
    do {
      const startMs = clock.now();
      const spanMs = Math.min(chunkMs, endMs - startMs);
      const path = this.active ? this.pathFor(startMs, startMs + spanMs, maxSteps) : [];
      const streams = path.map(([, entry]) => entry);
      // The engine runs the chunk at once; `between` sees its state while the chunk's append
      // is still on its way (one commit wait per chunk, not two).
      const walked = sequencer.submit<{ nowMs: number }>({
        type: 'AdvanceClock',
        timeMs: startMs,
        ms: spanMs,
        ...(streams.length > 0 ? { path: streams } : {}),
      });
      this.noteWalked(path);
      await between();
      const outcome = await walked;
      if (!outcome.ok) return outcome;
      nowMs = outcome.value.nowMs;
    } while (nowMs < endMs);
    return ok({ nowMs });
  }

  private pathFor(startMs: number, endMs: number, walkSteps: number): [FeedStream, PricePathStream][] {
    this.refreshStreams();
    const prices = this.services.sequencer.exchange.state.indexPrices;
    const perStream = Math.floor(MAX_PATH_PRICES / Math.max(1, this.streams.length));
    const maxSteps = Math.max(1, Math.min(walkSteps, perStream));
    const path: [FeedStream, PricePathStream][] = [];
    for (const stream of this.streams) {
      if (stream.paused) continue;
      const steps = stream.pathSteps(startMs, endMs, prices, maxSteps);
      if (!steps || steps.values.length === 0) continue;
      const { instruments } = stream.group;
      const places = Math.max(...instruments.map((item) => Number(item.pricePrecision || '0')));
      path.push([
        stream,
        {
          instruments: instruments.map(({ category, symbol }) => ({ category, symbol })),
          firstMs: steps.firstMs,
          intervalMs: steps.intervalMs,
          prices: steps.values.map((value) => value.toFixed(places)),
        },
      ]);
    }
    return path;
  }

  /** The engine now holds each walked stream's last price: the streams remember it as theirs. */
  private noteWalked(path: [FeedStream, PricePathStream][]): void {
    for (const [stream, entry] of path) {
      const last = entry.prices[entry.prices.length - 1];
      if (last === undefined) continue;
      for (const instrument of stream.group.instruments) {
        const text = roundDecimalText(last, Number(instrument.pricePrecision || '0'));
        if (text) stream.noteSet(instrument, text);
      }
    }
  }

  private refreshStreams(): void {
    const instruments = this.services.sequencer.exchange.state.instruments;
    if (instruments.size === this.instrumentCount) return;
    this.instrumentCount = instruments.size;
    const previous = new Map(this.streams.map((stream) => [stream.group.id, stream]));
    this.streams = feedGroups(this.rules, instruments.values()).map((group) => {
      const kept = previous.get(group.id);
      const stream = new FeedStream(group, kept ? kept.points : this.loadPoints(group));
      if (kept) stream.adopt(kept);
      return stream;
    });
  }

  private loadPoints(group: FeedGroup) {
    const source = group.source;
    if (source.kind !== 'replay') return [];
    const points = loadReplay(source.file, source.format);
    this.log('replay feed loaded', { feed: group.id, file: source.file, points: points.length });
    return points;
  }

  private async round(): Promise<void> {
    try {
      this.refreshStreams();
      const nowMs = this.services.clock.now();
      const state = this.services.sequencer.exchange.state;
      const submissions: Promise<unknown>[] = [];
      for (const stream of this.streams) {
        if (stream.paused) continue;
        const price = stream.priceAt(nowMs, state.indexPrices);
        if (price === null) continue;
        for (const [instrument, text] of stream.textsFor(price)) {
          const current = state.indexPrices.get(instrumentKey(instrument.category, instrument.symbol));
          if (current !== undefined && Number(current) === Number(text)) continue;
          submissions.push(
            this.services.sequencer.submit({
              type: 'SetIndexPrice',
              timeMs: this.services.clock.now(),
              category: instrument.category,
              symbol: instrument.symbol,
              indexPrice: text,
            }),
          );
        }
      }
      await Promise.all(submissions);
    } catch (error) {
      this.log('price feed error', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
