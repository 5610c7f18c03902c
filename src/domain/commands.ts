/**
 * Commands: imperative requests to the engine. Every command carries the time it was
 * accepted (`timeMs`, from the clock port); ids the engine hands out come from its own
 * counters, so the same stream always yields the same ids.
 */
import type { AccountKind, AccountMode } from './account.ts';
import type { Category } from './category.ts';
import type { Instrument } from './instrument.ts';

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

export type Command =
  | CreateAccount
  | CreateApiKey
  | ModifyApiKey
  | Deposit
  | Withdraw
  | AddInstrument
  | PatchInstrument
  | SetIndexPrice
  | AdvanceClock;

export type CommandType = Command['type'];
