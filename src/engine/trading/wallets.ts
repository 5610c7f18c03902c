/** Which wallet funds an order: the spot or crossed-margin wallet, or a unified account's one. */
import type { Category } from '../../domain/category.ts';
import type { EngineState } from '../state.ts';
import { futuresWalletOf } from '../../domain/wallet.ts';

export function tradingWallet(state: EngineState, uid: string, category: Category): string {
  if (state.accounts.get(uid)?.mode === 'unified') return 'unified';
  if (category === 'SPOT') return 'spot';
  if (category === 'MARGIN') return 'crossed_margin';
  return futuresWalletOf(category);
}
