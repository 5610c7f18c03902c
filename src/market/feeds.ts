/**
 * The price-feed driver: on a timer it reads the server clock, works out each feed group's
 * price for that moment (a seeded random walk or a replay file) and submits a SetIndexPrice
 * command for every instrument whose printed price changed, so prices are journaled and
 * replay like any command. It talks to the engine only through the sequencer.
 *
 * Bounded: one poll at a time (a slow store never piles polls up), one command per instrument
 * per poll at most. On a simulated clock nothing moves until the operator advances the clock;
 * the next poll then lands on the price for the new time. An operator price set in between
 * is taken up: the walk goes on from it.
 */
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import type { Services } from '../api/services.ts';
import { feedGroups, type FeedGroup, type FeedRule } from './feed-config.ts';
import { RandomWalk } from './random-walk.ts';
import { loadReplay, priceAtElapsed, type PricePoint } from './replay.ts';

export type MarketLog = (message: string, fields?: Record<string, unknown>) => void;

interface SimState {
  kind: 'sim';
  walk: RandomWalk;
  price?: number;
  step?: number;
  lastSet?: string;
  start?: number;
}

interface ReplayState {
  kind: 'replay';
  points: PricePoint[];
  speed: number;
  loop: boolean;
  anchorMs?: number;
}

interface Stream {
  group: FeedGroup;
  state: SimState | ReplayState;
}

export function priceText(instrument: Instrument, price: number): string | null {
  const places = Number(instrument.pricePrecision || '0');
  if (!Number.isFinite(price) || price <= 0) return null;
  const text = price.toFixed(places);
  return Number(text) > 0 ? text : null;
}

export class PriceFeeds {
  private streams: Stream[] = [];
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

  /** One round now (tests call it directly); waits for a round already in flight instead. */
  poll(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private refreshStreams(): void {
    const instruments = this.services.sequencer.exchange.state.instruments;
    if (instruments.size === this.instrumentCount) return;
    this.instrumentCount = instruments.size;
    const previous = new Map(this.streams.map((stream) => [stream.group.id, stream]));
    this.streams = feedGroups(this.rules, instruments.values()).map((group) => {
      const kept = previous.get(group.id);
      return kept ? { group, state: kept.state } : { group, state: this.newState(group) };
    });
  }

  private newState(group: FeedGroup): SimState | ReplayState {
    const source = group.source;
    if (source.kind === 'sim') {
      const walk = new RandomWalk(source.seed, group.id, source.volatility, source.intervalMs);
      return { kind: 'sim', walk, ...(source.start !== undefined ? { start: source.start } : {}) };
    }
    const points = loadReplay(source.file, source.format);
    this.log('replay feed loaded', { feed: group.id, file: source.file, points: points.length });
    return { kind: 'replay', points, speed: source.speed, loop: source.loop };
  }

  private priceOf(stream: Stream, nowMs: number): number | null {
    const state = stream.state;
    if (state.kind === 'replay') {
      state.anchorMs ??= nowMs;
      return priceAtElapsed(state.points, (nowMs - state.anchorMs) * state.speed, state.loop);
    }
    const first = stream.group.instruments[0];
    if (!first) return null;
    const current = this.services.sequencer.exchange.state.indexPrices.get(
      instrumentKey(first.category, first.symbol),
    );
    const step = state.walk.stepAt(nowMs);
    const overridden =
      current !== undefined && state.lastSet !== undefined && Number(current) !== Number(state.lastSet);
    if (state.price === undefined || state.step === undefined || overridden) {
      const base = state.price === undefined && state.start !== undefined ? state.start : Number(current);
      if (!(base > 0)) return null;
      state.price = base;
      state.step = step;
      return state.price;
    }
    state.price = state.walk.advance(state.price, state.step, step);
    state.step = step;
    return state.price;
  }

  private async round(): Promise<void> {
    try {
      this.refreshStreams();
      const nowMs = this.services.clock.now();
      const state = this.services.sequencer.exchange.state;
      const submissions: Promise<unknown>[] = [];
      for (const stream of this.streams) {
        const price = this.priceOf(stream, nowMs);
        if (price === null) continue;
        stream.group.instruments.forEach((instrument, index) => {
          const text = priceText(instrument, price);
          if (!text) return;
          if (index === 0 && stream.state.kind === 'sim') stream.state.lastSet = text;
          const current = state.indexPrices.get(instrumentKey(instrument.category, instrument.symbol));
          if (current !== undefined && Number(current) === Number(text)) return;
          submissions.push(
            this.services.sequencer.submit({
              type: 'SetIndexPrice',
              timeMs: this.services.clock.now(),
              category: instrument.category,
              symbol: instrument.symbol,
              indexPrice: text,
            }),
          );
        });
      }
      await Promise.all(submissions);
    } catch (error) {
      this.log('price feed error', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
