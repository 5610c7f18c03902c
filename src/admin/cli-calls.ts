/**
 * What each bourse-admin subcommand asks of the operator API (docs/operator.md): the command
 * line's words and options turned into one route call. Account and key subcommands are in
 * cli-account-calls.ts.
 */
import { accountCall, keyCall } from './cli-account-calls.ts';
import { feedsCall, liquidityCall } from './cli-market-calls.ts';
import { defined, list, need, segment, text, UsageError, type Call, type Options } from './cli-options.ts';

/** `FIELD=VALUE` pairs, or --json; lists for the margin-coin fields. */
function instrumentFields(pairs: string[], json: string | undefined): Record<string, unknown> {
  if (json !== undefined) {
    const parsed: unknown = JSON.parse(json);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError('--json must be a JSON object');
    }
    return parsed as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`expected FIELD=VALUE, got ${pair}`);
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    fields[name] = name === 'supportMarginCoins' || name === 'marginCoins' ? list(value) : value;
  }
  return fields;
}

function fundingCall(command: 'deposit' | 'withdraw', rest: string[], options: Options): Call {
  const [uid = '', coin, amount] = need(rest, 3, 'UID COIN AMOUNT');
  const route = command === 'deposit' ? 'deposits' : 'withdrawals';
  const body = defined({
    coin,
    amount,
    wallet: text(options, 'wallet'),
    subType: text(options, 'sub-type'),
    status: text(options, 'status'),
  });
  return { method: 'POST', path: `/admin/v1/accounts/${segment(uid)}/${route}`, body };
}

function instrumentCall(action: string, rest: string[], options: Options): Call {
  if (action === 'list') {
    need(rest, 0, 'no arguments');
    const category = text(options, 'category');
    const query = category ? `?category=${encodeURIComponent(category)}` : '';
    return { method: 'GET', path: `/admin/v1/instruments${query}` };
  }
  if (action === 'add') {
    return {
      method: 'POST',
      path: '/admin/v1/instruments',
      body: instrumentFields(rest, text(options, 'json')),
    };
  }
  if (action === 'patch') {
    if (rest.length < 2) throw new UsageError('expected CATEGORY SYMBOL FIELD=VALUE...');
    const [category, symbol, ...pairs] = rest;
    const body = { ...instrumentFields(pairs, text(options, 'json')), category, symbol };
    return { method: 'PATCH', path: '/admin/v1/instruments', body };
  }
  throw new UsageError(`unknown instruments action ${action}`);
}

function agentCall(action: string, rest: string[], options: Options): Call {
  if (action === 'register') {
    const [uid] = need(rest, 1, 'UID');
    const body = defined({
      uid,
      rebateRate: text(options, 'rebate-rate'),
      spotRebateRate: text(options, 'spot-rate'),
      marginRebateRate: text(options, 'margin-rate'),
      futuresRebateRate: text(options, 'futures-rate'),
    });
    return { method: 'POST', path: '/admin/v1/agents', body };
  }
  if (action === 'get') {
    const [uid = ''] = need(rest, 1, 'UID');
    return { method: 'GET', path: `/admin/v1/agents/${segment(uid)}` };
  }
  if (action === 'add-customer') {
    const [agentUid = '', customerUid] = need(rest, 2, 'AGENT_UID CUSTOMER_UID');
    return {
      method: 'POST',
      path: `/admin/v1/agents/${segment(agentUid)}/customers`,
      body: { customerUid },
    };
  }
  throw new UsageError(`unknown agents action ${action}`);
}

/** Deposit addresses: who one belongs to, and crediting it. */
function addressCall(action: string, rest: string[], options: Options): Call {
  const crediting = action === 'deposit';
  const [address = '', amount] = need(rest, crediting ? 2 : 1, crediting ? 'ADDRESS AMOUNT' : 'ADDRESS');
  const path = `/admin/v1/deposit-addresses/${segment(address)}`;
  if (action === 'get') return { method: 'GET', path };
  if (!crediting) throw new UsageError(`unknown address action ${action}`);
  const body = defined({
    amount,
    status: text(options, 'status'),
    fromAddress: text(options, 'from-address'),
    txId: text(options, 'tx-id'),
  });
  return { method: 'POST', path: `${path}/deposits`, body };
}

/** Commands of one verb and one action with fixed positionals: settle, funding-rate, kyc. */
function simpleCall(command: string, action: string, rest: string[]): Call | null {
  if (command === 'settle') {
    const [recordId = '', status] = need([action, ...rest], 2, 'RECORD_ID success|fail|reject');
    return {
      method: 'POST',
      path: `/admin/v1/funding/${segment(recordId)}/settle`,
      body: { status },
    };
  }
  if (command === 'funding-rate' && action === 'set') {
    const [category, symbol, rate] = need(rest, 3, 'CATEGORY SYMBOL RATE|null');
    return {
      method: 'PUT',
      path: '/admin/v1/funding-rates',
      body: { category, symbol, rate: rate === 'null' ? null : rate },
    };
  }
  if (command === 'kyc' && action === 'set') {
    const [uid = '', result] = need(rest, 2, 'UID passed|not_passed');
    return { method: 'PUT', path: `/admin/v1/accounts/${segment(uid)}/kyc`, body: { result } };
  }
  if (command === 'funding-rate' || command === 'kyc')
    throw new UsageError(`unknown ${command} action ${action}`);
  return null;
}

/** The operator route for a command line, or a UsageError. */
export function callFor(positionals: string[], options: Options): Call {
  const [command = '', action = '', ...rest] = positionals;
  const simple = simpleCall(command, action, rest);
  if (simple) return simple;
  switch (command) {
    case 'accounts':
      return accountCall(action, rest, options);
    case 'keys':
      return keyCall(action, rest, options);
    case 'deposit':
    case 'withdraw':
      return fundingCall(command, positionals.slice(1), options);
    case 'price': {
      if (action !== 'set') throw new UsageError(`unknown price action ${action}`);
      const [category, symbol, indexPrice] = need(rest, 3, 'CATEGORY SYMBOL INDEX_PRICE');
      return { method: 'PUT', path: '/admin/v1/prices', body: { category, symbol, indexPrice } };
    }
    case 'instruments':
      return instrumentCall(action, rest, options);
    case 'agents':
      return agentCall(action, rest, options);
    case 'feeds':
      return feedsCall(action, rest);
    case 'liquidity':
      return liquidityCall(action, rest);
    case 'address':
      return addressCall(action, rest, options);
    case 'clock':
      if (action === 'get') return { method: 'GET', path: '/admin/v1/clock' };
      if (action === 'advance')
        return { method: 'POST', path: '/admin/v1/clock/advance', body: { ms: need(rest, 1, 'MS')[0] } };
      throw new UsageError(`unknown clock action ${action}`);
    case 'reset':
      need(positionals.slice(1), 0, 'no arguments');
      if (options.yes !== true) {
        throw new UsageError('reset deletes every account, key, order and balance: add --yes to go ahead');
      }
      return { method: 'POST', path: '/admin/v1/reset', body: {} };
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
}
