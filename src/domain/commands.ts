/**
 * Commands: imperative requests to the engine. Every command carries the time it was
 * accepted (`timeMs`, from the clock port); ids the engine hands out come from its own
 * counters, so the same stream always yields the same ids.
 */
import type { AccountKind, AccountMode } from './account.ts';
import type { Category } from './category.ts';
import type { FundingRoute } from './funding.ts';
import type { Instrument } from './instrument.ts';
import type { OrderSide, OrderType, StpMode, TimeInForce } from './order.ts';
import type { PlanPreset, PlanType, TriggerType } from './plan.ts';
import type { HoldSide, PositionMode } from './position.ts';

interface Base {
  timeMs: number;
}

export interface CreateAccount extends Base {
  type: 'CreateAccount';
  kind: AccountKind;
  parentUid: string | null;
  mode: AccountMode;
  label: string;
  /**
   * The futures position mode the account starts in, every product type (the edge sends the
   * configured one, the venue's hedge mode by default). Absent — journals written before
   * 2026-11-25, and internal accounts such as the liquidity provider's — means one-way.
   */
  positionMode?: PositionMode;
}

export interface CreateApiKey extends Base {
  type: 'CreateApiKey';
  uid: string;
  apiKey: string;
  secretCipher: string;
  passphraseHash: string;
  permissions: string[];
  ipList: string[];
  label: string;
}

export interface ModifyApiKey extends Base {
  type: 'ModifyApiKey';
  uid: string;
  apiKey: string;
  permissions?: string[];
  ipList?: string[];
  label?: string;
  passphraseHash?: string;
  /** true freezes the key (every request with it is refused), false lets it work again. */
  frozen?: boolean;
}

/** Deletes an API key for good (the operator's revoke). */
export interface RevokeApiKey extends Base {
  type: 'RevokeApiKey';
  uid: string;
  apiKey: string;
}

/** Operator deposit: coins enter the system (`amount` in minor units). */
export interface Deposit extends Base {
  type: 'Deposit';
  uid: string;
  coin: string;
  amount: bigint;
  wallet: string;
  subType: 'onchain' | 'internal' | 'fast';
  /** `pending`: recorded, credited only when the operator settles it (SettleFunding). */
  status?: 'pending' | 'success';
  /** Chain, addresses and ids of the record (a credited deposit address is checked). */
  route?: FundingRoute;
}

export interface Withdraw extends Base {
  type: 'Withdraw';
  uid: string;
  coin: string;
  amount: bigint;
  wallet: string;
  subType: 'onchain' | 'internal' | 'fast';
  /** `pending`: the amount is frozen until the operator settles it (fail returns it). */
  status?: 'pending' | 'success';
  /** Chain, address, tag and clientOid of a user's request; `toUid` for an internal one. */
  route?: FundingRoute;
}

export interface AddInstrument extends Base {
  type: 'AddInstrument';
  instrument: Instrument;
}

export interface PatchInstrument extends Base {
  type: 'PatchInstrument';
  category: Category;
  symbol: string;
  changes: Partial<Instrument>;
}

export interface SetIndexPrice extends Base {
  type: 'SetIndexPrice';
  category: Category;
  symbol: string;
  /** Decimal string, validated against the instrument's price precision at the edge. */
  indexPrice: string;
}

/**
 * One price stream's path over an advance of the clock: price k (a decimal text, rounded to
 * each instrument's precision by the engine) is the index of every listed instrument at
 * `firstMs + k × intervalMs`.
 */
export interface PricePathStream {
  instruments: { category: Category; symbol: string }[];
  firstMs: number;
  intervalMs: number;
  prices: string[];
}

/**
 * Moves simulated time forward; time-driven jobs (funding, interest, delivery) run on it. With
 * a `path` the clock walks it: every step in time order is its own moment, at which the jobs
 * run, the index prices are set and triggers and liquidation are evaluated.
 */
export interface AdvanceClock extends Base {
  type: 'AdvanceClock';
  ms: number;
  path?: PricePathStream[];
}

export const LOAN_TYPES = ['normal', 'autoLoan', 'autoRepay', 'autoLoanAndRepay'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];

