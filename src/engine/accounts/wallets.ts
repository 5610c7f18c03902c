/** Which wallets an account has: unified accounts have exactly one. */
import type { Account } from '../../domain/account.ts';
import { parseWalletType } from '../../domain/wallet.ts';

export function walletAllowed(account: Account, wallet: string): boolean {
  const [typeText, symbol] = wallet.split(':');
  const type = parseWalletType(typeText ?? '');
  if (!type) return false;
  if (account.mode === 'unified') return type === 'unified';
  if (type === 'unified') return false;
  return type === 'isolated_margin' ? Boolean(symbol) : symbol === undefined;
}

/** Where an operator deposit lands when no wallet is named. */
export function defaultWallet(account: Account): string {
  return account.mode === 'unified' ? 'unified' : 'spot';
}
