/**
 * Every method of the SDK's RestClientV2 and RestClientV3 in the covered families, with its
 * verdict (verdict.ts). RestClientV2 runs on classic accounts, RestClientV3 on unified ones.
 */
import type { V2Context, V3Context } from './sdk-context.ts';
import { SDK_V2_SCOPE, SDK_V3_SCOPE } from './sdk-scope.ts';
import { SDK_V2_ACCOUNT_CASES } from './sdk-v2-account.ts';
import { SDK_V2_MARKET_CASES } from './sdk-v2-market.ts';
import { SDK_V2_FUTURES_CASES } from './sdk-v2-futures.ts';
import { SDK_V2_SPOT_CASES } from './sdk-v2-spot.ts';
import { SDK_V2_MARGIN_CASES } from './sdk-v2-margin.ts';
import { SDK_V2_WALLET_CASES } from './sdk-v2-wallet.ts';
import { SDK_V3_MARKET_CASES } from './sdk-v3-market.ts';
import { SDK_V3_TRADING_CASES } from './sdk-v3-trading.ts';
import { SDK_V3_WALLET_CASES } from './sdk-v3-wallet.ts';
import type { Entry } from './verdict.ts';

function table<C>(...parts: Record<string, Entry<C>>[]): Readonly<Record<string, Entry<C>>> {
  return Object.assign(Object.create(null) as Record<string, Entry<C>>, ...parts);
}

export const SDK_V2_CASES = table<V2Context>(
  SDK_V2_MARKET_CASES,
  SDK_V2_SPOT_CASES,
  SDK_V2_MARGIN_CASES,
  SDK_V2_FUTURES_CASES,
  SDK_V2_ACCOUNT_CASES,
  SDK_V2_WALLET_CASES,
  SDK_V2_SCOPE,
);
export const SDK_V3_CASES = table<V3Context>(
  SDK_V3_MARKET_CASES,
  SDK_V3_TRADING_CASES,
  SDK_V3_WALLET_CASES,
  SDK_V3_SCOPE,
);

/** Why a method outside the covered families is not in the suite. */
export function outsideReason(path: string): string {
  if (path === '') return "the SDK's own method: it calls no endpoint";
  const area = /^\/api\/v[23]\/(?:spot\/)?([^/]+)/.exec(path)?.[1] ?? '';
  const products: Record<string, string> = {
    copy: 'copy trading',
    earn: 'earn products',
    p2p: 'peer-to-peer trading',
    tax: 'tax records',
    'ins-loan': 'institutional loans',
    loan: 'crypto loans',
    stockplus: 'tokenised stocks',
  };
  return `outside the suite's families: the venue's ${products[area] ?? area}, not a product of bourse`;
}