/** One order of a placement, fields as sent (decimal strings), already enum-normalised. */
export interface OrderRequest {
  clientOid?: string;
  symbol: string;
  side: OrderSide;
  orderType: OrderType;
  timeInForce: TimeInForce;
  stpMode: StpMode;
  price?: string;
  /** Base quantity (limit, market sell) or quote amount (market buy), as the venue defines. */
  quantity: string;
  /** Futures: the position side (hedge mode; v3 posSide). `side` is always the trade direction. */
  posSide?: 'long' | 'short';
  /** Futures, one-way mode: the order may only reduce the position. */
  reduceOnly?: boolean;
  /** Futures: must match the symbol's margin mode when given. */
  marginMode?: 'crossed' | 'isolated';
  marginCoin?: string;
  /**
   * Margin: whether the order borrows what the wallet lacks (autoLoan, autoLoanAndRepay) and
   * repays debt from what it receives (autoRepay, autoLoanAndRepay); `normal` does neither.
   * Absent: autoLoan (v3 MARGIN orders borrow as the venue's unified margin does).
   */
  loanType?: LoanType;
  /**
   * Futures orders that open a position: the take-profit and stop-loss it should carry. When
   * the order first fills they become the position's pos_profit / pos_loss plans
   * (engine/triggers/order-presets.ts). Trigger prices, not percentages.
   */
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
}

/** Places one or more orders of one category; each item succeeds or fails on its own. */
export interface PlaceOrders extends Base {
  type: 'PlaceOrders';
  uid: string;
  category: Category;
  items: OrderRequest[];
}

export interface OrderReference {
  orderId?: string;
  clientOid?: string;
  /** When given, the order must be of this symbol (and category). */
  symbol?: string;
  category?: Category;
  /** When given, the order must trade from this wallet (v2 margin: crossed or one isolated). */
  wallet?: string;
}

export interface CancelOrders extends Base {
  type: 'CancelOrders';
  uid: string;
  items: OrderReference[];
}

export interface CancelAllOrders extends Base {
  type: 'CancelAllOrders';
  uid: string;
  categories: Category[];
  symbol?: string;
}

export interface ModifyOrder extends Base {
  type: 'ModifyOrder';
  uid: string;
  order: OrderReference;
  /** New total quantity (base), as sent. */
  quantity?: string;
  price?: string;
  autoCancel: boolean;
  /** The order's TP/SL presets: undefined keeps, null removes, a value replaces. */
  takeProfit?: PlanPreset | null;
  stopLoss?: PlanPreset | null;
}

/**
 * Repays margin debt (interest first, then principal) from the wallet's own coin, then with
 * `paymentCoins` other than the debt coins, converted at the index price against the convert
 * house (`houseUid`, required with them).
 */
export interface RepayDebt extends Base {
  type: 'RepayDebt';
  uid: string;
  coins: string[];
  paymentCoins?: string[];
  houseUid?: string;
}

/** v2 margin: which wallet a request acts on (isolated: the symbol's own wallet). */
export type MarginType = 'crossed' | 'isolated';

/** Borrows `amount` (decimal text) of a coin into the crossed or a symbol's isolated wallet. */
export interface BorrowMargin extends Base {
  type: 'BorrowMargin';
  uid: string;
  marginType: MarginType;
  symbol?: string;
  coin: string;
  amount: string;
}

/** Repays up to `amount` (decimal text) of a coin's debt, interest first, from the same coin. */
export interface RepayMargin extends Base {
  type: 'RepayMargin';
  uid: string;
  marginType: MarginType;
  symbol?: string;
  coin: string;
  amount: string;
}

/** Repays every debt of the crossed wallet (or the isolated ones, or one symbol's) at once. */
export interface FlashRepay extends Base {
  type: 'FlashRepay';
  uid: string;
  marginType: MarginType;
  coin?: string;
  symbol?: string;
}

export interface SetLeverage extends Base {
  type: 'SetLeverage';
  uid: string;
  category: Category;
  symbol: string;
  /** Both sides (and cross) when given; else the per-side values. */
  leverage?: number;
  longLeverage?: number;
  shortLeverage?: number;
}

export interface SetMarginMode extends Base {
  type: 'SetMarginMode';
  uid: string;
  category: Category;
  symbol: string;
  marginMode: 'crossed' | 'isolated';
}

export interface SetPositionMode extends Base {
  type: 'SetPositionMode';
  uid: string;
  category: Category;
  posMode: 'one_way_mode' | 'hedge_mode';
}

