/**
 * bourse-admin's account and API-key subcommands (docs/operator.md): each is one operator
 * route. `accounts list|get|create|orders|fills|positions|balances`, `keys
 * list|create|update|freeze|unfreeze|revoke`.
 */
import {
  defined,
  list,
  need,
  segment,
  text,
  UsageError,
  withQuery,
  type Call,
  type Options,
} from './cli-options.ts';

/** The paging options every list takes. */
const paging = (options: Options) => ({ limit: text(options, 'limit'), cursor: text(options, 'cursor') });

/** Subcommands about one account's holdings and history: `accounts orders UID`, … */
function activityCall(action: string, uid: string, options: Options): Call | null {
  const base = `/admin/v1/accounts/${segment(uid)}`;
  const category = text(options, 'category');
  const symbol = text(options, 'symbol');
  switch (action) {
    case 'orders': {
      const query = { status: text(options, 'status'), category, symbol, ...paging(options) };
      return { method: 'GET', path: withQuery(`${base}/orders`, query) };
    }
    case 'fills': {
      const query = { category, symbol, orderId: text(options, 'order-id'), ...paging(options) };
      return { method: 'GET', path: withQuery(`${base}/fills`, query) };
    }
    case 'positions':
      return { method: 'GET', path: withQuery(`${base}/positions`, { category }) };
    case 'balances': {
      const query = { wallet: text(options, 'wallet'), coin: text(options, 'coin') };
      return { method: 'GET', path: withQuery(`${base}/balances`, query) };
    }
    default:
      return null;
  }
}

export function accountCall(action: string, rest: string[], options: Options): Call {
  if (action === 'create') {
    need(rest, 0, 'no arguments');
    const body = defined({
      mode: text(options, 'mode'),
      kind: text(options, 'kind'),
      parentUid: text(options, 'parent'),
      label: text(options, 'label'),
    });
    return { method: 'POST', path: '/admin/v1/accounts', body };
  }
  if (action === 'list') {
    need(rest, 0, 'no arguments');
    const query = {
      kind: text(options, 'kind'),
      mode: text(options, 'mode'),
      label: text(options, 'label'),
      parentUid: text(options, 'parent'),
      ...paging(options),
    };
    return { method: 'GET', path: withQuery('/admin/v1/accounts', query) };
  }
  if (action === 'get') {
    const [uid] = need(rest, 1, 'UID');
    return { method: 'GET', path: `/admin/v1/accounts/${segment(uid)}` };
  }
  if (['orders', 'fills', 'positions', 'balances'].includes(action)) {
    const [uid = ''] = need(rest, 1, 'UID');
    return activityCall(action, uid, options) as Call;
  }
  throw new UsageError(`unknown accounts action ${action}`);
}

export function keyCall(action: string, rest: string[], options: Options): Call {
  switch (action) {
    case 'list': {
      need(rest, 0, 'no arguments');
      const query = { uid: text(options, 'uid'), status: text(options, 'status'), ...paging(options) };
      return { method: 'GET', path: withQuery('/admin/v1/api-keys', query) };
    }
    case 'create': {
      const [uid] = need(rest, 1, 'UID');
      const body = defined({
        permissions: list(text(options, 'permissions')),
        ipList: list(text(options, 'ip')),
        passphrase: text(options, 'passphrase'),
        label: text(options, 'label'),
      });
      return { method: 'POST', path: `/admin/v1/accounts/${segment(uid)}/api-keys`, body };
    }
    case 'update': {
      const [key] = need(rest, 1, 'KEY');
      const body = defined({
        permissions: list(text(options, 'permissions')),
        ipList: list(text(options, 'ip')),
        label: text(options, 'label'),
      });
      return { method: 'PATCH', path: `/admin/v1/api-keys/${segment(key)}`, body };
    }
    case 'freeze':
    case 'unfreeze': {
      const [key] = need(rest, 1, 'KEY');
      const body = { status: action === 'freeze' ? 'frozen' : 'normal' };
      return { method: 'PATCH', path: `/admin/v1/api-keys/${segment(key)}`, body };
    }
    case 'revoke': {
      const [key] = need(rest, 1, 'KEY');
      return { method: 'DELETE', path: `/admin/v1/api-keys/${segment(key)}` };
    }
    default:
      throw new UsageError(`unknown keys action ${action}`);
  }
}
