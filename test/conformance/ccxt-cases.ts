/**
 * Every ccxt method the suite knows, with its verdict (verdict.ts): the market, trading,
 * account and WebSocket cases, and the reasons for the capability flags of `has`.
 */
import { CCXT_ACCOUNT_CASES } from './ccxt-account-cases.ts';
import type { CcxtContext } from './ccxt-context.ts';
import { CCXT_MARKET_CASES } from './ccxt-market-cases.ts';
import { CCXT_PRO_CASES } from './ccxt-pro-cases.ts';
import { CCXT_TRADING_CASES } from './ccxt-trading-cases.ts';
import type { Entry } from './verdict.ts';

export const CCXT_CASES: Readonly<Record<string, Entry<CcxtContext>>> = Object.assign(
  Object.create(null) as Record<string, Entry<CcxtContext>>,
  CCXT_MARKET_CASES,
  CCXT_TRADING_CASES,
  CCXT_ACCOUNT_CASES,
  CCXT_PRO_CASES,
);

/** What each capability flag of `has` means here (they are not methods: nothing to call). */
export const CCXT_FLAGS: Readonly<Record<string, string>> = {
  publicAPI: 'the public endpoints: served',
  privateAPI: 'the signed endpoints: served',
  spot: 'spot markets: served',
  margin:
    'spot margin: markets loaded by loadMarkets; the v2 crossed and isolated margin endpoints served (ccxt-margin.test.ts)',
  swap: 'perpetual futures: served',
  future: 'delivery futures: served',
  ws: 'the WebSocket endpoints: served',
};
