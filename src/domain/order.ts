/**
 * Orders and their lifecycle. Status changes go through ORDER_TRANSITIONS and nothing else:
 *
 *   live ──► partially_filled ──► filled
 *     │              │
 *     └──────────────┴──────────► cancelled
 *
 * (`live` → `filled` directly when one match fills the whole order.)
 */
import type { LoanType } from './commands.ts';
import type { Category } from './category.ts';
import type { PlanPreset } from './plan.ts';

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';
export type StpMode = 'none' | 'cancel_taker' | 'cancel_maker' | 'cancel_both';
export type OrderStatus = 'live' | 'partially_filled' | 'filled' | 'cancelled';

export const ORDER_SIDES: readonly OrderSide[] = ['buy', 'sell'];
export const ORDER_TYPES: readonly OrderType[] = ['limit', 'market'];
export const TIMES_IN_FORCE: readonly TimeInForce[] = ['gtc', 'ioc', 'fok', 'post_only'];
export const STP_MODES: readonly StpMode[] = ['none', 'cancel_taker', 'cancel_maker', 'cancel_both'];

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  live: ['partially_filled', 'filled', 'cancelled'],
  partially_filled: ['partially_filled', 'filled', 'cancelled'],
  filled: [],
  cancelled: [],
};

export function isOpenStatus(status: OrderStatus): boolean {
  return status === 'live' || status === 'partially_filled';
}

export type CancelReason =
  | ''
  | 'normal_cancel'
  | 'ioc_cancel'
  | 'fok_cancel'
  | 'post_only_cancel'
  | 'stp_cancel'
  | 'market_cancel'
  | 'modify_cancel'
  | 'liquidation_cancel';

export interface Order {
  orderId: string;
  clientOid: string;
  uid: string;
  category: Category;
  symbol: string;
  /** The wallet that funds the order. */
  wallet: string;
  side: OrderSide;
  orderType: OrderType;
  timeInForce: TimeInForce;
  stpMode: StpMode;
  /** Limit price in ticks; 0 for market orders. */
  priceTicks: number;
  /** Ordered base quantity in lots; 0 for a market buy by quote amount. */
  quantityLots: number;
  /** Market buy: quote amount to spend, money units; 0n otherwise. */
  quoteAmount: bigint;
  filledLots: number;
  /** Quote value filled, money units. */
  filledQuote: bigint;
  feeCoin: string;
  /** Fees charged so far, money units of feeCoin (positive = paid). */
  feeTotal: bigint;
  status: OrderStatus;
  cancelReason: CancelReason;
  /** Coin and amount still held for this order. */
  holdCoin: string;
  holdAmount: bigint;
  /** Time priority in the book. */
  sequence: number;
  /**
   * Where it came from: `normal` or the venue's delegate types (e.g. `liquidation`); `plan` for
   * a trigger or trailing order, the plan type for a TP/SL plan's order (engine/triggers);
   * `adl` for the close the risk engine places for a deleveraged position (engine/futures/adl.ts).
   */
  source:
    | 'normal'
    | 'liquidation'
    | 'adl'
    | 'delivery'
    | 'plan'
    | 'profit_plan'
    | 'loss_plan'
    | 'pos_profit'
    | 'pos_loss'
    | 'moving_plan';
  /** Futures only (absent on spot and margin orders). */
  futures?: FuturesOrderFields;
  /** Spot only: TP/SL presets as accepted; a TP/SL pair once the order is done (engine/triggers/spot-presets.ts). */
  spotPresets?: { takeProfit?: PlanPreset; stopLoss?: PlanPreset };
  /** Margin orders only: whether it borrows and repays (absent: autoLoan, the v3 default). */
  loanType?: LoanType;
  createdTimeMs: number;
  updatedTimeMs: number;
}

/** What a futures order does to positions. */
export interface FuturesOrderFields {
  /** The position side it opens or closes; in one-way mode the side it would open. */
  holdSide: 'long' | 'short';
  /** open: adds to holdSide; close: reduces holdSide (hedge close, one-way reduce-only). */
  tradeSide: 'open' | 'close';
  reduceOnly: boolean;
  posMode: 'one_way_mode' | 'hedge_mode';
  marginMode: 'crossed' | 'isolated';
  leverage: number;
  marginCoin: string;
  /** Realised PnL of the order's closing fills, money units. */
  realisedPnl: bigint;
  /** TP/SL presets as accepted (on the price grid); they become position TP/SL on the first fill. */
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
}

export function transition(order: Order, next: OrderStatus): void {
  if (!ORDER_TRANSITIONS[order.status].includes(next)) {
    throw new Error(`order ${order.orderId}: illegal transition ${order.status} → ${next}`);
  }
  order.status = next;
}

/** The clientOid pattern of the unified API (the venue's): 1 to 32 of . A-Z : / a-z 0-9 _ -. */
export const CLIENT_OID_PATTERN = /^[.A-Z:/a-z0-9_-]{1,32}$/;

/** clientOid idempotency window (spec, Limits): six hours. */
export const CLIENT_OID_WINDOW_MS = 6 * 60 * 60 * 1000;

/** Open orders per business line: futures, and spot + margin. */
export const MAX_OPEN_ORDERS_PER_LINE = 400;
