/**
 * What the v2 margin routes share: the two margin types, reading an isolated request's symbol
 * and a coin, the account's isolated wallets and balances, and the figures computed for the
 * answers (transfer-out limit, risk ratio, rates).
 */
import { formatMoney } from '../../domain/money.ts';
import { parseScaled } from '../../domain/decimal.ts';
import type { Balance } from '../../domain/wallet.ts';
import type { EngineState } from '../../engine/state.ts';
import { debtAllowsTransfer } from '../../engine/accounts/transfer-rules.ts';
import { readBalance } from '../../engine/accounts/ledger.ts';
import { dailyRateText } from '../../engine/margin/interest.ts';
import { ISOLATED_PREFIX, marginInstrument, type MarginType } from '../../engine/margin/margin-wallet.ts';
import { borrowLimitText, maintenanceRate } from '../../engine/margin/tiers.ts';
import { riskRatio, walletValue } from '../../engine/margin/valuation.ts';
import { optionalString, requiredString, type Fields } from '../params.ts';
import { caller, reject, type ApiRequest } from '../request.ts';

export const MARGIN_TYPES: readonly MarginType[] = ['crossed', 'isolated'];

export const uidOf = (request: ApiRequest) => caller(request).account.uid;

/** An isolated request's symbol: required, a margin symbol. */
export function isolatedSymbol(state: EngineState, fields: Fields, required = true): string | undefined {
  const symbol = optionalString(fields, 'symbol')?.toUpperCase();
  if (!symbol) {
    if (required) reject('PARAM_EMPTY', 'symbol');
    return undefined;
  }
  if (!marginInstrument(state, symbol)) reject('SYMBOL_NOT_FOUND', symbol);
  return symbol;
}

export function coinOf(fields: Fields): string {
  return requiredString(fields, 'coin').toUpperCase();
}

/** The isolated wallets the account holds (every one, or the one symbol's). */
export function isolatedWallets(state: EngineState, uid: string, symbol?: string): string[] {
  if (symbol) return [`${ISOLATED_PREFIX}${symbol}`];
  const prefix = `${uid}|${ISOLATED_PREFIX}`;
  const wallets = new Set<string>();
  for (const key of state.balances.keys()) {
    if (key.startsWith(prefix)) wallets.add(key.slice(uid.length + 1, key.lastIndexOf('|')));
  }
  return [...wallets].sort();
}

export function balancesOf(state: EngineState, uid: string, wallet: string): [string, Balance][] {
  const prefix = `${uid}|${wallet}|`;
  const rows: [string, Balance][] = [];
  for (const [key, balance] of state.balances) {
    if (key.startsWith(prefix)) rows.push([key.slice(prefix.length), balance]);
  }
  return rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The most of `coin` that may leave the wallet without its risk ratio reaching the warning line. */
export function maxTransferOut(state: EngineState, uid: string, wallet: string, coin: string): bigint {
  let low = 0n;
  let high = readBalance(state, uid, wallet, coin).available;
  if (debtAllowsTransfer(state, uid, wallet, coin, high)) return high;
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (debtAllowsTransfer(state, uid, wallet, coin, middle)) low = middle;
    else high = middle;
  }
  return low;
}

export function ratioText(state: EngineState, uid: string, wallet: string, isolated: boolean): string {
  const ratio = riskRatio(walletValue(state, uid, wallet), maintenanceRate(isolated));
  return formatMoney(ratio ?? 0n);
}

export function annual(daily: string): string {
  const rate = parseScaled(daily, 12) ?? 0n;
  const text = (rate * 365n).toString().padStart(13, '0');
  return `${text.slice(0, -12)}.${text.slice(-12)}`.replace(/\.?0+$/, '');
}

export function vipList(coin: string) {
  const daily = dailyRateText(coin);
  return [
    {
      level: '0',
      limit: borrowLimitText(coin),
      dailyInterestRate: daily,
      annualInterestRate: annual(daily),
      discountRate: '1',
    },
  ];
}
