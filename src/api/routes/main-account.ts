/**
 * Guards of the sub-account and broker endpoints: only a main account may manage
 * sub-accounts (40014 otherwise), and the v2 `user` endpoints and sub-account transfers want
 * the main account's key bound to at least one IP (40018 otherwise), as the venue documents.
 */
import type { Account } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';
import { caller, reject, type ApiRequest, type Caller } from '../request.ts';

export function mainAccountCaller(request: ApiRequest, requireIpBinding: boolean): Caller {
  const who = caller(request);
  if (who.account.kind !== 'main') reject('PERMISSION_DENIED', 'main account');
  if (requireIpBinding && who.key.ipList.length === 0) reject('IP_BINDING_REQUIRED');
  return who;
}

/** A sub-account of `parentUid` (of the given kinds), or 40034 naming `field`. */
export function childAccount(
  state: EngineState,
  parentUid: string,
  uid: string,
  kinds: readonly Account['kind'][],
  field = 'subAccountUid',
): Account {
  const account = state.accounts.get(uid);
  if (!account || account.parentUid !== parentUid || !kinds.includes(account.kind)) {
    reject('ACCOUNT_NOT_FOUND', field);
  }
  return account;
}

export function hasChildren(state: EngineState, uid: string): boolean {
  for (const account of state.accounts.values()) if (account.parentUid === uid) return true;
  return false;
}