/** Adds (amount > 0) or removes (amount < 0) isolated margin of a position. */
export interface AdjustMargin extends Base {
  type: 'AdjustMargin';
  uid: string;
  category: Category;
  symbol: string;
  holdSide: 'long' | 'short';
  amount: bigint;
}

/** Operator: fixes the funding rate of a perpetual (null: back to the computed rate). */
export interface SetFundingRate extends Base {
  type: 'SetFundingRate';
  category: Category;
  symbol: string;
  rate: string | null;
}

/**
 * Moves funds between two wallets of one account (`wallet`), or between a main account and
 * its sub-accounts or two of its sub-accounts (`sub`, asked by the main account). Wallet ids
 * as in domain/wallet.ts (`isolated_margin:BTCUSDT`).
 */
export interface TransferFunds extends Base {
  type: 'TransferFunds';
  /** Who asks: the wallets' owner, or the main account of a sub-account transfer. */
  uid: string;
  kind: 'wallet' | 'sub';
  fromUid: string;
  toUid: string;
  fromWallet: string;
  toWallet: string;
  coin: string;
  amount: bigint;
  /** The client's idempotency key; '' when none was sent. */
  clientOid: string;
}

/** A main account creates a virtual sub-account named after `alias` (8 English letters). */
export interface CreateVirtualSubAccount extends Base {
  type: 'CreateVirtualSubAccount';
  parentUid: string;
  alias: string;
}

/** A main account changes a sub-account's perm names and/or status. */
export interface ModifySubAccount extends Base {
  type: 'ModifySubAccount';
  parentUid: string;
  uid: string;
  permList?: string[];
  status?: 'normal' | 'freeze';
}

/** Operator: a pending deposit or withdrawal succeeds or fails. */
export interface SettleFunding extends Base {
  type: 'SettleFunding';
  recordId: string;
  status: 'success' | 'fail';
}

/** The account cancels its own pending withdrawal (by record id, else by clientOid). */
export interface CancelWithdrawal extends Base {
  type: 'CancelWithdrawal';
  uid: string;
  recordId?: string;
  clientOid?: string;
}

/** Operator: makes a main account an agent (affiliate) with rebate rates (money scale, 1 = 100 %). */
export interface RegisterAgent extends Base {
  type: 'RegisterAgent';
  uid: string;
  rebateRate: bigint;
  /** Per product line rates that replace `rebateRate` for that line. */
  lineRates: { spot?: bigint; margin?: bigint; futures?: bigint };
}

/** Operator: records that an agent referred a customer (a main account). */
export interface ReferCustomer extends Base {
  type: 'ReferCustomer';
  agentUid: string;
  customerUid: string;
}

/** Operator: the KYC result of an account. */
export interface SetKycResult extends Base {
  type: 'SetKycResult';
  uid: string;
  result: 'passed' | 'not_passed';
}

/**
 * One plan order (docs/triggers.md), fields as sent, already in engine terms: `side` is the
 * trade direction of the order it will place and `posSide` its position side in hedge mode.
 * TP/SL plans (profit_plan, loss_plan, pos_profit, pos_loss, moving_plan): `posSide` is the
 * position they protect (in either mode) and `side` is ignored.
 */
export interface PlanRequest {
  planType: PlanType;
  symbol: string;
  clientOid?: string;
  triggerType: TriggerType;
  /** Trigger price; trailing plans: the activation price. */
  triggerPrice: string;
  orderType: OrderType;
  /** Limit price of the order it places. */
  price?: string;
  /** Base quantity; absent for whole-position TP/SL (pos_profit, pos_loss). */
  size?: string;
  side: OrderSide;
  posSide?: 'long' | 'short';
  reduceOnly?: boolean;
  marginMode?: 'crossed' | 'isolated';
  marginCoin?: string;
  stpMode: StpMode;
  /** Trailing plans: the callback ratio in percent (at most 10). */
  callbackRatio?: string;
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
  /** Spot plans: `size` in base coin (`amount`, the default) or quote coin (`total`). */
  sizeUnit?: 'amount' | 'total';
  /** Spot plans: the time in force of the limit order it places (gtc by default). */
  timeInForce?: TimeInForce;
}

/** Places plan orders; all items stand or fall together (a TP and SL pair is one request). */
export interface PlacePlanOrders extends Base {
  type: 'PlacePlanOrders';
  uid: string;
  category: Category;
  items: PlanRequest[];
  /** v3 strategy orders: the items form one group (one orderId, cancelled together). */
  grouped?: boolean;
}

