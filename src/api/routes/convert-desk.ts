/**
 * The convert desk (docs/wallet.md): quotes from the index prices less the spread, a book of
 * the quotes handed out, and the house account that takes the other side of every trade.
 *
 * A quote lives QUOTE_VALIDITY_MS (the venue's 8 seconds) and is used at most once; the book
 * is in memory only, so a restart forgets quotes (they would have expired anyway) and holds
 * at most MAX_OPEN_QUOTES. The trade command carries the quote's price, amounts and expiry,
 * so the engine checks and executes it without the book (engine/accounts/convert.ts).
 *
 * The house is a classic main account labelled `convert-house`, created on the first trade
 * (journaled like any account). Before a trade it is topped up by operator-style Deposit
 * commands with what it lacks of the coin it pays out, so conservation holds with it.
 */
import { convertCost, convertedAmount, convertPrice, CONVERT_PRICE_SCALE } from '../../domain/convert.ts';
import { divide, formatScaled } from '../../domain/decimal.ts';
import { formatMoney, MONEY_ONE } from '../../domain/money.ts';
import type { ConvertReceipt } from '../../engine/accounts/convert.ts';
import { readBalance } from '../../engine/accounts/ledger.ts';
import type { EngineState } from '../../engine/state.ts';
import { usdtPriceOf } from '../../engine/trading/reference-price.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import { reject, unwrap } from '../request.ts';
import type { Services } from '../services.ts';
import { DEFAULT_CONVERT_SPREAD, parseConvertSettings } from './convert-settings.ts';

export const QUOTE_VALIDITY_MS = 8_000;
export const CONVERT_HOUSE_LABEL = 'convert-house';
/** A trade's value bounds, in USDT (each coin's minAmount and maxAmount are these in the coin). */
export const MIN_CONVERT_USDT = 1n * MONEY_ONE;
export const MAX_CONVERT_USDT = 1_000_000n * MONEY_ONE;
const MAX_OPEN_QUOTES = 100_000;
const HOUSE_WALLET = 'spot';

export interface Quote {
  traceId: string;
  uid: string;
  fromCoin: string;
  toCoin: string;
  fromAmount: bigint;
  toAmount: bigint;
  /** Scaled by CONVERT_PRICE_SCALE. */
  price: bigint;
  expiresAtMs: number;
}

/** Coins a convert trades: those of spot and margin pairs with a USDT value. */
function convertible(state: EngineState): Map<string, bigint> {
  const coins = new Map<string, bigint>();
  for (const instrument of state.instruments.values()) {
    if (instrument.category !== 'SPOT' && instrument.category !== 'MARGIN') continue;
    for (const coin of [instrument.baseCoin, instrument.quoteCoin]) {
      const price = coins.has(coin) ? undefined : usdtPriceOf(state, coin);
      if (price) coins.set(coin, price);
    }
  }
  return coins;
}

export class ConvertDesk {
  private readonly quotes = new Map<string, Quote>();
  private lastTraceMs = 0;
  private traceSequence = 0;
  /** The engine state the quotes and the house were made on (an operator reset replaces it). */
  private made: WeakRef<EngineState> | null = null;

  /** Made with the route table: it reads nothing of the services until a request comes. */
  constructor(private readonly services: Services) {}

  private get spread(): bigint {
    return (
      this.services.convert?.spread ??
      parseConvertSettings({ BOURSE_CONVERT_SPREAD: DEFAULT_CONVERT_SPREAD }).spread
    );
  }

  /**
   * The current engine state. After an operator reset (a new state) the open quotes and the
   * house account are forgotten (convertHouseAccount keys it by state): uids may now name other
   * accounts.
   */
  private get state(): EngineState {
    const state = this.services.sequencer.exchange.state;
    if (this.made?.deref() !== state) {
      this.quotes.clear();
      this.made = new WeakRef(state);
    }
    return state;
  }

  /** The coins a trade may use, with the caller's available balance and the bounds. */
  currencies(uid: string, wallet: string) {
    const rows = [...convertible(this.state)].map(([coin, usdt]) => ({
      coin,
      available: formatMoney(readBalance(this.state, uid, wallet, coin).available),
      maxAmount: formatMoney(divide(MAX_CONVERT_USDT * MONEY_ONE, usdt, 'down')),
      minAmount: formatMoney(divide(MIN_CONVERT_USDT * MONEY_ONE, usdt, 'up')),
    }));
    return rows.sort((a, b) => (a.coin < b.coin ? -1 : 1));
  }

