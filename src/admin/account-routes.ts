/**
 * Operator routes of accounts (docs/operator.md, "Accounts"): create, list (paged, filtered by
 * kind, mode, label and parent), one account with its balances and keys, issuing API keys,
 * deposits and withdrawals.
 */
import { ACCOUNT_KINDS, ACCOUNT_MODES, DEFAULT_PERMISSIONS, permissionCodesOf } from '../domain/account.ts';
import { formatMoney, parseMoney } from '../domain/money.ts';
import { POSITION_MODES } from '../domain/position.ts';
import type { FundingReceipt } from '../engine/accounts/external-flows.ts';
import { defaultWallet } from '../engine/accounts/wallets.ts';
import { asObject, optionalEnum, optionalString, optionalStringList, requiredString } from '../api/params.ts';
import { reject, unwrap, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { issueApiKey } from '../security/key-issuer.ts';
import { accountRisk } from './account-risk.ts';
import { accountSummary, accountView, compareIds, cursorOf, pageOf, pageSize } from './views.ts';

/** A wallet id as given: the type in lower case, an isolated-margin symbol in upper case. */
function walletId(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const [type = '', ...rest] = text.split(':');
  return rest.length > 0 ? `${type.toLowerCase()}:${rest.join(':').toUpperCase()}` : type.toLowerCase();
}

function receiptView(receipt: FundingReceipt) {
  return {
    id: receipt.recordId,
    txId: receipt.txId,
    uid: receipt.uid,
    coin: receipt.coin,
    amount: formatMoney(receipt.amount),
    wallet: receipt.wallet,
    type: receipt.direction,
    status: receipt.status,
    ts: String(receipt.timeMs),
  };
}

export function accountRoutes(services: Services): Route[] {
  const now = () => services.clock.now();
  const state = () => services.sequencer.exchange.state;
  const submit = <T>(command: Parameters<typeof services.sequencer.submit>[0]) =>
    services.sequencer.submit<T>(command).then(unwrap);
  const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({
    method,
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });

  const funding =
    (direction: 'Deposit' | 'Withdraw'): Route['handler'] =>
    async (request, params) => {
      const body = asObject(request.body);
      const uid = params.uid ?? '';
      const account = state().accounts.get(uid);
      if (!account) reject('ACCOUNT_NOT_FOUND', 'uid');
      const coin = requiredString(body, 'coin').toUpperCase();
      const amount = parseMoney(requiredString(body, 'amount'));
      if (amount === null || amount <= 0n) reject('PARAM_ERROR', 'amount');
      const wallet = walletId(optionalString(body, 'wallet')) ?? defaultWallet(account);
      const subType = optionalEnum(body, 'subType', ['onchain', 'internal', 'fast'] as const) ?? 'onchain';
      const status = optionalEnum(body, 'status', ['pending', 'success'] as const) ?? 'success';
      const receipt = await submit<FundingReceipt>({
        type: direction,
        timeMs: now(),
        uid,
        coin,
        amount,
        wallet,
        subType,
        status,
      });
      return receiptView(receipt);
    };

  return [
    route('POST', '/admin/v1/accounts', async (request) => {
      const body = asObject(request.body);
      const kind = optionalEnum(body, 'kind', ACCOUNT_KINDS) ?? 'main';
      const mode = optionalEnum(body, 'mode', ACCOUNT_MODES) ?? 'classic';
      const parentUid = optionalString(body, 'parentUid') ?? null;
      if (kind !== 'main' && !parentUid) reject('PARAM_EMPTY', 'parentUid');
      const parent = parentUid ? state().accounts.get(parentUid) : undefined;
      if (kind !== 'main' && parent?.kind !== 'main') reject('ACCOUNT_NOT_FOUND', 'parentUid');
      const label = optionalString(body, 'label') ?? '';
      const positionMode = optionalEnum(body, 'posMode', POSITION_MODES) ?? services.newAccountPositionMode;
      return submit<{ uid: string }>({
        type: 'CreateAccount',
        timeMs: now(),
        kind,
        parentUid,
        mode,
        label,
        positionMode,
      });
    }),
    route('GET', '/admin/v1/accounts', (request) => {
      const { query } = request;
      const kind = optionalEnum(query, 'kind', ACCOUNT_KINDS);
      const mode = optionalEnum(query, 'mode', ACCOUNT_MODES);
      const label = optionalString(query, 'label');
      const parentUid = optionalString(query, 'parentUid');
      const limit = pageSize(query);
      const after = cursorOf(query, /^\d{1,20}$/);
      const matching = [...state().accounts.values()]
        .filter(
          (account) =>
            (after === undefined || compareIds(account.uid, after) > 0) &&
            (kind === undefined || account.kind === kind) &&
            (mode === undefined || account.mode === mode) &&
            (label === undefined || account.label === label) &&
            (parentUid === undefined || account.parentUid === parentUid),
        )
        .sort((a, b) => compareIds(a.uid, b.uid));
      return pageOf(matching, limit, (account) => account.uid, accountSummary);
    }),
    route('GET', '/admin/v1/accounts/:uid', (_request, params) => {
      const view = accountView(state(), params.uid ?? '');
      return { ...view, risk: accountRisk(state(), services.sequencer.exchange.books, view.uid) };
    }),
    route('POST', '/admin/v1/accounts/:uid/api-keys', async (request, params) => {
      const body = asObject(request.body);
      const listed = optionalStringList(body, 'permissions', 64);
      const permissions = listed ? permissionCodesOf(listed) : [...DEFAULT_PERMISSIONS];
      if (!permissions) reject('PARAM_ERROR', 'permissions');
      const ipList = optionalStringList(body, 'ipList', 30) ?? [];
      const passphrase = optionalString(body, 'passphrase');
      if (passphrase !== undefined && !/^[A-Za-z0-9]{8,32}$/.test(passphrase))
        reject('PARAM_ERROR', 'passphrase');
      const label = optionalString(body, 'label') ?? '';
      if (label.length > 20) reject('PARAM_ERROR', 'label');
      const issued = unwrap(
        await issueApiKey(services.sequencer, services.box, {
          uid: params.uid ?? '',
          permissions,
          ipList,
          label,
          timeMs: now(),
          ...(passphrase ? { passphrase } : {}),
        }),
      );
      return { ...issued, permissions, ipList, label };
    }),
    route('POST', '/admin/v1/accounts/:uid/deposits', funding('Deposit')),
    route('POST', '/admin/v1/accounts/:uid/withdrawals', funding('Withdraw')),
  ];
}
