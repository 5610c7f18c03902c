/**
 * The built-in liquidity provider: a house account (label `liquidity-provider`, created at
 * first start) that keeps a ladder (ladder.ts) on both sides of the index price of every
 * instrument it quotes. It is an ordinary account: its orders go through PlaceOrders /
 * CancelOrders, it pays fees, and its coins enter by operator-style Deposit commands (topped
 * up when a ladder would run short), so the conservation invariant holds with it.
 *
 * Re-quoting runs on a timer, at most once per interval for all instruments, and submits
 * nothing when the ladder already stands: levels that did not move and are at least half
 * full stay (they keep their time priority); the rest are cancelled and placed anew in the
 * same event-loop turn. Its orders use STP cancel_taker, so it never trades with itself.
 */
import type { Category } from '../domain/category.ts';
import { CATEGORIES, isFutures, parseCategory } from '../domain/category.ts';
import type { OrderReference, OrderRequest } from '../domain/commands.ts';
import { formatScaled } from '../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import { MONEY_SCALE } from '../domain/money.ts';
import type { Order } from '../domain/order.ts';
import { futuresWalletOf } from '../domain/wallet.ts';
import { lotsToMoney, lotsToQuantity, quoteValue, ticksToPrice } from '../engine/instruments/scales.ts';
import type { Services } from '../api/services.ts';
import type { MarketLog } from './feeds.ts';
import { targetLadder, type LadderSpec, type Quote } from './ladder.ts';

export const LIQUIDITY_LABEL = 'liquidity-provider';

export interface LiquidityConfig extends LadderSpec {
  enabled: boolean;
  /** `CATEGORY:SYMBOL` or `CATEGORY:*` entries. */
  markets: string[];
  intervalMs: number;
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, check: (value: number) => boolean) {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || !check(value)) throw new Error(`${name} is out of range: "${text}"`);
  return value;
}

export function parseLiquidityConfig(env: NodeJS.ProcessEnv): LiquidityConfig {
  const flag = (env.BOURSE_LIQUIDITY ?? 'on').toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'].includes(flag)) {
    throw new Error('BOURSE_LIQUIDITY must be on or off');
  }
  const markets = (env.BOURSE_LIQUIDITY_MARKETS || 'SPOT:*,MARGIN:*')
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .filter((entry) => entry !== '');
  for (const entry of markets) {
    const [category = '', symbol] = entry.split(':');
    if (!parseCategory(category, CATEGORIES) || !symbol) {
      throw new Error(`BOURSE_LIQUIDITY_MARKETS: "${entry}" must be CATEGORY:SYMBOL or CATEGORY:*`);
    }
  }
  const config: LiquidityConfig = {
    enabled: ['on', 'true', '1', 'yes'].includes(flag),
    markets,
    levels: number(
      env,
      'BOURSE_LIQUIDITY_LEVELS',
      10,
      (value) => Number.isInteger(value) && value >= 1 && value <= 50,
    ),
    spread: number(env, 'BOURSE_LIQUIDITY_SPREAD', 0.0005, (value) => value >= 0 && value < 0.1),
    step: number(env, 'BOURSE_LIQUIDITY_STEP', 0.0005, (value) => value > 0 && value < 0.1),
    notional: number(env, 'BOURSE_LIQUIDITY_NOTIONAL', 5000, (value) => value > 0 && value <= 1e9),
    intervalMs: number(
      env,
      'BOURSE_LIQUIDITY_INTERVAL',
      500,
      (value) => Number.isInteger(value) && value >= 50,
    ),
  };
  if (config.spread + config.step * (config.levels - 1) >= 0.02) {
    throw new Error(
      'BOURSE_LIQUIDITY_SPREAD + STEP × (LEVELS − 1) must stay under 0.02, the spot price band',
    );
  }
  return config;
}

function walletFor(category: Category): string {
  if (category === 'SPOT') return 'spot';
  if (category === 'MARGIN') return 'crossed_margin';
  return futuresWalletOf(category);
}

interface Need {
  wallet: string;
  coin: string;
  amount: bigint;
}

export class LiquidityProvider {
  private uid: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;

  constructor(
    private readonly services: Services,
    private readonly config: LiquidityConfig,
    private readonly log: MarketLog,
  ) {}