export interface PlanReference {
  planId?: string;
  clientOid?: string;
}

/** Cancels the listed plans (each on its own), or every plan matching the filter. */
export interface CancelPlanOrders extends Base {
  type: 'CancelPlanOrders';
  uid: string;
  category: Category;
  symbol?: string;
  /** Only plans of these symbols (absent: `symbol`, else any). */
  symbols?: string[];
  /** Only plans of these types (empty: any type). */
  planTypes: PlanType[];
  items?: PlanReference[];
}

/**
 * Replaces the legs of a plan group (a v3 strategy order) at once: the old legs end
 * (cancelled, marked replaced), the new ones join the group under its id and clientOid.
 */
export interface ReplacePlanGroup extends Base {
  type: 'ReplacePlanGroup';
  uid: string;
  category: Category;
  reference: PlanReference;
  items: PlanRequest[];
}

/** Changes a live plan. Presets: undefined keeps, null removes, a value replaces. */
export interface ModifyPlanOrder extends Base {
  type: 'ModifyPlanOrder';
  uid: string;
  category: Category;
  reference: PlanReference;
  symbol?: string;
  planTypes: PlanType[];
  size?: string;
  /** Limit price of the order it places ('' or '0' turns a limit plan into a market plan: not allowed). */
  price?: string;
  /** Spot plans: a new order type (limit needs `price`). */
  orderType?: OrderType;
  callbackRatio?: string;
  triggerPrice?: string;
  triggerType?: TriggerType;
  takeProfit?: PlanPreset | null;
  stopLoss?: PlanPreset | null;
}

/** USDT-M futures asset mode: `union` lets other coins in the wallet count as margin. */
export interface SetAssetMode extends Base {
  type: 'SetAssetMode';
  uid: string;
  assetMode: 'single' | 'union';
}

/**
 * Closes the account's positions of a product line at market (one order per position, at the
 * book): all of them, those of `symbol`, and only the `holdSide` side when given.
 */
export interface ClosePositions extends Base {
  type: 'ClosePositions';
  uid: string;
  category: Category;
  symbol?: string;
  holdSide?: HoldSide;
}

/** v2 futures modify: cancel the open order and place its replacement, in one step. */
export interface ReplaceOrder extends Base {
  type: 'ReplaceOrder';
  uid: string;
  order: OrderReference;
  /** New total quantity and price, as sent; absent keeps the old one. */
  quantity?: string;
  price?: string;
  newClientOid?: string;
  /** The replacement's TP/SL presets: undefined keeps the old order's, null removes, a value replaces. */
  takeProfit?: PlanPreset | null;
  stopLoss?: PlanPreset | null;
}

/**
 * A convert trade (docs/wallet.md) at a price the edge quoted: the account's `fromAmount`
 * goes to the house account and the house's `toAmount` comes back. The engine checks the
 * quote's expiry against its clock and that `toAmount` is within the quoted price.
 */
export interface ConvertCoins extends Base {
  type: 'ConvertCoins';
  uid: string;
  /** The house account that takes the other side. */
  houseUid: string;
  fromCoin: string;
  toCoin: string;
  fromAmount: bigint;
  toAmount: bigint;
  /** toCoin per fromCoin, a decimal text of at most CONVERT_PRICE_SCALE places. */
  price: string;
  traceId: string;
  expiresAtMs: number;
}

export type Command =
  | CreateAccount
  | ConvertCoins
  | TransferFunds
  | CreateVirtualSubAccount
  | ModifySubAccount
  | SettleFunding
  | CancelWithdrawal
  | RegisterAgent
  | ReferCustomer
  | SetKycResult
  | CreateApiKey
  | ModifyApiKey
  | RevokeApiKey
  | Deposit
  | Withdraw
  | AddInstrument
  | PatchInstrument
  | SetIndexPrice
  | AdvanceClock
  | PlaceOrders
  | CancelOrders
  | CancelAllOrders
  | ModifyOrder
  | ReplaceOrder
  | ClosePositions
  | RepayDebt
  | BorrowMargin
  | RepayMargin
  | FlashRepay
  | SetLeverage
  | SetMarginMode
  | SetPositionMode
  | AdjustMargin
  | SetFundingRate
  | SetAssetMode
  | PlacePlanOrders
  | CancelPlanOrders
  | ModifyPlanOrder
  | ReplacePlanGroup;

export type CommandType = Command['type'];
