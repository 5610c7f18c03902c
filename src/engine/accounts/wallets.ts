/** Which wallets an account has: a unified account has its unified wallet and its funding wallet. */
import type { Account } from '../../domain/account.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { parseWalletType } from '../../domain/wallet.ts';
import type { EngineState } from '../state.ts';

/** Whether the account has this wallet; an isolated-margin wallet needs a listed MARGIN symbol. */
export function walletAllowed(account: Account, wallet: string, state?: EngineState): boolean {
  const [typeText, symbol] = wallet.split(':');
  const type = parseWalletType(typeText ?? '');
  if (!type) return false;
  if (account.mode === 'unified') return (type === 'unified' || type === 'funding') && symbol === undefined;
  if (type === 'unified' || type === 'funding') return false;
  if (type !== 'isolated_margin') return symbol === undefined;
  if (!symbol) return false;
  return state === undefined || state.instruments.has(instrumentKey('MARGIN', symbol));
}

/** Where an operator deposit lands when no wallet is named. */
export function defaultWallet(account: Account): string {
  return account.mode === 'unified' ? 'unified' : 'spot';
}
