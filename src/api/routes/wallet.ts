/**
 * The wallet (docs/wallet.md): deposit addresses (an account's own, and a main account's of
 * its sub-accounts), a user's withdrawal requests and the unified account's funding wallet,
 * at their v2 (classic) and v3 (unified) paths.
 *
 * A deposit address is derived from the account, coin and chain (domain/funding.ts); the
 * operator credits it (docs/operator.md). A withdrawal request becomes a pending withdrawal:
 * its amount is frozen until the operator settles or rejects it, or the account cancels it
 * (cancel-withdrawal: the record then says `fail`). A classic account withdraws
 * from its spot wallet; a unified account from its funding wallet or its unified wallet (v3
 * `accountType`, default `funding,uta`: the first of them that holds the amount).
 */
import type { Account } from '../../domain/account.ts';
import { defaultChain, depositAddress, normalizeChain } from '../../domain/funding.ts';
import { formatMoney } from '../../domain/money.ts';
import type { FundingReceipt } from '../../engine/accounts/external-flows.ts';
import { readBalance } from '../../engine/accounts/ledger.ts';
import { coinListed } from '../../engine/instruments/coins.ts';
import type { EngineState } from '../../engine/state.ts';
import { asObject, optionalString, requiredString, type Fields } from '../params.ts';
import { caller, reject, unwrap, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { subAccountOf } from './wallet-sub.ts';
import { withdrawalRequest, type WithdrawalRequest } from './withdrawal-input.ts';

const WALLET_READ = { area: 'wallet', write: false } as const;
const WITHDRAW = { area: 'withdraw', write: true } as const;
/** A Map: the names come from requests and must never reach an object's prototype. */
const V3_ACCOUNT_TYPES: ReadonlyMap<string, string> = new Map([
  ['funding', 'funding'],
  ['uta', 'unified'],
]);

function addressView(state: EngineState, uid: string, query: Fields) {
  const coin = requiredString(query, 'coin').toUpperCase();
  if (!coinListed(state, coin)) reject('COIN_NOT_FOUND', coin);
  const chainText = optionalString(query, 'chain');
  const chain = chainText === undefined ? defaultChain(coin) : normalizeChain(chainText);
  if (chain === null) reject('PARAM_ERROR', 'chain');
  return { coin, address: depositAddress(uid, coin, chain), chain, tag: '', url: '' };
}

/** The wallets a unified account's v3 withdrawal may take from, in order (`accountType`). */
function v3Wallets(body: Fields): string[] {
  const text = optionalString(body, 'accountType') ?? 'funding,uta';
  const wallets = text.split(',').map((name) => V3_ACCOUNT_TYPES.get(name.trim().toLowerCase()));
  if (wallets.some((wallet) => wallet === undefined)) reject('PARAM_ERROR', 'accountType');
  return wallets as string[];
}

/** The first listed wallet holding the amount (the last one when none does: it is refused there). */
function withdrawalWallet(
  state: EngineState,
  account: Account,
  wallets: string[],
  request: WithdrawalRequest,
) {
  if (account.mode !== 'unified') return 'spot';
  const holding = wallets.find(
    (wallet) => readBalance(state, account.uid, wallet, request.coin).available >= request.amount,
  );
  return holding ?? wallets.at(-1) ?? 'unified';
}

export function walletRoutes(services: Services): Route[] {
  const v2 = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic' });
  const v3 = signedRoutes({ dialect: 'v3', accountMode: 'unified' });
  const state = () => services.sequencer.exchange.state;

  const withdrawal =
    (version: 'v2' | 'v3'): Route['handler'] =>
    async (request: ApiRequest) => {
      const body = asObject(request.body);
      const { account } = caller(request);
      const parsed = withdrawalRequest(body);
      const wallets = version === 'v3' ? v3Wallets(body) : ['funding', 'unified'];
      const receipt = unwrap(
        await services.sequencer.submit<FundingReceipt>({
          type: 'Withdraw',
          timeMs: services.clock.now(),
          uid: account.uid,
          coin: parsed.coin,
          amount: parsed.amount,
          wallet: withdrawalWallet(state(), account, wallets, parsed),
          subType: parsed.subType,
          status: 'pending',
          route: parsed.route,
        }),
      );
      return { orderId: receipt.recordId, clientOid: receipt.clientOid };
    };

  /** Cancels a pending withdrawal of the caller: v2 by `orderId`, v3 by `orderId` or `clientOid`. */
  const cancel =
    (version: 'v2' | 'v3'): Route['handler'] =>
    async (request: ApiRequest) => {
      const body = asObject(request.body);
      const recordId = optionalString(body, 'orderId');
      const clientOid = version === 'v3' ? optionalString(body, 'clientOid') : undefined;
      if (recordId === undefined && clientOid === undefined) reject('PARAM_EMPTY', 'orderId');
      unwrap(
        await services.sequencer.submit({
          type: 'CancelWithdrawal',
          timeMs: services.clock.now(),
          uid: caller(request).account.uid,
          ...(recordId !== undefined ? { recordId } : { clientOid }),
        }),
      );
      return 'success';
    };

  const fundingAssets: Route['handler'] = (request) => {
    const uid = caller(request).account.uid;
    const coin = optionalString(request.query, 'coin')?.toUpperCase();
    const prefix = `${uid}|funding|`;
    const rows: { coin: string; balance: string; available: string; frozen: string }[] = [];
    for (const [key, balance] of state().balances) {
      if (!key.startsWith(prefix)) continue;
      const name = key.slice(prefix.length);
      if ((coin && name !== coin) || balance.available + balance.frozen === 0n) continue;
      rows.push({
        coin: name,
        balance: formatMoney(balance.available + balance.frozen),
        available: formatMoney(balance.available),
        frozen: formatMoney(balance.frozen),
      });
    }
    return rows.sort((a, b) => (a.coin < b.coin ? -1 : 1));
  };

  const address: Route['handler'] = (request) =>
    addressView(state(), caller(request).account.uid, request.query);
  const subAddress: Route['handler'] = (request) =>
    addressView(state(), subAccountOf(state(), request), request.query);
  return [
    v2('GET', '/api/v2/spot/wallet/subaccount-deposit-address', 10, WALLET_READ, subAddress),
    v3('GET', '/api/v3/account/sub-deposit-address', 10, WALLET_READ, subAddress),
    v2('GET', '/api/v2/spot/wallet/deposit-address', 10, WALLET_READ, address),
    v2('POST', '/api/v2/spot/wallet/withdrawal', 5, WITHDRAW, withdrawal('v2')),
    v3('GET', '/api/v3/account/deposit-address', 10, WALLET_READ, address),
    v3('POST', '/api/v3/account/withdrawal', 1, WITHDRAW, withdrawal('v3')),
    v3('POST', '/api/v3/account/withdraw', 1, WITHDRAW, withdrawal('v3')),
    v2('POST', '/api/v2/spot/wallet/cancel-withdrawal', 10, WITHDRAW, cancel('v2')),
    v3('POST', '/api/v3/account/cancel-withdrawal', 1, WITHDRAW, cancel('v3')),
    v3('GET', '/api/v3/account/funding-assets', 20, undefined, fundingAssets),
  ];
}