  /** A new quote for `uid`: exactly one of the amounts is given, the other follows. */
  quote(uid: string, fromCoin: string, toCoin: string, amounts: { from?: bigint; to?: bigint }): Quote {
    const coins = convertible(this.state);
    const fromUsdt = coins.get(fromCoin);
    if (fromUsdt === undefined) reject('COIN_NOT_FOUND', fromCoin);
    const toUsdt = coins.get(toCoin);
    if (toUsdt === undefined) reject('COIN_NOT_FOUND', toCoin);
    if (fromCoin === toCoin) reject('PARAM_ERROR', 'toCoin');
    const price = convertPrice(fromUsdt, toUsdt, this.spread);
    if (price <= 0n) reject('PRICE_UNAVAILABLE');
    const fromAmount = amounts.from ?? convertCost(amounts.to ?? 0n, price);
    const toAmount = amounts.to ?? convertedAmount(fromAmount, price);
    const valueUsdt = divide(fromAmount * fromUsdt, MONEY_ONE, 'down');
    if (valueUsdt < MIN_CONVERT_USDT || toAmount <= 0n) reject('QUANTITY_BELOW_MINIMUM', fromCoin);
    if (valueUsdt > MAX_CONVERT_USDT) reject('QUANTITY_ABOVE_MAXIMUM', fromCoin);
    const nowMs = this.services.clock.now();
    const quote = { traceId: this.traceId(nowMs), uid, fromCoin, toCoin, fromAmount, toAmount, price };
    return this.keep({ ...quote, expiresAtMs: nowMs + QUOTE_VALIDITY_MS });
  }

  /** The quote `traceId` of `uid`, removed from the book (a quote is used once). */
  take(uid: string, traceId: string): Quote {
    if (!this.state.accounts.has(uid)) reject('PARAM_NOT_EXIST', 'traceId');
    const quote = this.quotes.get(traceId);
    if (!quote || quote.uid !== uid) reject('PARAM_NOT_EXIST', 'traceId');
    this.quotes.delete(traceId);
    return quote;
  }

  /** Executes a quote: tops the house up with what it lacks, then the ConvertCoins command. */
  async trade(quote: Quote): Promise<ConvertReceipt> {
    const timeMs = this.services.clock.now();
    if (timeMs > quote.expiresAtMs) reject('QUOTE_EXPIRED', 'traceId');
    // Checked again by the engine; here so that a refused trade does not top the house up.
    const wallet = tradingWallet(this.state, quote.uid, 'SPOT');
    const available = readBalance(this.state, quote.uid, wallet, quote.fromCoin).available;
    if (available < quote.fromAmount) reject('INSUFFICIENT_BALANCE');
    const houseUid = await this.houseAccount();
    const held = readBalance(this.state, houseUid, HOUSE_WALLET, quote.toCoin).available;
    if (held < quote.toAmount) {
      const amount = quote.toAmount * 2n - held;
      const topUp = { uid: houseUid, coin: quote.toCoin, amount, wallet: HOUSE_WALLET };
      unwrap(
        await this.services.sequencer.submit({ type: 'Deposit', timeMs, ...topUp, subType: 'internal' }),
      );
    }
    const { uid, fromCoin, toCoin, fromAmount, toAmount, traceId, expiresAtMs } = quote;
    const price = formatScaled(quote.price, CONVERT_PRICE_SCALE);
    return unwrap(
      await this.services.sequencer.submit<ConvertReceipt>({
        type: 'ConvertCoins',
        timeMs,
        uid,
        houseUid,
        fromCoin,
        toCoin,
        fromAmount,
        toAmount,
        price,
        traceId,
        expiresAtMs,
      }),
    );
  }

  /** Adds a quote, dropping the expired ones (oldest first) and the oldest beyond the bound. */
  private keep(quote: Quote): Quote {
    const nowMs = quote.expiresAtMs - QUOTE_VALIDITY_MS;
    for (const [traceId, old] of this.quotes) {
      if (old.expiresAtMs >= nowMs && this.quotes.size < MAX_OPEN_QUOTES) break;
      this.quotes.delete(traceId);
    }
    this.quotes.set(quote.traceId, quote);
    return quote;
  }

  /** Numeric and unique within this process: the quote's ms and a sequence within it. */
  private traceId(nowMs: number): string {
    if (nowMs !== this.lastTraceMs) this.traceSequence = 0;
    this.lastTraceMs = nowMs;
    this.traceSequence += 1;
    return `${nowMs}${String(this.traceSequence).padStart(6, '0')}`;
  }

  /** The house account: found by label, else created (journaled), once. */
  private houseAccount(): Promise<string> {
    return convertHouseAccount(this.services);
  }
}

/**
 * The house account being found or created, per engine state (an operator reset makes a new
 * state, whose uids may name other accounts); shared by convert and margin repay.
 */
const houses = new WeakMap<EngineState, Promise<string>>();

/** The convert house: found by label, else created (journaled), once per engine state. */
export function convertHouseAccount(services: Services): Promise<string> {
  const state = services.sequencer.exchange.state;
  let house = houses.get(state);
  if (!house) {
    house = findOrCreateHouse(services).catch((error: unknown) => {
      houses.delete(state);
      throw error;
    });
    houses.set(state, house);
  }
  return house;
}

async function findOrCreateHouse(services: Services): Promise<string> {
  for (const account of services.sequencer.exchange.state.accounts.values()) {
    if (account.label === CONVERT_HOUSE_LABEL && account.kind === 'main') return account.uid;
  }
  const created = await services.sequencer.submit<{ uid: string }>({
    type: 'CreateAccount',
    timeMs: services.clock.now(),
    kind: 'main',
    parentUid: null,
    mode: 'classic',
    label: CONVERT_HOUSE_LABEL,
  });
  return unwrap(created).uid;
}
