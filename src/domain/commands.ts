/**
 * Commands: imperative requests to the engine. Every command carries the time it was
 * accepted (`timeMs`, from the clock port); ids the engine hands out come from its own
 * counters, so the same stream always yields the same ids.
 */
import type { AccountKind, AccountMode } from './account.ts';
import type { Category } from './category.ts';
import type { Instrument } from './instrument.ts';
import type { OrderSide, OrderType, StpMode, TimeInForce } from './order.ts';

interface Base {
  timeMs: number;
}

export interface CreateAccount extends Base {
  type: 'CreateAccount';
  kind: AccountKind;
  parentUid: string | null;
  mode: AccountMode;
  label: string;
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
}

/** Operator deposit: coins enter the system (`amount` in minor units). */
export interface Deposit extends Base {
  type: 'Deposit';
  uid: string;
  coin: string;
  amount: bigint;
  wallet: string;
  subType: 'onchain' | 'internal' | 'fast';
}

export interface Withdraw extends Base {
  type: 'Withdraw';
  uid: string;
  coin: string;
  amount: bigint;
  wallet: string;
  subType: 'onchain' | 'internal' | 'fast';
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

/** Moves simulated time forward; time-driven jobs (funding, interest, delivery) run on it. */
export interface AdvanceClock extends Base {
  type: 'AdvanceClock';
  ms: number;
}

/** One order of a placement, fields as sent (decimal strings), already enum-normalised. */
export interface OrderRequest {
  clientOid?: string;
  symbol: string;
  side: OrderSide;
  orderType: OrderType;
  timeInForce: TimeInForce;
  stpMode: StpMode;
  price?: string;
  /** Base quantity (limit, market sell) or quote amount (market buy), as the spec defines. */
  quantity: string;
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
}

/** Repays margin debt (interest first, then principal) from the wallet's own coin. */
export interface RepayDebt extends Base {
  type: 'RepayDebt';
  uid: string;
  coins: string[];
}

export type Command =
  | CreateAccount
  | CreateApiKey
  | ModifyApiKey
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
  | RepayDebt;

export type CommandType = Command['type'];
