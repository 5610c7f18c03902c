/**
 * Virtual sub-accounts and their API keys (spec §7, endpoints.md §8): create and modify
 * virtual sub-accounts, list them, create, modify and list their keys. Every endpoint wants
 * the main account's key bound to an IP (main-account.ts); docs/subaccounts.md has the rules.
 *
 * A new key works at once: the authenticator reads keys from the engine state, so its
 * permissions and IP whitelist apply from the next request. The secret is shown once, in
 * the create response; modify answers `secretKey: ""`.
 */
import { isIP } from 'node:net';
import { PERM_NAME_CODES, PERM_NAMES, permNamesOf, type PermName } from '../../domain/account.ts';
import type { Account } from '../../domain/account.ts';
import {
  DEFAULT_SUB_PERM_LIST,
  virtualNameOf,
  type CreatedSubAccount,
} from '../../engine/accounts/sub-accounts.ts';
import { issueApiKey } from '../../security/key-issuer.ts';
import { verifyPassphrase } from '../../security/secrets.ts';
import {
  asObject,
  optionalEnum,
  optionalString,
  optionalStringList,
  requiredEnum,
  requiredString,
  type Fields,
} from '../params.ts';
import { reject, unwrap, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { childAccount, mainAccountCaller } from './main-account.ts';
import { idCursor, pageLimit } from './query-window.ts';

const MAX_ALIASES = 50;
const MAX_IPS = 30;
const MAX_LABEL = 20;
const PASSPHRASE_PATTERN = /^[A-Za-z0-9]{8,32}$/;

function permListField(fields: Fields, name = 'permList'): PermName[] | undefined {
  const list = optionalStringList(fields, name, PERM_NAMES.length * 4);
  if (list === undefined) return undefined;
  const names: readonly string[] = PERM_NAMES;
  const lower = list.map((item) => item.toLowerCase());
  if (lower.some((item) => !names.includes(item))) reject('PARAM_ERROR', name);
  return [...new Set(lower)] as PermName[];
}

function codesOf(names: readonly PermName[]): string[] {
  return [...new Set(names.flatMap((name) => PERM_NAME_CODES[name]))].sort();
}

function ipListField(fields: Fields): string[] | undefined {
  const list = optionalStringList(fields, 'ipList', MAX_IPS);
  if (list === undefined) return undefined;
  if (list.some((ip) => isIP(ip) === 0)) reject('PARAM_ERROR', 'ipList');
  return [...new Set(list)];
}

function labelField(fields: Fields, required: boolean): string | undefined {
  const label = required ? requiredString(fields, 'label') : optionalString(fields, 'label');
  if (label !== undefined && label.length > MAX_LABEL) reject('PARAM_ERROR', 'label');
  return label;
}

function subAccountRow(account: Account) {
  return {
    subAccountUid: account.uid,
    subAccountName: account.name ?? '',
    status: account.status ?? 'normal',
    permList: [...(account.permList ?? DEFAULT_SUB_PERM_LIST)],
    label: account.label,
    cTime: String(account.createdTimeMs),
    uTime: String(account.updatedTimeMs ?? account.createdTimeMs),
  };
}

export function v2UserRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const now = () => services.clock.now();
  const route = signedRoutes({ dialect: 'v2', area: 'subaccount' });

  return [
    route('POST', '/api/v2/user/create-virtual-subaccount', 5, true, async (request) => {
      const main = mainAccountCaller(request, true);
      const aliases = optionalStringList(asObject(request.body), 'subAccountList', MAX_ALIASES);
      if (!aliases || aliases.length === 0) reject('PARAM_EMPTY', 'subAccountList');
      const successList: Record<string, unknown>[] = [];
      const failureList: { subaAccountName: string }[] = [];
      for (const alias of aliases) {
        const outcome = await services.sequencer.submit<CreatedSubAccount>({
          type: 'CreateVirtualSubAccount',
          timeMs: now(),
          parentUid: main.account.uid,
          alias,
        });
        const account = outcome.ok ? state().accounts.get(outcome.value.uid) : undefined;
        if (!account) {
          failureList.push({ subaAccountName: virtualNameOf(alias) });
          continue;
        }
        const row = subAccountRow(account);
        successList.push({
          subaAccountUid: row.subAccountUid,
          subaAccountName: row.subAccountName,
          status: row.status,
          label: row.label,
          permList: row.permList,
          cTime: row.cTime,
          uTime: row.uTime,
        });
      }
      return { failureList, successList };
    }),
    route('POST', '/api/v2/user/modify-virtual-subaccount', 5, true, async (request) => {
      const main = mainAccountCaller(request, true);
      const body = asObject(request.body);
      const sub = childAccount(state(), main.account.uid, requiredString(body, 'subAccountUid'), ['virtual']);
      const permList = permListField(body);
      if (permList === undefined) reject('PARAM_EMPTY', 'permList');
      const status = requiredEnum(body, 'status', ['normal', 'freeze'] as const);
      unwrap(
        await services.sequencer.submit({
          type: 'ModifySubAccount',
          timeMs: now(),
          parentUid: main.account.uid,
          uid: sub.uid,
          permList,
          status,
        }),
      );
      return { result: 'success' };
    }),
    route('GET', '/api/v2/user/virtual-subaccount-list', 10, false, (request) => {
      const main = mainAccountCaller(request, true);
      const { query } = request;
      const limit = pageLimit(query, 100, 500);
      const idLessThan = idCursor(query, 'idLessThan');
      const status = optionalEnum(query, 'status', ['normal', 'freeze'] as const);
      const subs = [...state().accounts.values()]
        .filter(
          (account) =>
            account.parentUid === main.account.uid &&
            account.kind === 'virtual' &&
            (!status || (account.status ?? 'normal') === status) &&
            (!idLessThan || BigInt(account.uid) < BigInt(idLessThan)),
        )
        .sort((a, b) => (BigInt(a.uid) < BigInt(b.uid) ? 1 : -1))
        .slice(0, limit);
      const last = subs.at(-1);
      return { endId: last ? Number(last.uid) : null, subAccountList: subs.map(subAccountRow) };
    }),
    route('POST', '/api/v2/user/create-virtual-subaccount-apikey', 5, true, async (request) => {
      const main = mainAccountCaller(request, true);
      const body = asObject(request.body);
      const sub = childAccount(state(), main.account.uid, requiredString(body, 'subAccountUid'), ['virtual']);
      const passphrase = requiredString(body, 'passphrase');
      if (!PASSPHRASE_PATTERN.test(passphrase)) reject('PARAM_ERROR', 'passphrase');
      const label = labelField(body, true) ?? '';
      const ipList = ipListField(body) ?? [];
      const permissions = codesOf(permListField(body) ?? ['read']);
      const issued = unwrap(
        await issueApiKey(services.sequencer, services.box, {
          uid: sub.uid,
          permissions,
          ipList,
          label,
          passphrase,
          timeMs: now(),
        }),
      );
      return {
        subAccountUid: sub.uid,
        label,
        subAccountApiKey: issued.apiKey,
        secretKey: issued.secretKey,
        permList: permNamesOf(permissions),
        ipList,
      };
    }),
    route('POST', '/api/v2/user/modify-virtual-subaccount-apikey', 5, true, async (request) => {
      const main = mainAccountCaller(request, true);
      const body = asObject(request.body);
      const sub = childAccount(state(), main.account.uid, requiredString(body, 'subAccountUid'), ['virtual']);
      const apiKey = requiredString(body, 'subAccountApiKey');
      const record = state().apiKeys.get(apiKey);
      if (!record || record.uid !== sub.uid) reject('ACCOUNT_NOT_FOUND', 'subAccountApiKey');
      const passphrase = requiredString(body, 'passphrase');
      const label = labelField(body, false);
      // The venue: "ipList: if not [given] then ip whitelist is set to empty".
      const ipList = ipListField(body) ?? [];
      const permList = permListField(body);
      if (!(await verifyPassphrase(passphrase, record.passphraseHash))) reject('PASSPHRASE_INCORRECT');
      unwrap(
        await services.sequencer.submit({
          type: 'ModifyApiKey',
          timeMs: now(),
          uid: sub.uid,
          apiKey,
          ipList,
          ...(permList ? { permissions: codesOf(permList) } : {}),
          ...(label !== undefined ? { label } : {}),
        }),
      );
      const updated = state().apiKeys.get(apiKey) ?? record;
      return {
        subAccountUid: sub.uid,
        label: updated.label,
        subAccountApiKey: apiKey,
        secretKey: '',
        permList: permNamesOf(updated.permissions),
        ipList: [...updated.ipList],
      };
    }),
    route('GET', '/api/v2/user/virtual-subaccount-apikey-list', 5, false, (request) => {
      const main = mainAccountCaller(request, true);
      const uid = requiredString(request.query, 'subAccountUid');
      const sub = childAccount(state(), main.account.uid, uid, ['virtual', 'sub']);
      return [...state().apiKeys.values()]
        .filter((key) => key.uid === sub.uid)
        .sort((a, b) => a.createdTimeMs - b.createdTimeMs || (a.apiKey < b.apiKey ? -1 : 1))
        .map((key) => ({
          subAccountUid: sub.uid,
          label: key.label,
          subAccountApiKey: key.apiKey,
          permList: permNamesOf(key.permissions),
          ipList: [...key.ipList],
        }));
    }),
  ];
}
