/**
 * Balances and ledgers: v2 spot account assets and bills, v3 account assets, and the margin
 * debt endpoints (v3 repayable-coins, spec §11, and repay).
 */
import { divide } from '../../domain/decimal.ts';
import { formatMoney, MONEY_ONE } from '../../domain/money.ts';
import type { Balance } from '../../domain/wallet.ts';
import { usdtPriceOf } from '../../engine/trading/reference-price.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import type { EngineState } from '../../engine/state.ts';
import { asObject, optionalEnum, optionalString, optionalStringList } from '../params.ts';
import { caller, reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { repayDebt } from './margin-repay.ts';
import { nameTable } from '../../domain/name-table.ts';

/** Repay at most this many coins per call (the venue's maxSelection). */
export const MAX_REPAY_COINS = 5;

function walletBalances(state: EngineState, uid: string, wallet: string): [string, Balance][] {
  const prefix = `${uid}|${wallet}|`;
  const rows: [string, Balance][] = [];
  for (const [key, balance] of state.balances)
    if (key.startsWith(prefix)) rows.push([key.slice(prefix.length), balance]);
  return rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const GROUP_TYPES: Readonly<Record<string, string>> = nameTable({
  deposit: 'deposit',
  withdraw: 'withdraw',
  buy: 'transaction',
  sell: 'transaction',
  borrow: 'loan',
  repay: 'loan',
  'transfer-in': 'transfer',
  'transfer-out': 'transfer',
  'convert-in': 'convert',
  'convert-out': 'convert',
});

function usdValue(state: EngineState, coin: string, amount: bigint): bigint {
  const price = usdtPriceOf(state, coin) ?? 0n;
  return divide(amount * price, MONEY_ONE, 'down');
}

export function assetRoutes(services: Services): Route[] {
  const spot = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic', area: 'spot' });
  const unified = signedRoutes({ dialect: 'v3', accountMode: 'unified' });
  const state = () => services.sequencer.exchange.state;
  return [
    spot('GET', '/api/v2/spot/account/assets', 10, false, (request) => {
      const coin = optionalString(request.query, 'coin')?.toUpperCase();
      const all = optionalEnum(request.query, 'assetType', ['hold_only', 'all'] as const) === 'all';
      const uid = caller(request).account.uid;
      return walletBalances(state(), uid, tradingWallet(state(), uid, 'SPOT'))
        .filter(
          ([name, balance]) =>
            (!coin || name === coin) && (all || coin || balance.available + balance.frozen > 0n),
        )
        .map(([name, balance]) => ({
          coin: name,
          available: formatMoney(balance.available),
          frozen: formatMoney(balance.frozen),
          locked: '0',
          limitAvailable: '0',
          uTime: String(state().nowMs),
        }));
    }),
    spot('GET', '/api/v2/spot/account/bills', 10, false, async (request) => {
      const { query } = request;
      const uid = caller(request).account.uid;
      const coin = optionalString(query, 'coin')?.toUpperCase();
      const businessType = optionalString(query, 'businessType')?.toLowerCase();
      const groupType = optionalString(query, 'groupType')?.toLowerCase();
      const types = groupType
        ? Object.keys(GROUP_TYPES).filter((type) => GROUP_TYPES[type] === groupType)
        : businessType
          ? [businessType]
          : undefined;
      const idLessThan = idCursor(query, 'idLessThan');
      const bills = await services.store.bills({
        uid,
        wallets: [tradingWallet(state(), uid, 'SPOT')],
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS),
        ...(coin ? { coin } : {}),
        ...(types ? { businessTypes: types.length > 0 ? types : ['none'] } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 500),
      });
      return bills.map((bill) => ({
        cTime: String(bill.timeMs),
        coin: bill.coin,
        groupType: GROUP_TYPES[bill.businessType] ?? 'other',
        businessType: bill.businessType,
        size: formatMoney(bill.amount),
        balance: formatMoney(bill.balanceAfter),
        fees: bill.fee === 0n ? '0' : `-${formatMoney(bill.fee)}`,
        billId: bill.billId,
      }));
    }),
    unified('GET', '/api/v3/account/assets', 20, undefined, (request) => {
      const uid = caller(request).account.uid;
      const current = state();
      let equity = 0n;
      const assets = walletBalances(current, uid, tradingWallet(current, uid, 'SPOT'))
        .filter(([, balance]) => balance.available + balance.frozen + balance.borrowed > 0n)
        .map(([coin, balance]) => {
          const total = balance.available + balance.frozen;
          const coinEquity = total - balance.borrowed - balance.interest;
          const value = usdValue(current, coin, coinEquity);
          equity += value;
          return {
            coin,
            equity: formatMoney(coinEquity),
            usdValue: formatMoney(value),
            balance: formatMoney(total),
            available: formatMoney(balance.available),
            debt: formatMoney(balance.borrowed + balance.interest),
            locked: formatMoney(balance.frozen),
          };
        });
      const btcPrice = usdtPriceOf(current, 'BTC');
      return {
        accountEquity: formatMoney(equity),
        usdtEquity: formatMoney(equity),
        btcEquity: btcPrice ? formatMoney(divide(equity * MONEY_ONE, btcPrice, 'down')) : '0',
        unrealisedPnl: '0',
        usdtUnrealisedPnl: '0',
        btcUnrealizedPnl: '0',
        effEquity: formatMoney(equity),
        mmr: '0',
        imr: '0',
        mgnRatio: '0',
        positionMgnRatio: '0',
        assets,
      };
    }),
    unified('GET', '/api/v3/account/repayable-coins', 10, undefined, (request) => {
      const uid = caller(request).account.uid;
      const current = state();
      const repayableCoinList = walletBalances(current, uid, tradingWallet(current, uid, 'MARGIN'))
        .filter(([, balance]) => balance.borrowed + balance.interest > 0n)
        .map(([coin, balance]) => {
          const owed = balance.borrowed + balance.interest;
          return { coin, size: formatMoney(owed), amount: formatMoney(usdValue(current, coin, owed)) };
        });
      return { repayableCoinList, maxSelection: String(MAX_REPAY_COINS) };
    }),
    unified('POST', '/api/v3/account/repay', 5, { area: 'margin', write: true }, async (request) => {
      const body = asObject(request.body);
      const coins = optionalStringList(body, 'repayableCoinList', MAX_REPAY_COINS);
      if (!coins || coins.length === 0) reject('PARAM_EMPTY', 'repayableCoinList');
      const upper = [...new Set(coins.map((coin) => coin.toUpperCase()))];
      const payment = optionalStringList(body, 'paymentCoinList', MAX_REPAY_COINS)?.map((coin) =>
        coin.toUpperCase(),
      );
      const repaid = await repayDebt(services, caller(request).account.uid, upper, payment);
      return { result: repaid > 0n ? 'YES' : 'NO', repayAmount: formatMoney(repaid) };
    }),
  ];
}
