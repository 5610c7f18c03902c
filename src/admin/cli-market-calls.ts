/**
 * bourse-admin's market subcommands (docs/operator.md, "Price feeds and the liquidity
 * provider"): the feeds' streams, paused and resumed, and the liquidity provider's settings
 * and inventory.
 */
import { UsageError, need, type Call } from './cli-options.ts';

/** feeds list | feeds pause|resume FEED|* | feeds pause|resume CATEGORY SYMBOL */
export function feedsCall(action: string, rest: string[]): Call {
  if (action === 'list') {
    need(rest, 0, 'no arguments');
    return { method: 'GET', path: '/admin/v1/feeds' };
  }
  if (action !== 'pause' && action !== 'resume') throw new UsageError(`unknown feeds action ${action}`);
  const paused = action === 'pause';
  if (rest.length === 2) {
    const [category, symbol] = rest;
    return { method: 'PUT', path: '/admin/v1/feeds', body: { category, symbol, paused } };
  }
  const [feed] = need(rest, 1, 'FEED|* or CATEGORY SYMBOL');
  return { method: 'PUT', path: '/admin/v1/feeds', body: { feed, paused } };
}

/** liquidity get | liquidity set FIELD=VALUE... | liquidity inventory */
export function liquidityCall(action: string, rest: string[]): Call {
  if (action === 'get' || action === 'inventory') {
    need(rest, 0, 'no arguments');
    return {
      method: 'GET',
      path: action === 'get' ? '/admin/v1/liquidity' : '/admin/v1/liquidity/inventory',
    };
  }
  if (action !== 'set') throw new UsageError(`unknown liquidity action ${action}`);
  if (rest.length === 0) throw new UsageError('expected FIELD=VALUE...');
  const body: Record<string, string> = {};
  for (const pair of rest) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`expected FIELD=VALUE, got ${pair}`);
    // The route refuses unknown names; a prototype name stays a plain key of this object.
    Object.defineProperty(body, pair.slice(0, at), {
      value: pair.slice(at + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { method: 'PATCH', path: '/admin/v1/liquidity', body };
}
