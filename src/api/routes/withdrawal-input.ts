/**
 * A user's withdrawal request (v2 spot/wallet/withdrawal, v3 account/withdrawal), read into
 * the parts of a Withdraw command. On chain: `chain` and `address` are required. Internal
 * (`internal_transfer`): the address is the receiving account's uid (`innerToType` uid, the
 * default; bourse has no e-mail addresses or phone numbers, so `email` and `mobile` are
 * refused). The wallet is chosen by the route (wallet.ts).
 */
import type { FundingRoute } from '../../domain/funding.ts';
import { normalizeChain } from '../../domain/funding.ts';
import { parseMoney } from '../../domain/money.ts';
import { optionalEnum, optionalString, requiredEnum, requiredString, type Fields } from '../params.ts';
import { reject } from '../request.ts';
import { clientOidField } from './transfer-input.ts';

export interface WithdrawalRequest {
  coin: string;
  amount: bigint;
  subType: 'onchain' | 'internal';
  route: FundingRoute;
}

function chainField(body: Fields): string {
  const chain = normalizeChain(requiredString(body, 'chain'));
  if (chain === null) reject('PARAM_ERROR', 'chain');
  return chain;
}

export function withdrawalRequest(body: Fields): WithdrawalRequest {
  const coin = requiredString(body, 'coin').toUpperCase();
  const transferType = requiredEnum(body, 'transferType', ['on_chain', 'internal_transfer'] as const);
  const address = requiredString(body, 'address');
  const amount = parseMoney(requiredString(body, 'size'));
  if (amount === null || amount <= 0n) reject('PARAM_ERROR', 'size');
  const tag = optionalString(body, 'tag');
  optionalString(body, 'remark');
  const clientOid = clientOidField(body);
  const common = { ...(tag ? { tag } : {}), ...(clientOid ? { clientOid } : {}) };
  if (transferType === 'on_chain') {
    if (/\s/.test(address)) reject('PARAM_ERROR', 'address');
    return { coin, amount, subType: 'onchain', route: { chain: chainField(body), address, ...common } };
  }
  const innerToType = optionalEnum(body, 'innerToType', ['uid', 'email', 'mobile'] as const) ?? 'uid';
  if (innerToType !== 'uid') reject('PARAM_ERROR', 'innerToType');
  if (!/^\d{1,20}$/.test(address)) reject('PARAM_ERROR', 'address');
  return { coin, amount, subType: 'internal', route: { address, toUid: address, ...common } };
}
