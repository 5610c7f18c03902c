/**
 * Deposits and withdrawals as the wallet records show them (docs/wallet.md): the chain, the
 * addresses, the tag and the client's id, and the deposit addresses bourse hands out.
 *
 * A deposit address is derived from the account, coin and chain alone, so it is the same on
 * every call and after every restart with nothing stored: `0x` and the hex digits of
 * `uid:COIN:CHAIN`. It decodes back, which is how the operator credits an address. Chain
 * names are upper-cased (`trc20` and `TRC20` are one chain); `:` cannot occur in any part.
 */

/** What a deposit or withdrawal command may say about its route (all optional). */
export interface FundingRoute {
  /** Chain name, upper case (normalizeChain). */
  chain?: string;
  /** Deposit: the bourse deposit address credited; withdrawal: where the coins go. */
  address?: string;
  /** Deposit: the sending address, as the operator states it. */
  fromAddress?: string;
  tag?: string;
  /** Withdrawal: the client's id (unique per account). */
  clientOid?: string;
  /** The chain transaction id, as the operator states it (one is made up otherwise). */
  txId?: string;
  /** Withdrawal to another bourse account (transferType internal_transfer): its uid. */
  toUid?: string;
}

/** The venue's `dest` of a record: on chain, to or from another account, or fast. */
export type FundingDest = 'on_chain' | 'internal_transfer' | 'fast';

/** A wallet record's route fields, resolved (empty texts where nothing applies). */
export interface FundingDetail {
  dest: FundingDest;
  chain: string;
  toAddress: string;
  fromAddress: string;
  tag: string;
  clientOid: string;
  /** Internal withdrawal: the receiving account ('' otherwise). */
  toUid: string;
}

const CHAIN_PATTERN = /^[A-Za-z0-9_.-]{1,32}$/;
const COIN_PATTERN = /^[A-Z0-9]{1,20}$/;
const UID_PATTERN = /^\d{1,20}$/;

/** A chain name in its one spelling (upper case), or null when it cannot be one. */
export function normalizeChain(text: string): string | null {
  return CHAIN_PATTERN.test(text) ? text.toUpperCase() : null;
}

/** The chain a coin's deposits use when none is named: the coin's own (the coins list's). */
export function defaultChain(coin: string): string {
  return coin;
}

function hexOf(text: string): string {
  let hex = '';
  for (let index = 0; index < text.length; index += 1) {
    hex += text.charCodeAt(index).toString(16).padStart(2, '0');
  }
  return hex;
}

function textOfHex(hex: string): string {
  let text = '';
  for (let index = 0; index < hex.length; index += 2) {
    text += String.fromCharCode(parseInt(hex.slice(index, index + 2), 16));
  }
  return text;
}

/** The deposit address of an account for a coin on a chain (both upper case). */
export function depositAddress(uid: string, coin: string, chain: string): string {
  return `0x${hexOf(`${uid}:${coin}:${chain}`)}`;
}

/** Who an address belongs to, or null when it is not a bourse deposit address. */
export function parseDepositAddress(address: string): { uid: string; coin: string; chain: string } | null {
  if (!/^0x(?:[0-9a-f]{2}){5,80}$/.test(address)) return null;
  const [uid = '', coin = '', chain = '', ...rest] = textOfHex(address.slice(2)).split(':');
  if (rest.length > 0 || !UID_PATTERN.test(uid) || !COIN_PATTERN.test(coin)) return null;
  if (normalizeChain(chain) !== chain) return null;
  return { uid, coin, chain };
}
