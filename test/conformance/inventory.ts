/**
 * The methods the suite must classify, read from the installed libraries so that a method a
 * new version adds appears here at once (and, unclassified, fails the suite):
 *
 * - ccxt: every entry of `bitget.has` that is true. Entries that are not methods of the class
 *   (`spot`, `swap`, `ws`, …) are capability flags; the pro class adds the `watch*` methods.
 * - bitget-api: every method of RestClientV2 and RestClientV3, with the path and HTTP method
 *   its body calls (read from the method's source) and the family that path belongs to.
 */
import ccxt from 'ccxt';
import { RestClientV2, RestClientV3 } from 'bitget-api';

export interface CcxtInventory {
  /** REST methods (true in the REST class's `has`). */
  rest: string[];
  /** WebSocket methods (true only in the pro class's `has`). */
  pro: string[];
  /** True entries that are not methods. */
  flags: string[];
}

export function ccxtInventory(): CcxtInventory {
  const rest = new ccxt.bitget();
  const pro = new ccxt.pro.bitget();
  const isTrue = (has: Record<string, unknown>) => Object.keys(has).filter((name) => has[name] === true);
  const restTrue = isTrue(rest.has);
  const isMethod = (name: string) => typeof (pro as unknown as Record<string, unknown>)[name] === 'function';
  return {
    rest: restTrue.filter(isMethod),
    pro: isTrue(pro.has).filter((name) => isMethod(name) && !restTrue.includes(name)),
    flags: isTrue(pro.has).filter((name) => !isMethod(name)),
  };
}

/**
 * The endpoints a ccxt method may call: the implicit API methods (`publicSpotGetV2SpotMarketTickers`,
 * …) named in its body and in the bitget methods it calls, each mapped back to the method and
 * path its entry in `api` defines (as ccxt's defineRestApi names them). Every branch counts:
 * classic and unified, spot and contract.
 */
export function ccxtEndpoints(method: string): string[] {
  const exchange = new ccxt.pro.bitget() as unknown as Record<string, unknown> & { api: object };
  const named = apiNames(exchange.api);
  const own = (name: string) => {
    for (
      let proto = Object.getPrototypeOf(exchange);
      proto && proto.constructor.name !== 'Exchange';
      proto = Object.getPrototypeOf(proto)
    ) {
      if (Object.hasOwn(proto, name)) return true;
    }
    return false;
  };
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const [, callee = ''] of String(exchange[name]).matchAll(/this\.([A-Za-z0-9_]+)\s*\(/g)) {
      const endpoint = named.get(callee);
      if (endpoint) found.add(endpoint);
      else if (own(callee)) visit(callee);
    }
  };
  visit(method);
  return [...found].sort();
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** ccxt's camel-case implicit method names → `METHOD /api/path`. */
function apiNames(
  api: object,
  sections: string[] = [],
  into = new Map<string, string>(),
): Map<string, string> {
  for (const [key, value] of Object.entries(api)) {
    if (!/^(get|post|put|delete)$/i.test(key)) {
      apiNames(value as object, [...sections, key], into);
      continue;
    }
    for (const path of Object.keys(value as object)) {
      const suffix = path
        .trim()
        .split(/[^a-zA-Z0-9]/)
        .map(capitalize)
        .join('');
      const prefix = [sections[0] ?? '', ...sections.slice(1).map(capitalize)].join('');
      into.set(
        prefix + capitalize(key.toLowerCase()) + capitalize(suffix),
        `${key.toUpperCase()} /api/${path.trim()}`,
      );
    }
  }
  return into;
}

export type SdkClient = 'RestClientV2' | 'RestClientV3';

/** Families the suite covers, and those of the venue's other products. */
export type Family =
  | 'common'
  | 'market'
  | 'spot'
  | 'futures'
  | 'margin'
  | 'account'
  | 'wallet'
  | 'convert'
  | 'broker'
  | 'trade'
  | 'outside';

export interface SdkMethod {
  client: SdkClient;
  name: string;
  /** `GET /api/v2/…`; '' for a method of the SDK's own that calls no endpoint. */
  endpoint: string;
  family: Family;
}

const OUTSIDE = /^\/api\/v[23]\/(copy|earn|p2p|tax|ins-loan|loan|stockplus)\/|^\/api\/v2\/spot\/ins-loan\//;

/** The family of a path, by its prefix. */
export function familyOf(path: string): Family {
  if (path === '' || OUTSIDE.test(path)) return 'outside';
  const [, version, area, sub] = /^\/api\/(v[23])\/([^/]+)\/?([^/]*)/.exec(path) ?? [];
  if (area === 'public' || area === 'common') return area === 'public' ? 'common' : 'account';
  if (version === 'v2') {
    if (area === 'spot') return sub === 'wallet' ? 'wallet' : sub === 'account' ? 'account' : 'spot';
    if (area === 'mix') return 'futures';
    if (area === 'user' || area === 'account') return 'account';
    if (area === 'margin' || area === 'convert' || area === 'broker') return area;
    return 'outside';
  }
  if (area === 'market') return 'market';
  if (area === 'trade' || area === 'position') return area === 'trade' ? 'trade' : 'futures';
  if (area === 'account' || area === 'user') return 'account';
  if (area === 'broker') return 'broker';
  return 'outside';
}

const CALL = /this\.(get|post|getPrivate|postPrivate|deletePrivate|putPrivate)\(\s*[`'"]([^`'"]+)[`'"]/;

function methodsOf(client: SdkClient, prototype: object): SdkMethod[] {
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor')
    .map((name) => {
      const source = String((prototype as Record<string, unknown>)[name]);
      const [, verb = '', path = ''] = CALL.exec(source) ?? [];
      const method = verb.startsWith('get') ? 'GET' : verb.startsWith('post') ? 'POST' : verb.toUpperCase();
      return { client, name, endpoint: path ? `${method} ${path}` : '', family: familyOf(path) };
    });
}

export function sdkInventory(): SdkMethod[] {
  return [
    ...methodsOf('RestClientV2', RestClientV2.prototype),
    ...methodsOf('RestClientV3', RestClientV3.prototype),
  ];
}

/** The path of an endpoint (`GET /api/v2/x` → `/api/v2/x`), with `${marginType}` as `crossed`. */
export function pathOf(endpoint: string): string {
  return endpoint.replace(/^\S+ /, '').replace('${marginType}', 'crossed');
}
