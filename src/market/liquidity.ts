/**
 * The built-in liquidity provider: a house account (label `liquidity-provider`, created at
 * first start) that keeps a ladder (ladder.ts) on both sides of the index price of every
 * instrument it quotes: spot, margin and every futures contract. It is an ordinary account:
 * its orders go through PlaceOrders / CancelOrders, it pays fees, and its coins enter by
 * operator-style Deposit commands (topped up when a ladder or a futures margin would run
 * short), so the conservation invariant holds with it. Futures add settings, an inventory
 * limit and margin top-ups (liquidity-futures.ts).
 *
 * Re-quoting runs on a timer, at most once per interval for all instruments, and submits
 * nothing when the ladder already stands: levels that did not move and are at least half
 * full stay (they keep their time priority); the others are placed anew and the stale ones
 * cancelled, in one event-loop turn, in an order that keeps both sides of the book
 * (requote.ts). Its orders use STP cancel_taker, so it never trades with itself.
 */
import type { Category } from '../domain/category.ts';
import { CATEGORIES, isFutures } from '../domain/category.ts';
import type { Command, OrderRequest } from '../domain/commands.ts';
import { formatScaled } from '../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import { MONEY_SCALE } from '../domain/money.ts';
import type { Outcome } from '../domain/result-code.ts';
import { futuresWalletOf } from '../domain/wallet.ts';
import { lotsToMoney, lotsToQuantity, quoteValue, ticksToPrice } from '../engine/instruments/scales.ts';
import type { Services } from '../api/services.ts';
import type { MarketLog } from './feeds.ts';
import { targetLadder, type Quote } from './ladder.ts';
import { marketSelected, type LiquidityConfig } from './liquidity-config.ts';
import { placedBy, requoteSteps, type OwnOrder } from './requote.ts';
import {
  capToRoom,
  futuresNeed,
  inventoryRoom,
  settingsCommands,
  settingsReady,
  type FundingNeed,
} from './liquidity-futures.ts';

export { parseLiquidityConfig, type LiquidityConfig } from './liquidity-config.ts';

export const LIQUIDITY_LABEL = 'liquidity-provider';

function walletFor(category: Category): string {
  if (category === 'SPOT') return 'spot';
  if (category === 'MARGIN') return 'crossed_margin';
  return futuresWalletOf(category);
}

/** Logs the first few of a repeated complaint, then one in a hundred. */
function sparse(count: number): boolean {
  return count <= 3 || count % 100 === 0;
}

export class LiquidityProvider {
  private uid: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;
  private rejections = 0;

  /** A copy: the operator's changes (change) last until a restart or a reset, not beyond. */
  private readonly config: LiquidityConfig;

  constructor(
    private readonly services: Services,
    config: LiquidityConfig,
    private readonly log: MarketLog,
  ) {
    this.config = { ...config, markets: [...config.markets] };
  }

  get accountUid(): string | null {
    return this.uid;
  }

  get settings(): LiquidityConfig {
    return { ...this.config, markets: [...this.config.markets] };
  }

  async start(): Promise<void> {
    if (!this.config.enabled) return;
    await this.ensureAccount();
    this.timer = setInterval(() => void this.requote(), this.config.intervalMs);
  }

