/**
 * Wallet transfers (endpoints.md §4.10, §4.11, §8.6, §9.5): v2 spot wallet transfer and its
 * records, v3 account transfer (`uta`), and transfers between a main account and its
 * sub-accounts with their records. The rules are the engine's (engine/accounts/transfers.ts);
 * docs/subaccounts.md lists them. For a unified account `spot` names its funding wallet (the
 * venue's "spot account/funding account"), so `spot`↔`uta` moves between the two.
 */
import type { TransferFunds } from '../../domain/commands.ts';
import { formatMoney } from '../../domain/money.ts';
import type { TransferReceipt } from '../../engine/accounts/transfers.ts';
import type { EngineState } from '../../engine/state.ts';
import type { TransferRow } from '../../ports/store.ts';
import { asObject, optionalEnum, optionalString, requiredString, type Fields } from '../params.ts';
import { caller, reject, unwrap, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { mainAccountCaller } from './main-account.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import {
  accountTypeName,
  accountTypeOf,
  amountField,
  clientOidField,
  walletField,
} from './transfer-input.ts';

const WALLET_WRITE = { area: 'wallet', write: true } as const;
const WALLET_READ = { area: 'wallet', write: false } as const;

function transferRecordRow(row: TransferRow) {
  return {
    coin: row.coin,
    status: 'Successful',
    toType: accountTypeName(row.toType),
    toSymbol: row.toSymbol,
    fromType: accountTypeName(row.fromType),
    fromSymbol: row.fromSymbol,
    size: formatMoney(row.amount),
    ts: String(row.timeMs),
    clientOid: row.clientOid,
    transferId: row.transferId,
  };
}

function subTransferRow(row: TransferRow) {
  return {
    coin: row.coin,
    status: 'Successful',
    toType: accountTypeName(row.toType),
    fromType: accountTypeName(row.fromType),
    size: formatMoney(row.amount),
    ts: String(row.timeMs),
    clientOid: row.clientOid,
    transferId: row.transferId,
    fromUserId: row.fromUid,
    toUserId: row.toUid,
  };
}

/** The wallet a transfer type names for this account: a unified account's `spot` is its funding wallet. */
function walletOf(state: EngineState, uid: string, wallet: string): string {
  return wallet === 'spot' && state.accounts.get(uid)?.mode === 'unified' ? 'funding' : wallet;
}

/** A uid field: digits only, or 40034 naming it. */
function uidField(fields: Fields, name: string): string {
  const uid = requiredString(fields, name);
  if (!/^\d{1,20}$/.test(uid)) reject('ACCOUNT_NOT_FOUND', name);
  return uid;
}

export function transferRoutes(services: Services): Route[] {
  const submit = (command: Omit<TransferFunds, 'type' | 'timeMs'>) =>
    services.sequencer
      .submit<TransferReceipt>({ type: 'TransferFunds', timeMs: services.clock.now(), ...command })
      .then(unwrap);

  const state = () => services.sequencer.exchange.state;
  const ownTransfer = async (request: ApiRequest) => {
    const body = asObject(request.body);
    const uid = caller(request).account.uid;
    return submit({
      uid,
      kind: 'wallet',
      fromUid: uid,
      toUid: uid,
      fromWallet: walletOf(state(), uid, walletField(body, 'fromType')),
      toWallet: walletOf(state(), uid, walletField(body, 'toType')),
      coin: requiredString(body, 'coin').toUpperCase(),
      amount: amountField(body),
      clientOid: clientOidField(body),
    });
  };

  return [
    {
      method: 'POST',
      path: '/api/v2/spot/wallet/transfer',
      auth: 'signed',
      dialect: 'v2-spot',
      accountMode: 'classic',
      rateLimit: { perSecond: 10, by: 'uid' },
      permission: WALLET_WRITE,
      handler: ownTransfer,
    },
    {
      method: 'POST',
      path: '/api/v3/account/transfer',
      auth: 'signed',
      dialect: 'v3',
      accountMode: 'unified',
      rateLimit: { perSecond: 5, by: 'uid' },
      permission: WALLET_WRITE,
      handler: ownTransfer,
    },
    {
      method: 'GET',
      path: '/api/v2/spot/account/transferRecords',
      auth: 'signed',
      dialect: 'v2-spot',
      accountMode: 'classic',
      rateLimit: { perSecond: 20, by: 'uid' },
      permission: WALLET_READ,
      handler: async (request) => {
        const { query } = request;
        const coin = requiredString(query, 'coin').toUpperCase();
        const fromType = accountTypeOf(requiredString(query, 'fromType'));
        if (fromType === null) reject('PARAM_ERROR', 'fromType');
        const clientOid = optionalString(query, 'clientOid');
        const idLessThan = idCursor(query, 'idLessThan');
        const uid = caller(request).account.uid;
        const rows = await services.store.transfers({
          kind: 'wallet',
          uid,
          coin,
          fromType: walletOf(state(), uid, fromType),
          ...(clientOid ? { clientOid } : {}),
          ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS),
          ...(idLessThan ? { idLessThan } : {}),
          limit: pageLimit(query, 100, 500),
        });
        return rows.map(transferRecordRow);
      },
    },
    {
      method: 'POST',
      path: '/api/v2/spot/wallet/subaccount-transfer',
      auth: 'signed',
      dialect: 'v2-spot',
      rateLimit: { perSecond: 10, by: 'uid' },
      permission: WALLET_WRITE,
      handler: (request) => {
        const body = asObject(request.body);
        const main = mainAccountCaller(request, true);
        const fromUid = uidField(body, 'fromUserId');
        const toUid = uidField(body, 'toUserId');
        return submit({
          uid: main.account.uid,
          kind: 'sub',
          fromUid,
          toUid,
          fromWallet: walletOf(state(), fromUid, walletField(body, 'fromType')),
          toWallet: walletOf(state(), toUid, walletField(body, 'toType')),
          coin: requiredString(body, 'coin').toUpperCase(),
          amount: amountField(body),
          clientOid: clientOidField(body),
        });
      },
    },
    {
      method: 'GET',
      path: '/api/v2/spot/account/sub-main-trans-record',
      auth: 'signed',
      dialect: 'v2-spot',
      rateLimit: { perSecond: 20, by: 'uid' },
      permission: WALLET_READ,
      handler: async (request) => {
        const { query } = request;
        const uid = caller(request).account.uid;
        const role = optionalEnum(query, 'role', ['initiator', 'receiver'] as const) ?? 'initiator';
        const coin = optionalString(query, 'coin')?.toUpperCase();
        const subUid = optionalString(query, 'subUid');
        const clientOid = optionalString(query, 'clientOid');
        const idLessThan = idCursor(query, 'idLessThan');
        const rows = await services.store.transfers({
          kind: 'sub',
          ...(role === 'initiator' ? { uid } : { toUid: uid }),
          ...(coin ? { coin } : {}),
          ...(subUid ? { partyUid: subUid } : {}),
          ...(clientOid ? { clientOid } : {}),
          ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS),
          ...(idLessThan ? { idLessThan } : {}),
          limit: pageLimit(query, 100, 100),
        });
        return rows.map(subTransferRow);
      },
    },
  ];
}
