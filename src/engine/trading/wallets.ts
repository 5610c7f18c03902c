/** Which wallet funds an order: the spot or crossed-margin wallet, or a unified account's one. */
import type { Account } from '../../domain/account.ts';
import type { Category } from '../../domain/category.ts';
import type { EngineState } from '../state.ts';
import { futuresWalletOf } from '../../domain/wallet.ts';

export function tradingWallet(state: EngineState, uid: string, category: Category): string {
  return tradingWalletOf(state.accounts.get(uid), category);
}

/** `tradingWallet` for an account already in hand (order entry has looked it up). */
export function tradingWalletOf(account: Pick<Account, 'mode'> | undefined, category: Category): string {
  if (account?.mode === 'unified') return 'unified';
  if (category === 'SPOT') return 'spot';
  if (category === 'MARGIN') return 'crossed_margin';
  return futuresWalletOf(category);
}
