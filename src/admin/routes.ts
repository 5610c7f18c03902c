/**
 * The operator API (docs/operator.md): accounts, keys, deposits and withdrawals, prices,
 * instruments and the clock. Bearer-token authenticated; same envelope as the venue API.
 */
import { ACCOUNT_KINDS, ACCOUNT_MODES, DEFAULT_PERMISSIONS, permissionCodesOf } from '../domain/account.ts';
import { CATEGORIES } from '../domain/category.ts';
import type { Instrument } from '../domain/instrument.ts';
import { formatMoney, parseMoney } from '../domain/money.ts';
import { defaultWallet } from '../engine/accounts/wallets.ts';
import {
  asObject,
  optionalEnum,
  optionalString,
  optionalStringList,
  requiredEnum,
  requiredString,
} from '../api/params.ts';
import { reject, unwrap, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { instrumentRow } from '../api/wire/instrument.ts';
import { issueApiKey } from '../security/key-issuer.ts';
import type { FundingReceipt } from '../engine/accounts/external-flows.ts';
import { brokerageAdminRoutes } from './brokerage-routes.ts';
import { walletAdminRoutes } from './wallet-routes.ts';
import { parseInstrumentFields } from './instrument-input.ts';

function accountView(services: Services, uid: string) {
  const state = services.sequencer.exchange.state;
  const account = state.accounts.get(uid);
  if (!account) reject('ACCOUNT_NOT_FOUND', 'uid');
  const wallets: Record<string, Record<string, { available: string; frozen: string; borrowed: string }>> = {};
  for (const [key, balance] of state.balances) {
    const [owner, wallet, coin] = key.split('|') as [string, string, string];
    if (owner !== uid) continue;
    (wallets[wallet] ??= {})[coin] = {
      available: formatMoney(balance.available),
      frozen: formatMoney(balance.frozen),
      borrowed: formatMoney(balance.borrowed),
    };
  }
  const apiKeys = [...state.apiKeys.values()]
    .filter((key) => key.uid === uid)
    .map((key) => ({
      apiKey: key.apiKey,
      label: key.label,
      permissions: key.permissions,
      ipList: key.ipList,
    }));
  return { ...account, createdTime: String(account.createdTimeMs), wallets, apiKeys };
}

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

export function adminRoutes(services: Services): Route[] {
  const now = () => services.clock.now();
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
      const account = services.sequencer.exchange.state.accounts.get(uid);
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
      const parent = parentUid ? services.sequencer.exchange.state.accounts.get(parentUid) : undefined;
      if (kind !== 'main' && parent?.kind !== 'main') reject('ACCOUNT_NOT_FOUND', 'parentUid');
      const label = optionalString(body, 'label') ?? '';
      return submit<{ uid: string }>({ type: 'CreateAccount', timeMs: now(), kind, parentUid, mode, label });
    }),
    route('GET', '/admin/v1/accounts/:uid', (_request, params) => accountView(services, params.uid ?? '')),
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
    route('PUT', '/admin/v1/prices', async (request) => {
      const body = asObject(request.body);
      const category = requiredEnum(body, 'category', CATEGORIES);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const indexPrice = requiredString(body, 'indexPrice');
      await submit({ type: 'SetIndexPrice', timeMs: now(), category, symbol, indexPrice });
      return { category, symbol, indexPrice };
    }),
    route('PUT', '/admin/v1/funding-rates', async (request) => {
      // Fixes a perpetual's funding rate (a signed decimal per interval); null goes back to the
      // rate computed from the premium.
      const body = asObject(request.body);
      const category = requiredEnum(body, 'category', CATEGORIES);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const rate = body.rate === null ? null : requiredString(body, 'rate');
      await submit({ type: 'SetFundingRate', timeMs: now(), category, symbol, rate });
      return { category, symbol, rate };
    }),
    route('GET', '/admin/v1/instruments', (request) => {
      const category = request.query.category?.toUpperCase();
      return [...services.sequencer.exchange.state.instruments.values()]
        .filter((instrument) => !category || instrument.category === category)
        .map(instrumentRow);
    }),
    route('POST', '/admin/v1/instruments', async (request) => {
      const instrument = parseInstrumentFields(asObject(request.body), true) as Instrument;
      return instrumentRow(await submit<Instrument>({ type: 'AddInstrument', timeMs: now(), instrument }));
    }),
    route('PATCH', '/admin/v1/instruments', async (request) => {
      const body = asObject(request.body);
      const category = requiredEnum(body, 'category', CATEGORIES);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const changes = parseInstrumentFields(body, false);
      const patched = await submit<Instrument>({
        type: 'PatchInstrument',
        timeMs: now(),
        category,
        symbol,
        changes,
      });
      return instrumentRow(patched);
    }),
    route('GET', '/admin/v1/clock', () => ({
      mode: services.clock.simulated ? 'simulated' : 'real',
      nowMs: String(services.clock.now()),
      engineTimeMs: String(services.sequencer.exchange.state.nowMs),
    })),
    route('POST', '/admin/v1/clock/advance', async (request) => {
      if (!services.clock.simulated) reject('CLOCK_NOT_SIMULATED', 'BOURSE_CLOCK');
      const body = asObject(request.body);
      const msText = requiredString(body, 'ms');
      if (!/^\d{1,12}$/.test(msText)) reject('PARAM_ERROR', 'ms');
      const ms = Number(msText);
      const result = services.timeWalker
        ? unwrap(await services.timeWalker.advance(ms))
        : await submit<{ nowMs: number }>({ type: 'AdvanceClock', timeMs: now(), ms });
      return { mode: 'simulated', nowMs: String(result.nowMs) };
    }),
    ...brokerageAdminRoutes(services),
    ...walletAdminRoutes(services),
  ];
}