  /**
   * Applies settings already checked (liquidityProblem). Off stops the timer and cancels the
   * house's resting orders (a ladder that no longer follows the index would be stale); on
   * starts it again; a new interval restarts the timer. The next round quotes by the rest.
   */
  async change(changes: Partial<Omit<LiquidityConfig, 'markets'>>): Promise<LiquidityConfig> {
    const wasEnabled = this.config.enabled;
    const interval = this.config.intervalMs;
    Object.assign(this.config, changes);
    if (wasEnabled && !this.config.enabled) {
      await this.stop();
      if (this.uid) {
        await this.submit({
          type: 'CancelAllOrders',
          timeMs: this.services.clock.now(),
          uid: this.uid,
          categories: [...CATEGORIES],
        });
      }
    } else if (this.config.enabled && (!wasEnabled || this.config.intervalMs !== interval)) {
      await this.stop();
      await this.start();
    }
    return this.settings;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** The house account: found by label, else created (journaled like any account). */
  async ensureAccount(): Promise<string> {
    if (this.uid) return this.uid;
    const state = this.services.sequencer.exchange.state;
    for (const account of state.accounts.values()) {
      if (account.label === LIQUIDITY_LABEL && account.kind === 'main') this.uid = account.uid;
    }
    if (!this.uid) {
      const outcome = await this.services.sequencer.submit<{ uid: string }>({
        type: 'CreateAccount',
        timeMs: this.services.clock.now(),
        kind: 'main',
        parentUid: null,
        mode: 'classic',
        label: LIQUIDITY_LABEL,
      });
      if (!outcome.ok) throw new Error(`liquidity provider: account not created (${outcome.code})`);
      this.uid = outcome.value.uid;
      this.log('liquidity provider account created', { uid: this.uid });
    }
    return this.uid;
  }

  quotedInstruments(): Instrument[] {
    const all = [...this.services.sequencer.exchange.state.instruments.values()];
    return all.filter(
      (instrument) =>
        instrument.status === 'online' &&
        marketSelected(this.config.markets, instrument.category, instrument.symbol),
    );
  }

  /** One re-quote of every instrument now (tests call it directly). */
  requote(): Promise<void> {
    // Off means off: a clock walk asks for re-quotes, and must get none from a disabled house.
    if (!this.config.enabled) return Promise.resolve();
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    try {
      const uid = await this.ensureAccount();
      const work = this.quotedInstruments().map((instrument) => this.quote(uid, instrument));
      await Promise.all(work);
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      if (sparse(this.failures)) {
        this.log('liquidity provider error', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  private ownOrders(uid: string, instrument: Instrument): OwnOrder[] {
    const orders: OwnOrder[] = [];
    for (const order of this.services.sequencer.exchange.state.orders.values()) {
      if (order.uid === uid && order.category === instrument.category && order.symbol === instrument.symbol) {
        const { orderId, side, priceTicks } = order;
        orders.push({ orderId, side, priceTicks, remainingLots: order.quantityLots - order.filledLots });
      }
    }
    return orders;
  }

  private submit(command: Command): Promise<unknown> {
    return this.services.sequencer.submit(command);
  }

  /** One instrument's round: settings (futures), top-ups, then places and cancels (requote.ts). */
  private quote(uid: string, instrument: Instrument): Promise<unknown> {
    const state = this.services.sequencer.exchange.state;
    const timeMs = this.services.clock.now();
    const futures = isFutures(instrument.category);
    const submissions: Promise<unknown>[] = [];
    if (futures) {
      for (const command of settingsCommands(state, uid, instrument, this.config.leverage, timeMs))
        submissions.push(this.submit(command));
      if (!settingsReady(state, uid, instrument)) {
        this.complain(
          instrument,
          'its position mode or margin mode cannot be set (open orders or positions)',
        );
        return Promise.all(submissions);
      }
    }
    const index = Number(state.indexPrices.get(instrumentKey(instrument.category, instrument.symbol)));
    const ladder = index > 0 ? targetLadder(instrument, index, this.config) : [];
    const room = futures ? inventoryRoom(state, uid, instrument, this.config.maxPosition) : undefined;
    const targets = room ? capToRoom(instrument, ladder, room) : ladder;
    const steps = requoteSteps(instrument, this.ownOrders(uid, instrument), targets, room);
    const places = placedBy(steps);
    const needs = futures
      ? [futuresNeed(state, this.services.sequencer.exchange.books, uid, instrument, places, ladder)]
      : this.needs(uid, instrument, places);
    for (const need of needs) if (need) submissions.push(this.deposit(uid, need, timeMs));
    for (const step of steps) {
      if (step.kind === 'cancel') {
        const items = step.orderIds.map((orderId) => ({ orderId }));
        submissions.push(this.submit({ type: 'CancelOrders', timeMs, uid, items }));
      } else submissions.push(this.place(uid, instrument, step.quotes, timeMs));
    }
    return Promise.all(submissions);
  }

  private place(uid: string, instrument: Instrument, quotes: Quote[], timeMs: number): Promise<void> {
    const items = quotes.map((quote) => this.request(instrument, quote));
    const { category } = instrument;
    return this.services.sequencer
      .submit<{ code?: string }[]>({ type: 'PlaceOrders', timeMs, uid, category, items })
      .then((outcome) => this.checkPlaced(instrument, outcome));
  }

  private deposit(uid: string, need: FundingNeed, timeMs: number): Promise<unknown> {
    const amount = formatScaled(need.amount, MONEY_SCALE);
    this.log('liquidity provider top-up', { wallet: need.wallet, coin: need.coin, amount });
    return this.submit({ type: 'Deposit', timeMs, uid, ...need, subType: 'internal' });
  }

  private complain(instrument: Instrument, reason: string): void {
    this.rejections += 1;
    if (!sparse(this.rejections)) return;
    const { category, symbol } = instrument;
    this.log('liquidity provider cannot quote', { category, symbol, reason });
  }

  private checkPlaced(instrument: Instrument, outcome: Outcome<{ code?: string }[]>): void {
    const codes = outcome.ok
      ? outcome.value.flatMap((item) => (item.code ? [item.code] : []))
      : [outcome.code];
    if (codes.length > 0) this.complain(instrument, `orders refused: ${[...new Set(codes)].join(', ')}`);
  }

  private request(instrument: Instrument, quote: Quote): OrderRequest {
    return {
      symbol: instrument.symbol,
      side: quote.side,
      orderType: 'limit',
      timeInForce: 'gtc',
      stpMode: 'cancel_taker',
      price: ticksToPrice(instrument, quote.priceTicks),
      quantity: lotsToQuantity(instrument, quote.lots),
    };
  }

  /**
   * Spot and margin: deposits the quotes need beyond what the wallet holds available, four
   * ladders' worth so top-ups are rare (bids in the quote coin, asks in the base coin).
   */
  private needs(uid: string, instrument: Instrument, places: Quote[]): FundingNeed[] {
    const wallet = walletFor(instrument.category);
    const totals = new Map<string, bigint>();
    const add = (coin: string, amount: bigint) => totals.set(coin, (totals.get(coin) ?? 0n) + amount);
    for (const quote of places) {
      if (quote.side === 'buy')
        add(instrument.quoteCoin, quoteValue(instrument, quote.priceTicks, quote.lots));
      else add(instrument.baseCoin, lotsToMoney(instrument, quote.lots));
    }
    const needs: FundingNeed[] = [];
    const state = this.services.sequencer.exchange.state;
    for (const [coin, amount] of totals) {
      const available = state.balances.get(`${uid}|${wallet}|${coin}`)?.available ?? 0n;
      if (available < amount) needs.push({ wallet, coin, amount: amount * 4n - available });
    }
    return needs;
  }
}