  get accountUid(): string | null {
    return this.uid;
  }

  async start(): Promise<void> {
    if (!this.config.enabled) return;
    await this.ensureAccount();
    this.timer = setInterval(() => void this.requote(), this.config.intervalMs);
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
        this.config.markets.some((entry) => {
          const [category, symbol] = entry.split(':');
          return category === instrument.category && (symbol === '*' || symbol === instrument.symbol);
        }),
    );
  }

  /** One re-quote of every instrument now (tests call it directly). */
  requote(): Promise<void> {
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
      if (this.failures <= 3 || this.failures % 100 === 0) {
        this.log('liquidity provider error', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  private ownOrders(uid: string, instrument: Instrument): Order[] {
    const orders: Order[] = [];
    for (const order of this.services.sequencer.exchange.state.orders.values()) {
      if (order.uid === uid && order.category === instrument.category && order.symbol === instrument.symbol) {
        orders.push(order);
      }
    }
    return orders;
  }

  private quote(uid: string, instrument: Instrument): Promise<unknown> {
    const state = this.services.sequencer.exchange.state;
    const index = Number(state.indexPrices.get(instrumentKey(instrument.category, instrument.symbol)));
    const targets = index > 0 ? targetLadder(instrument, index, this.config) : [];
    const wanted = new Map(targets.map((quote) => [`${quote.side}|${quote.priceTicks}`, quote]));
    const cancels: OrderReference[] = [];
    for (const order of this.ownOrders(uid, instrument)) {
      const key = `${order.side}|${order.priceTicks}`;
      const target = wanted.get(key);
      const remaining = order.quantityLots - order.filledLots;
      if (target && remaining * 2 >= target.lots) wanted.delete(key);
      else cancels.push({ orderId: order.orderId });
    }
    const places = [...wanted.values()];
    if (cancels.length === 0 && places.length === 0) return Promise.resolve();
    const submissions: Promise<unknown>[] = [];
    const timeMs = this.services.clock.now();
    if (cancels.length > 0) {
      submissions.push(this.services.sequencer.submit({ type: 'CancelOrders', timeMs, uid, items: cancels }));
    }
    for (const need of this.needs(uid, instrument, places)) {
      submissions.push(
        this.services.sequencer.submit({
          type: 'Deposit',
          timeMs,
          uid,
          coin: need.coin,
          amount: need.amount,
          wallet: need.wallet,
          subType: 'internal',
        }),
      );
    }
    if (places.length > 0) {
      submissions.push(
        this.services.sequencer.submit({
          type: 'PlaceOrders',
          timeMs,
          uid,
          category: instrument.category,
          items: places.map((quote) => this.request(instrument, quote)),
        }),
      );
    }
    return Promise.all(submissions);
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
   * Deposits the quotes need beyond what the wallet holds available: four ladders' worth, so
   * top-ups are rare. Futures quotes are margined in the margin coin at their full value.
   */
  private needs(uid: string, instrument: Instrument, places: Quote[]): Need[] {
    const wallet = walletFor(instrument.category);
    const totals = new Map<string, bigint>();
    const add = (coin: string, amount: bigint) => totals.set(coin, (totals.get(coin) ?? 0n) + amount);
    for (const quote of places) {
      const value = quoteValue(instrument, quote.priceTicks, quote.lots);
      // futures: margin per quote is taken at its full value (1x) in the first margin coin;
      // an inverse contract's margin is in base coin, so its value is converted there.
      if (isFutures(instrument.category)) add(instrument.marginCoins[0] ?? instrument.quoteCoin, value);
      else if (quote.side === 'buy') add(instrument.quoteCoin, value);
      else add(instrument.baseCoin, lotsToMoney(instrument, quote.lots));
    }
    const needs: Need[] = [];
    const state = this.services.sequencer.exchange.state;
    for (const [coin, amount] of totals) {
      const balance = state.balances.get(`${uid}|${wallet}|${coin}`);
      const available = balance?.available ?? 0n;
      if (available >= amount) continue;
      const topUp = amount * 4n - available;
      this.log('liquidity provider top-up', { wallet, coin, amount: formatScaled(topUp, MONEY_SCALE) });
      needs.push({ wallet, coin, amount: topUp });
    }
    return needs;
  }
}
