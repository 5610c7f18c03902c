/**
 * A main account's view of its sub-accounts' wallets: `subUid` names one of its sub-accounts
 * (virtual or not); anything else is 40034 naming `subUid`, and a sub-account asking is 40014.
 * Used by the sub-account deposit address and deposit record routes (wallet.ts,
 * wallet-records.ts).
 */
import type { EngineState } from '../../engine/state.ts';
import { asObject, requiredString, type Fields } from '../params.ts';
import type { ApiRequest } from '../request.ts';
import { childAccount, mainAccountCaller } from './main-account.ts';

/** A request's parameters: the query of a GET, the JSON body of a POST. */
export function fieldsOf(request: ApiRequest): Fields {
  return request.method === 'GET' ? request.query : asObject(request.body);
}

/** The sub-account a main account's request names in `subUid` (query or body). */
export function subAccountOf(state: EngineState, request: ApiRequest): string {
  const main = mainAccountCaller(request, false);
  const uid = requiredString(fieldsOf(request), 'subUid');
  return childAccount(state, main.account.uid, uid, ['sub', 'virtual'], 'subUid').uid;
}
