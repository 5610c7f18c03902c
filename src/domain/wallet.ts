/**
 * Wallets. A classic account has a spot wallet, a crossed-margin wallet, isolated-margin
 * wallets per symbol and one futures wallet per product type; a unified account has one
 * `unified` wallet that backs every category, and a `funding` wallet beside it (the venue's
 * funding account: deposits, withdrawals and converts, no trading; `spot` in its transfers).
 * Wallet ids use the venue's transfer names.
 */
import type { Category } from './category.ts';

export const WALLET_TYPES = [
  'spot',
  'crossed_margin',
  'isolated_margin',
  'usdt_futures',
  'coin_futures',
  'usdc_futures',
  'susdt_futures',
  'scoin_futures',
  'susdc_futures',
  'unified',
  'funding',
] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

/** A wallet id: the type, plus `:SYMBOL` for isolated margin. */
export type WalletId = string;

export function parseWalletType(text: string): WalletType | null {
  const lower = text.toLowerCase();
  return (WALLET_TYPES as readonly string[]).includes(lower) ? (lower as WalletType) : null;
}

/** The product line of a classic wallet; a unified wallet has none of its own ("OTHER"). */
export function categoryOfWallet(wallet: string): string {
  const type = wallet.split(':')[0] ?? '';
  if (type === 'spot') return 'SPOT';
  if (type === 'crossed_margin' || type === 'isolated_margin') return 'MARGIN';
  if (type.endsWith('_futures')) return type.replace('_', '-').toUpperCase();
  return 'OTHER';
}

export function futuresWalletOf(category: Category): WalletType {
  return category.toLowerCase().replace('-', '_') as WalletType;
}

export interface Balance {
  available: bigint;
  frozen: bigint;
  /** Borrowed principal (margin); counts negatively in the conservation invariant. */
  borrowed: bigint;
  /** Accrued, unpaid interest on the borrowed principal. */
  interest: bigint;
  /** Futures: margin held by isolated positions (still the wallet's, not spendable). */
  margin: bigint;
}

export function emptyBalance(): Balance {
  return { available: 0n, frozen: 0n, borrowed: 0n, interest: 0n, margin: 0n };
}

/** What a bill reports as the wallet balance: everything the wallet holds. */
export function walletTotal(balance: Balance): bigint {
  return balance.available + balance.frozen + balance.margin;
}
