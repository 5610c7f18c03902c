/**
 * Virtual sub-accounts, made and managed by their main account (v2 `user` endpoints).
 *
 * A virtual sub-account is named `<alias>@virtual-bourse.com` after an alias of 8 English
 * letters; aliases are unique across the venue regardless of case. It has its main account's
 * mode, starts `normal` with perm names spot_trade and contract_trade (the venue's example),
 * and a frozen one is refused at authentication (40013) and in transfers.
 */
import { PERM_NAMES } from '../../domain/account.ts';
import type { CreateVirtualSubAccount, ModifySubAccount } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';

export const VIRTUAL_NAME_DOMAIN = '@virtual-bourse.com';
export const DEFAULT_SUB_PERM_LIST = ['spot_trade', 'contract_trade'];
const ALIAS_PATTERN = /^[A-Za-z]{8}$/;

export function virtualNameOf(alias: string): string {
  return `${alias.toLowerCase()}${VIRTUAL_NAME_DOMAIN}`;
}

export interface CreatedSubAccount {
  uid: string;
  name: string;
}

export function createVirtualSubAccount(
  context: Context,
  command: CreateVirtualSubAccount,
): Outcome<CreatedSubAccount> {
  const { state } = context;
  const parent = state.accounts.get(command.parentUid);
  if (!parent || parent.kind !== 'main') return fail('PERMISSION_DENIED', 'main account');
  if (!ALIAS_PATTERN.test(command.alias)) return fail('PARAM_ERROR', 'subAccountList');
  const name = virtualNameOf(command.alias);
  for (const account of state.accounts.values()) {
    if (account.name === name) return fail('PARAM_ERROR', 'subAccountList');
  }
  const uid = String(state.nextUid);
  state.nextUid += 1;
  const account = {
    uid,
    kind: 'virtual' as const,
    parentUid: parent.uid,
    mode: parent.mode,
    label: '',
    createdTimeMs: context.nowMs,
    name,
    status: 'normal' as const,
    permList: [...DEFAULT_SUB_PERM_LIST],
    updatedTimeMs: context.nowMs,
    // A sub-account starts in the position mode its main account started in.
    ...(parent.positionMode ? { positionMode: parent.positionMode } : {}),
  };
  state.accounts.set(uid, account);
  context.emit({ type: 'AccountCreated', account: { ...account, permList: [...account.permList] } });
  return ok({ uid, name });
}

export function modifySubAccount(context: Context, command: ModifySubAccount): Outcome<{ uid: string }> {
  const account = context.state.accounts.get(command.uid);
  if (!account || account.parentUid !== command.parentUid) return fail('ACCOUNT_NOT_FOUND', 'subAccountUid');
  const names: readonly string[] = PERM_NAMES;
  if (command.permList && command.permList.some((name) => !names.includes(name))) {
    return fail('PARAM_ERROR', 'permList');
  }
  if (command.permList) account.permList = [...new Set(command.permList)];
  if (command.status) account.status = command.status;
  account.updatedTimeMs = context.nowMs;
  return ok({ uid: account.uid });
}
