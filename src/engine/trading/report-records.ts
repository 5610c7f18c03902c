/**
 * The order and fill events as the engine emits them: raw figures (integers, ids and references
 * to immutable data), formatted into their decimal-string views on first read, once.
 *
 * Why: formatting every order and fill view (bigint money printed, the average price divided)
 * was about a quarter of the engine's time per order, and the engine's answer needs none of it;
 * the views are read where they are consumed (projection rows, WebSocket pushes). A record reads
 * exactly as the plain event it stands for: `event.order` / `event.fill` is a plain view object,
 * and JSON (`toJSON`, so the codec too) gives the plain event's text, key for key.
 *
 * What a record may keep by reference: the instrument (instruments are replaced, never changed:
 * instruments.ts), an order's fields fixed at opening (OrderIdentity), and values (strings,
 * numbers, bigints). An order's figures that change later are copied when the record is made.
 * The raw fields are private (#): structured cloning drops them, so an event crossing to
 * another thread goes as its JSON (the codec), never as the record itself.
 */
import type { FillRecorded, FillView, OrderUpdated } from '../../domain/events.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { formatMoney } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderView } from '../../domain/order-view.ts';
import { lotsToQuantity, ticksToPrice } from '../instruments/scales.ts';
import { formatOrderView, type OrderFigures, type OrderIdentity } from './order-view.ts';

/** How one side of a trade settled: what its fill record adds to the order and the fill. */
export interface FillOutcome {
  role: 'maker' | 'taker';
  tradeId: string;
  feeCoin: string;
  fee: bigint;
  pnl: bigint;
  /** open / close, or a futures forced close's venue spelling (futures/settle.ts). */
  tradeSide: string;
  /** Futures only. */
  posSide?: string;
  posMode?: string;
}

/** OrderUpdated: the order's figures of this moment; the view made on first read of `order`. */
export class OrderUpdatedRecord implements OrderUpdated {
  readonly type = 'OrderUpdated';
  readonly #instrument: Instrument;
  readonly #identity: OrderIdentity;
  // The figures of the moment, held here rather than in an object of their own (one
  // allocation per event, not two). Presets and futures fields are objects that change in
  // place (futures.realisedPnl): copied.
  readonly #timeInForce: Order['timeInForce'];
  readonly #priceTicks: number;
  readonly #quantityLots: number;
  readonly #quoteAmount: bigint;
  readonly #filledLots: number;
  readonly #filledQuote: bigint;
  readonly #feeCoin: string;
  readonly #feeTotal: bigint;
  readonly #status: Order['status'];
  readonly #cancelReason: Order['cancelReason'];
  readonly #source: Order['source'];
  readonly #updatedTimeMs: number;
  readonly #spotPresets: Order['spotPresets'];
  readonly #loanType: Order['loanType'];
  readonly #futures: Order['futures'];
  #view: OrderView | undefined = undefined;

  constructor(
    instrument: Instrument,
    order: Order,
    readonly created: boolean,
  ) {
    this.#instrument = instrument;
    this.#identity = order;
    this.#timeInForce = order.timeInForce;
    this.#priceTicks = order.priceTicks;
    this.#quantityLots = order.quantityLots;
    this.#quoteAmount = order.quoteAmount;
    this.#filledLots = order.filledLots;
    this.#filledQuote = order.filledQuote;
    this.#feeCoin = order.feeCoin;
    this.#feeTotal = order.feeTotal;
    this.#status = order.status;
    this.#cancelReason = order.cancelReason;
    this.#source = order.source;
    this.#updatedTimeMs = order.updatedTimeMs;
    this.#spotPresets = order.spotPresets ? { ...order.spotPresets } : undefined;
    this.#loanType = order.loanType;
    this.#futures = order.futures ? { ...order.futures } : undefined;
  }

  get order(): OrderView {
    return (this.#view ??= formatOrderView(this.#instrument, this.#identity, this.#figures()));
  }

  /** The plain event, as JSON and the codec write it (the key order of the plain event). */
  toJSON(): OrderUpdated {
    return { type: this.type, order: this.order, created: this.created };
  }

  #figures(): OrderFigures {
    return {
      timeInForce: this.#timeInForce,
      priceTicks: this.#priceTicks,
      quantityLots: this.#quantityLots,
      quoteAmount: this.#quoteAmount,
      filledLots: this.#filledLots,
      filledQuote: this.#filledQuote,
      feeCoin: this.#feeCoin,
      feeTotal: this.#feeTotal,
      status: this.#status,
      cancelReason: this.#cancelReason,
      source: this.#source,
      updatedTimeMs: this.#updatedTimeMs,
      spotPresets: this.#spotPresets,
      loanType: this.#loanType,
      futures: this.#futures,
    };
  }
}

/** FillRecorded: one side of a trade; the view made on first read of `fill`. */
export class FillRecordedRecord implements FillRecorded {
  readonly type = 'FillRecorded';
  readonly #execId: string;
  readonly #instrument: Instrument;
  readonly #order: Pick<Order, 'orderId' | 'clientOid' | 'uid' | 'category' | 'orderType' | 'side'>;
  readonly #priceTicks: number;
  readonly #lots: number;
  readonly #quote: bigint;
  readonly #outcome: Readonly<FillOutcome>;
  readonly #timeMs: number;
  #view: FillView | undefined = undefined;

  /** `outcome` is the caller's own object, not changed after (settle.ts, futures/settle.ts). */
  constructor(
    execId: string,
    instrument: Instrument,
    order: Order,
    fill: { priceTicks: number; lots: number; quote: bigint },
    outcome: Readonly<FillOutcome>,
    timeMs: number,
  ) {
    this.#execId = execId;
    this.#instrument = instrument;
    this.#order = order;
    this.#priceTicks = fill.priceTicks;
    this.#lots = fill.lots;
    this.#quote = fill.quote;
    this.#outcome = outcome;
    this.#timeMs = timeMs;
  }

  get fill(): FillView {
    return (this.#view ??= this.#format());
  }

  toJSON(): FillRecorded {
    return { type: this.type, fill: this.fill };
  }

  #format(): FillView {
    const order = this.#order;
    const outcome = this.#outcome;
    const instrument = this.#instrument;
    return {
      execId: this.#execId,
      tradeId: outcome.tradeId,
      orderId: order.orderId,
      clientOid: order.clientOid,
      uid: order.uid,
      category: order.category,
      symbol: instrument.symbol,
      orderType: order.orderType,
      side: order.side,
      execPrice: ticksToPrice(instrument, this.#priceTicks),
      execQty: lotsToQuantity(instrument, this.#lots),
      execValue: formatMoney(this.#quote),
      tradeScope: outcome.role,
      tradeSide: outcome.tradeSide,
      feeCoin: outcome.feeCoin,
      fee: formatMoney(outcome.fee),
      execPnl: formatMoney(outcome.pnl),
      timeMs: this.#timeMs,
      ...(outcome.posSide ? { posSide: outcome.posSide } : {}),
      ...(outcome.posMode ? { posMode: outcome.posMode } : {}),
    };
  }
}
