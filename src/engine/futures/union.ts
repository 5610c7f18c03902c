/**
 * Union (multi-asset) margin on USDT-M futures: with
 * assetMode `union`, coins other than USDT held in the account's usdt_futures wallet count as
 * margin for its USDT-M positions at their USDT value less a 5 % haircut; any listed coin may
 * be transferred in. Switching back to `single` needs the USDT alone to cover what the
 * positions use (GET switch-union-usdt reports the shortfall).
 */
import type { SetAssetMode } from '../../domain/commands.ts';
import { divide } from '../../domain/decimal.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';
import { crossState } from './risk.ts';
import { HAIRCUT_KEEP, isUnion, unionCollateral, UNION_WALLET } from './union-collateral.ts';

export { HAIRCUT_KEEP, isUnion, unionCollateral, UNION_WALLET };

/** USDT the account would need to add to leave union mode: what USDT alone does not cover. */
export function unionShortfall(state: EngineState, books: Books, uid: string): bigint {
  const free =
    crossState(state, books, uid, UNION_WALLET, 'USDT').free - unionCollateral(state, uid, UNION_WALLET);
  return free < 0n ? -free : 0n;
}

/** How much of a collateral coin may leave the union wallet without under-margining it. */
export function collateralTransferable(
  state: EngineState,
  books: Books,
  uid: string,
  coin: string,
  available: bigint,
): bigint {
  const free = crossState(state, books, uid, UNION_WALLET, 'USDT').free;
  const price = usdtPriceOf(state, coin) ?? 0n;
  if (free <= 0n || price === 0n) return 0n;
  const coins = divide(free * MONEY_ONE * MONEY_ONE, price * HAIRCUT_KEEP, 'down');
  return coins < available ? coins : available;
}

export function setAssetMode(
  state: EngineState,
  books: Books,
  command: SetAssetMode,
): Outcome<{ assetMode: string }> {
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', 'uid');
  if (
    command.assetMode === 'single' &&
    isUnion(state, command.uid) &&
    unionShortfall(state, books, command.uid) > 0n
  ) {
    return fail('INSUFFICIENT_BALANCE');
  }
  if (command.assetMode === 'union') state.assetModes.set(command.uid, 'union');
  else state.assetModes.delete(command.uid);
  return ok({ assetMode: command.assetMode });
}
