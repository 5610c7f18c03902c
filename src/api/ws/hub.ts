/**
 * The fan-out: every push comes from the engine's events after they are durable, in the
 * order they happened (Sequencer.onDurable), so a client never sees on WebSocket what REST
 * could not show, and every order REST shows has had its events pushed (the listener runs
 * before the batch's HTTP answers are released).
 *
 * Public channels are indexed by channel key (one serialised message per key, written to
 * every subscriber) and by instrument; private channels by uid. Order and fill rows come
 * from the events themselves; account and position rows are the current state of the
 * touched account, sent when they differ from what that subscription last received. Books
 * come from the durable mirror (book-mirror.ts). Tickers and candles are rebuilt at most
 * every TICKER_INTERVAL_MS per instrument after a batch touched it.
 *
 * A gap in journal sequence (an append reported failed that was in fact committed) marks the
 * mirror stale: it is rebuilt from memory at the next batch that leaves nothing queued, and
 * every books subscriber gets a fresh snapshot.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { JournalEntry } from '../../ports/store.ts';
import type { Services } from '../services.ts';
import { Batch } from './batch.ts';
import { BookMirror, type InstrumentBook } from './book-mirror.ts';
import type { Channel } from './channels.ts';
import { CHECKSUM_LEVELS } from './checksum.ts';
import type { Connection, Subscription } from './connection.ts';
import { pushText, type Action } from './messages.ts';
import { privatePushes, privateSnapshot } from './private-push.ts';
import {
  bookRow,
  candleRows,
  CANDLE_SNAPSHOT_SIZE,
  tickerRow,
  TRADE_SNAPSHOT_SIZE,
  tradeRow,
} from './public-feed.ts';

export const TICKER_INTERVAL_MS = 100;
const FULL_DEPTH = Number.MAX_SAFE_INTEGER;

export class Hub {
  readonly mirror = new BookMirror();
  private readonly byKey = new Map<string, Set<Subscription>>();
  private readonly byInstrument = new Map<string, Set<string>>();
  private readonly byUid = new Map<string, Set<Subscription>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly pendingCandles = new Set<string>();
  private lastSeq: number;
  private stale = false;
  private readonly unlisten: () => void;
  /** Frames written (a frame to n subscribers counts n). */
  delivered = 0;

  constructor(
    private readonly services: Services,
    private readonly onError: (error: unknown) => void,
  ) {
    const { sequencer } = services;
    this.lastSeq = sequencer.lastSeq;
    this.mirror.seed(sequencer.exchange.state);
    this.unlisten = sequencer.onDurable((entries) => this.onDurable(entries));
  }

  private get state() {
    return this.services.sequencer.exchange.state;
  }

  private now(): number {
    return this.services.clock.now();
  }

  stop(): void {
    this.unlisten();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  get subscriptionCount(): number {
    let count = 0;
    for (const set of this.byKey.values()) count += set.size;
    for (const set of this.byUid.values()) count += set.size;
    return count;
  }

  // ---- subscriptions -------------------------------------------------------------------

  subscribe(connection: Connection, channel: Channel): void {
    if (connection.subscriptions.has(channel.key)) return;
    const sub: Subscription = { channel, connection, queue: null, lastRows: new Map(), lastText: '' };
    connection.subscriptions.set(channel.key, sub);
    if (channel.private) {
      const uid = connection.uid as string;
      let set = this.byUid.get(uid);
      if (!set) this.byUid.set(uid, (set = new Set()));
      set.add(sub);
      privateSnapshot(this.services, sub, this.now());
      return;
    }
    let set = this.byKey.get(channel.key);
    if (!set) this.byKey.set(channel.key, (set = new Set()));
    set.add(sub);
    const instrument = instrumentKey(channel.category as Instrument['category'], channel.symbol);
    let keys = this.byInstrument.get(instrument);
    if (!keys) this.byInstrument.set(instrument, (keys = new Set()));
    keys.add(channel.key);
    this.publicSnapshot(sub);
  }

  unsubscribe(connection: Connection, key: string): void {
    const sub = connection.subscriptions.get(key);
    if (!sub) return;
    connection.subscriptions.delete(key);
    if (sub.channel.private) {
      this.byUid.get(connection.uid ?? '')?.delete(sub);
      return;
    }
    const set = this.byKey.get(key);
    set?.delete(sub);
    if (set && set.size === 0) {
      this.byKey.delete(key);
      const instrument = instrumentKey(sub.channel.category as Instrument['category'], sub.channel.symbol);
      this.byInstrument.get(instrument)?.delete(key);
    }
  }

  removeConnection(connection: Connection): void {
    for (const key of [...connection.subscriptions.keys()]) this.unsubscribe(connection, key);
  }

  /** Writes to a subscriber, or holds the frame while its snapshot is being built. */
  private deliver(sub: Subscription, text: string | Buffer): void {
    if (sub.queue) sub.queue.push(text);
    else if (sub.connection.send(text)) this.delivered += 1;
  }

  private async withSnapshot(sub: Subscription, build: () => Promise<string>): Promise<void> {
    sub.queue = [];
    let text: string | null = null;
    try {
      text = await build();
    } catch (error) {
      this.onError(error);
    }
    const queued = sub.queue;
    sub.queue = null;
    if (text !== null) this.deliver(sub, text);
    for (const frame of queued) this.deliver(sub, frame);
  }

  private instrumentOf(channel: Channel): Instrument | undefined {
    return this.state.instruments.get(
      instrumentKey(channel.category as Instrument['category'], channel.symbol),
    );
  }

  private publicSnapshot(sub: Subscription): void {
    const { channel } = sub;
    const instrument = this.instrumentOf(channel);
    if (!instrument) return;
    const text = (action: Action, data: unknown[]) => pushText(channel, action, data, this.now());
    switch (channel.kind) {
      case 'books':
        this.deliver(sub, this.bookSnapshot(sub, instrument));
        return;
      case 'ticker':
        void this.withSnapshot(sub, async () =>
          text('snapshot', [
            await tickerRow(this.services, instrument, channel.dialect, this.topOf(instrument)),
          ]),
        );
        return;
      case 'trade':
        void this.withSnapshot(sub, async () => {
          const rows = await this.services.store.trades({
            category: instrument.category,
            symbol: instrument.symbol,
            limit: TRADE_SNAPSHOT_SIZE,
          });
          const ordered = channel.dialect === 'v2' ? [...rows].reverse() : rows;
          return text(
            'snapshot',
            ordered.map((row) => tradeRow(row, channel.dialect)),
          );
        });
        return;
      case 'candle':
        void this.withSnapshot(sub, async () =>
          text(
            'snapshot',
            await candleRows(
              this.services,
              instrument,
              channel.granularity as NonNullable<Channel['granularity']>,
              channel.dialect,
              CANDLE_SNAPSHOT_SIZE,
            ),
          ),
        );
        return;
      default:
        return;
    }
  }

  private topOf(instrument: Instrument) {
    return this.mirror.of(instrumentKey(instrument.category, instrument.symbol)).top(instrument, 1);
  }

  private bookSnapshot(sub: Subscription, instrument: Instrument): string {
    const book = this.mirror.of(instrumentKey(instrument.category, instrument.symbol));
    const depth = sub.channel.depth === 0 ? FULL_DEPTH : sub.channel.depth;
    const levels = book.top(instrument, depth);
    const held = sub.channel.depth === 0 ? book.top(instrument, CHECKSUM_LEVELS) : levels;
    sub.lastText = JSON.stringify(levels);
    const row = bookRow({ levels, held, seq: book.seq, pseq: 0, timeMs: this.now() }, sub.channel.dialect);
    return pushText(sub.channel, 'snapshot', [row], this.now());
  }

  // ---- durable batches -----------------------------------------------------------------

  private onDurable(entries: readonly JournalEntry[]): void {
    const first = entries[0];
    const last = entries.at(-1);
    if (!first || !last) return;
    if (first.seq !== this.lastSeq + 1) this.stale = true;
    this.lastSeq = last.seq;
    try {
      const batch = new Batch(this.state, this.mirror, (uid) => (this.byUid.get(uid)?.size ?? 0) > 0);
      for (const entry of entries) for (const event of entry.events) batch.collect(event);
      this.pushPrivate(batch);
      this.pushBooks(batch);
      this.pushTrades(batch);
      for (const key of batch.tickers) this.schedule(key, batch.trades.has(key));
      if (this.stale && this.services.sequencer.lastSeq === this.lastSeq) this.resync();
    } catch (error) {
      this.onError(error);
    }
  }

  private pushPrivate(batch: Batch): void {
    for (const uid of batch.touchedUids) {
      const subs = this.byUid.get(uid);
      if (!subs || subs.size === 0) continue;
      for (const [sub, text] of privatePushes(this.services, batch, uid, subs, this.now()))
        this.deliver(sub, text);
    }
  }

  private subscribersOf(instrument: string, kind: Channel['kind']): Set<Subscription>[] {
    const sets: Set<Subscription>[] = [];
    for (const key of this.byInstrument.get(instrument) ?? []) {
      const set = this.byKey.get(key);
      const any = set?.values().next().value;
      if (set && any && any.channel.kind === kind) sets.push(set);
    }
    return sets;
  }

  private pushBooks(batch: Batch): void {
    for (const book of batch.books) {
      if (!book.closeBatch()) continue;
      batch.tickers.add(book.key);
      const instrument = this.state.instruments.get(book.key);
      if (!instrument) continue;
      this.pushBook(book, instrument);
    }
  }

  private pushBook(book: InstrumentBook, instrument: Instrument): void {
    const changes = book.takeChanges(instrument);
    const nowMs = this.now();
    for (const subs of this.subscribersOf(book.key, 'books')) {
      const channel = (subs.values().next().value as Subscription).channel;
      if (channel.depth === 0) {
        const held = book.top(instrument, CHECKSUM_LEVELS);
        const row = bookRow(
          { levels: changes, held, seq: book.seq, pseq: book.seq - 1, timeMs: nowMs },
          channel.dialect,
        );
        const text = Buffer.from(pushText(channel, 'update', [row], nowMs));
        for (const sub of subs) this.deliver(sub, text);
        continue;
      }
      const levels = book.top(instrument, channel.depth);
      const levelsText = JSON.stringify(levels);
      const row = bookRow({ levels, held: levels, seq: book.seq, pseq: 0, timeMs: nowMs }, channel.dialect);
      const text = Buffer.from(pushText(channel, 'snapshot', [row], nowMs));
      for (const sub of subs) {
        if (sub.lastText === levelsText) continue;
        sub.lastText = levelsText;
        this.deliver(sub, text);
      }
    }
  }

  private pushTrades(batch: Batch): void {
    const nowMs = this.now();
    for (const [key, trades] of batch.trades) {
      for (const subs of this.subscribersOf(key, 'trade')) {
        const channel = (subs.values().next().value as Subscription).channel;
        const ordered = channel.dialect === 'v2' ? trades : [...trades].reverse();
        const text = Buffer.from(
          pushText(
            channel,
            'update',
            ordered.map((trade) => tradeRow(trade, channel.dialect)),
            nowMs,
          ),
        );
        for (const sub of subs) this.deliver(sub, text);
      }
    }
  }

  // ---- tickers and candles (throttled) -------------------------------------------------

  private schedule(instrument: string, traded: boolean): void {
    if (traded) this.pendingCandles.add(instrument);
    if (this.timers.has(instrument)) return;
    if (!this.byInstrument.get(instrument)?.size) return;
    const timer = setTimeout(() => {
      this.timers.delete(instrument);
      const previous = this.chains.get(instrument) ?? Promise.resolve();
      const next = previous
        .then(() => this.refresh(instrument))
        .catch((error: unknown) => this.onError(error));
      this.chains.set(instrument, next);
      void next.then(() => {
        if (this.chains.get(instrument) === next) this.chains.delete(instrument);
      });
    }, TICKER_INTERVAL_MS);
    timer.unref();
    this.timers.set(instrument, timer);
  }

  private async refresh(key: string): Promise<void> {
    const instrument = this.state.instruments.get(key);
    if (!instrument) return;
    const candles = this.pendingCandles.delete(key);
    for (const subs of this.subscribersOf(key, 'ticker')) {
      const channel = (subs.values().next().value as Subscription).channel;
      const row = await tickerRow(this.services, instrument, channel.dialect, this.topOf(instrument));
      const text = Buffer.from(pushText(channel, 'snapshot', [row], this.now()));
      for (const sub of subs) this.deliver(sub, text);
    }
    if (!candles) return;
    for (const subs of this.subscribersOf(key, 'candle')) {
      const channel = (subs.values().next().value as Subscription).channel;
      const granularity = channel.granularity as NonNullable<Channel['granularity']>;
      const rows = await candleRows(this.services, instrument, granularity, channel.dialect, 1);
      const text = Buffer.from(pushText(channel, 'update', rows, this.now()));
      for (const sub of subs) this.deliver(sub, text);
    }
  }

  /**
   * Starts over from the engine as it is now, after the operator's reset swapped it (every
   * connection was closed first, so no subscriber is left to re-snapshot).
   */
  reseed(): void {
    this.stale = false;
    this.lastSeq = this.services.sequencer.lastSeq;
    this.mirror.seed(this.state);
  }

  /** Rebuilds the mirror from memory (which now equals the store) and re-snapshots books. */
  private resync(): void {
    this.stale = false;
    this.mirror.seed(this.state);
    for (const subs of this.byKey.values()) {
      for (const sub of subs) {
        if (sub.channel.kind !== 'books') continue;
        const instrument = this.instrumentOf(sub.channel);
        if (instrument) this.deliver(sub, this.bookSnapshot(sub, instrument));
      }
    }
  }
}
