/**
 * v2 margin accounts, crossed and isolated (`/api/v2/margin/{crossed|isolated}/…`): assets,
 * borrow, repay, the borrow and transfer-out limits, the risk ratio, rates and tiers, flash
 * repay. The isolated routes act on the symbol's own wallet (`isolated_margin:SYMBOL`).
 */
import { formatMoney, MONEY_ONE } from '../../domain/money.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import type { Balance } from '../../domain/wallet.ts';
import type { EngineState } from '../../engine/state.ts';
import { debtAllowsTransfer } from '../../engine/accounts/transfer-rules.ts';
import { readBalance } from '../../engine/accounts/ledger.ts';
import { maxBorrowable } from '../../engine/margin/borrow.ts';
import { dailyRateText } from '../../engine/margin/interest.ts';
import {
  ISOLATED_PREFIX,
  marginInstrument,
  marginWallet,
  type MarginType,
} from '../../engine/margin/margin-wallet.ts';
import {
  borrowLimitText,
  crossedLeverage,
  CROSS_MAINTENANCE_RATE,
  ISOLATED_MAINTENANCE_RATE,
  isolatedLeverage,
} from '../../engine/margin/tiers.ts';
import { riskRatio, walletValue } from '../../engine/margin/valuation.ts';
import { maintenanceRate } from '../../engine/margin/tiers.ts';
import { asObject, optionalString, requiredDecimal, requiredString, type Fields } from '../params.ts';
import { caller, reject, unwrap, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { marginAssetRow } from '../wire/margin.ts';
import { signedRoutes } from './route-kit.ts';

export const MARGIN_TYPES: readonly MarginType[] = ['crossed', 'isolated'];

const uidOf = (request: ApiRequest) => caller(request).account.uid;

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

function coinOf(fields: Fields): string {
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

function balancesOf(state: EngineState, uid: string, wallet: string): [string, Balance][] {
  const prefix = `${uid}|${wallet}|`;
  const rows: [string, Balance][] = [];
  for (const [key, balance] of state.balances) {
    if (key.startsWith(prefix)) rows.push([key.slice(prefix.length), balance]);
  }
  return rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The most of `coin` that may leave the wallet without its risk ratio reaching the warning line. */
function maxTransferOut(state: EngineState, uid: string, wallet: string, coin: string): bigint {
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

function ratioText(state: EngineState, uid: string, wallet: string, isolated: boolean): string {
  const ratio = riskRatio(walletValue(state, uid, wallet), maintenanceRate(isolated));
  return formatMoney(ratio ?? 0n);
}

function annual(daily: string): string {
  const rate = parseScaled(daily, 12) ?? 0n;
  const text = (rate * 365n).toString().padStart(13, '0');
  return `${text.slice(0, -12)}.${text.slice(-12)}`.replace(/\.?0+$/, '');
}

function vipList(coin: string) {
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

export function v2MarginAccountRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2', accountMode: 'classic', area: 'margin' });
  const state = () => services.sequencer.exchange.state;
  const now = () => services.clock.now();
  const flashStatus = async (idList: unknown, uid: string, marginType: MarginType) => {
    const ids = typeof idList === 'string' ? idList.split(',').filter(Boolean) : idList;
    if (!Array.isArray(ids) || ids.length === 0) reject('PARAM_EMPTY', 'idList');
    if (ids.length > 100 || ids.some((id) => typeof id !== 'string' || !/^\d{1,24}$/.test(id)))
      reject('PARAM_ERROR', 'idList');
    const current = state();
    const wallets =
      marginType === 'isolated' ? isolatedWallets(current, uid) : [marginWallet(current, uid, 'crossed')];
    const bills =
      wallets.length > 0
        ? await services.store.bills({ uid, wallets, businessTypes: ['flash_repay'], limit: 1000 })
        : [];
    const done = new Set(bills.map((bill) => bill.billId));
    return (ids as string[]).map((repayId) => ({ repayId, status: done.has(repayId) ? 'SUCCESS' : 'FAIL' }));
  };
  const routes: Route[] = [];
  for (const marginType of MARGIN_TYPES) {
    const base = `/api/v2/margin/${marginType}`;
    const isolated = marginType === 'isolated';
    routes.push(
      route('GET', `${base}/account/assets`, 10, false, (request) => {
        const current = state();
        const uid = uidOf(request);
        const coin = optionalString(request.query, 'coin')?.toUpperCase();
        if (!isolated) {
          return balancesOf(current, uid, marginWallet(current, uid, 'crossed'))
            .filter(([name]) => !coin || name === coin)
            .map(([name, balance]) => marginAssetRow(name, balance, null, now()));
        }
        const symbol = isolatedSymbol(current, request.query, false);
        return isolatedWallets(current, uid, symbol).flatMap((wallet) =>
          balancesOf(current, uid, wallet)
            .filter(([name]) => !coin || name === coin)
            .map(([name, balance]) =>
              marginAssetRow(name, balance, wallet.slice(ISOLATED_PREFIX.length), now()),
            ),
        );
      }),
      route('POST', `${base}/account/borrow`, 10, true, async (request) => {
        const body = asObject(request.body);
        const coin = coinOf(body);
        const amount = requiredDecimal(body, 'borrowAmount');
        const symbol = isolated ? isolatedSymbol(state(), body) : undefined;
        const clientOid = optionalString(body, 'clientOid');
        const outcome = await services.sequencer.submit<{ loanId: string; amount: bigint }>({
          type: 'BorrowMargin',
          timeMs: now(),
          uid: uidOf(request),
          marginType,
          ...(symbol ? { symbol } : {}),
          coin,
          amount,
        });
        const { loanId, amount: borrowed } = unwrap(outcome);
        return {
          loanId,
          ...(symbol ? { symbol } : {}),
          coin,
          borrowAmount: formatMoney(borrowed),
          ...(clientOid !== undefined ? { clientOid } : {}),
        };
      }),
      route('POST', `${base}/account/repay`, 10, true, async (request) => {
        const body = asObject(request.body);
        const coin = coinOf(body);
        const amount = requiredDecimal(body, 'repayAmount');
        const symbol = isolated ? isolatedSymbol(state(), body) : undefined;
        const clientOid = optionalString(body, 'clientOid');
        const outcome = await services.sequencer.submit<{ repayId: string; paid: bigint; remaining: bigint }>(
          {
            type: 'RepayMargin',
            timeMs: now(),
            uid: uidOf(request),
            marginType,
            ...(symbol ? { symbol } : {}),
            coin,
            amount,
          },
        );
        const { repayId, paid, remaining } = unwrap(outcome);
        return {
          ...(symbol ? { symbol } : {}),
          coin,
          repayId,
          remainDebtAmount: formatMoney(remaining),
          repayAmount: formatMoney(paid),
          ...(clientOid !== undefined ? { clientOid } : {}),
        };
      }),
      route('GET', `${base}/account/max-borrowable-amount`, 10, false, (request) => {
        const current = state();
        const uid = uidOf(request);
        if (!isolated) {
          const coin = coinOf(request.query);
          const wallet = marginWallet(current, uid, 'crossed');
          return { coin, maxBorrowableAmount: formatMoney(maxBorrowable(current, uid, wallet, coin)) };
        }
        const symbol = isolatedSymbol(current, request.query) ?? '';
        const instrument = marginInstrument(current, symbol);
        if (!instrument) return reject('SYMBOL_NOT_FOUND', symbol);
        const wallet = marginWallet(current, uid, 'isolated', symbol);
        return {
          symbol,
          baseCoin: instrument.baseCoin,
          baseCoinMaxBorrowAmount: formatMoney(maxBorrowable(current, uid, wallet, instrument.baseCoin)),
          quoteCoin: instrument.quoteCoin,
          quoteCoinMaxBorrowAmount: formatMoney(maxBorrowable(current, uid, wallet, instrument.quoteCoin)),
        };
      }),
      route('GET', `${base}/account/max-transfer-out-amount`, 10, false, (request) => {
        const current = state();
        const uid = uidOf(request);
        if (!isolated) {
          const coin = coinOf(request.query);
          const wallet = marginWallet(current, uid, 'crossed');
          return { coin, maxTransferOutAmount: formatMoney(maxTransferOut(current, uid, wallet, coin)) };
        }
        const symbol = isolatedSymbol(current, request.query) ?? '';
        const instrument = marginInstrument(current, symbol);
        if (!instrument) return reject('SYMBOL_NOT_FOUND', symbol);
        const wallet = marginWallet(current, uid, 'isolated', symbol);
        return {
          baseCoin: instrument.baseCoin,
          symbol,
          baseCoinMaxTransferOutAmount: formatMoney(
            maxTransferOut(current, uid, wallet, instrument.baseCoin),
          ),
          quoteCoin: instrument.quoteCoin,
          quoteCoinMaxTransferOutAmount: formatMoney(
            maxTransferOut(current, uid, wallet, instrument.quoteCoin),
          ),
        };
      }),
      route('GET', `${base}/account/risk-rate`, 10, false, (request) => {
        const current = state();
        const uid = uidOf(request);
        if (!isolated)
          return [{ riskRateRatio: ratioText(current, uid, marginWallet(current, uid, 'crossed'), false) }];
        const symbol = isolatedSymbol(current, request.query, false);
        return isolatedWallets(current, uid, symbol).map((wallet) => ({
          symbol: wallet.slice(ISOLATED_PREFIX.length),
          riskRateRatio: ratioText(current, uid, wallet, true),
        }));
      }),
      route('GET', `${base}/interest-rate-and-limit`, 10, false, (request) => {
        const current = state();
        const uid = uidOf(request);
        if (!isolated) {
          const coin = coinOf(request.query);
          const daily = dailyRateText(coin);
          const wallet = marginWallet(current, uid, 'crossed');
          return [
            {
              transferable: true,
              leverage: crossedLeverage(current, coin).toString(),
              coin,
              borrowable: true,
              dailyInterestRate: daily,
              annualInterestRate: annual(daily),
              maxBorrowableAmount: formatMoney(maxBorrowable(current, uid, wallet, coin)),
              vipList: vipList(coin),
            },
          ];
        }
        const symbol = isolatedSymbol(current, request.query) ?? '';
        const instrument = marginInstrument(current, symbol);
        if (!instrument) return reject('SYMBOL_NOT_FOUND', symbol);
        const wallet = marginWallet(current, uid, 'isolated', symbol);
        const side = (coin: string) => {
          const daily = dailyRateText(coin);
          return {
            daily,
            annual: annual(daily),
            max: formatMoney(maxBorrowable(current, uid, wallet, coin)),
          };
        };
        const list = (coin: string) =>
          vipList(coin).map(({ annualInterestRate, ...rest }) => ({
            ...rest,
            annuallyInterestRate: annualInterestRate,
          }));
        const baseSide = side(instrument.baseCoin);
        const quoteSide = side(instrument.quoteCoin);
        return [
          {
            symbol,
            leverage: isolatedLeverage(instrument).toString(),
            baseCoin: instrument.baseCoin,
            baseTransferable: true,
            baseBorrowable: true,
            baseDailyInterestRate: baseSide.daily,
            baseAnnuallyInterestRate: baseSide.annual,
            baseMaxBorrowableAmount: baseSide.max,
            baseVipList: list(instrument.baseCoin),
            quoteCoin: instrument.quoteCoin,
            quoteTransferable: true,
            quoteBorrowable: true,
            quoteDailyInterestRate: quoteSide.daily,
            quoteAnnuallyInterestRate: quoteSide.annual,
            quoteMaxBorrowableAmount: quoteSide.max,
            quoteList: list(instrument.quoteCoin),
          },
        ];
      }),
      route('GET', `${base}/tier-data`, 10, false, (request) => {
        const current = state();
        if (!isolated) {
          const coin = coinOf(request.query);
          return [
            {
              tier: '1',
              leverage: crossedLeverage(current, coin).toString(),
              coin,
              maxBorrowableAmount: borrowLimitText(coin),
              maintainMarginRate: CROSS_MAINTENANCE_RATE,
            },
          ];
        }
        const symbol = isolatedSymbol(current, request.query) ?? '';
        const instrument = marginInstrument(current, symbol);
        if (!instrument) return reject('SYMBOL_NOT_FOUND', symbol);
        const leverage = isolatedLeverage(instrument);
        return [
          {
            tier: '1',
            symbol,
            leverage: leverage.toString(),
            baseCoin: instrument.baseCoin,
            quoteCoin: instrument.quoteCoin,
            baseMaxBorrowableAmount: borrowLimitText(instrument.baseCoin),
            quoteMaxBorrowableAmount: borrowLimitText(instrument.quoteCoin),
            maintainMarginRate: ISOLATED_MAINTENANCE_RATE,
            initRate: formatMoney(divide(MONEY_ONE, leverage, 'up')),
          },
        ];
      }),
      route('POST', `${base}/account/flash-repay`, 10, true, async (request) => {
        const body = asObject(request.body);
        const coin = isolated ? undefined : optionalString(body, 'coin')?.toUpperCase();
        const symbol = isolated ? isolatedSymbol(state(), body, false) : undefined;
        const outcome = await services.sequencer.submit<{ repayId: string }>({
          type: 'FlashRepay',
          timeMs: now(),
          uid: uidOf(request),
          marginType,
          ...(coin ? { coin } : {}),
          ...(symbol ? { symbol } : {}),
        });
        const { repayId } = unwrap(outcome);
        return { repayId, ...(coin ? { coin } : {}), ...(symbol ? { symbol } : {}), result: 'success' };
      }),
      // ccxt posts it, the SDK gets it (idList comma-separated): both are served.
      route('POST', `${base}/account/query-flash-repay-status`, 10, false, (request) =>
        flashStatus(asObject(request.body).idList, uidOf(request), marginType),
      ),
      route('GET', `${base}/account/query-flash-repay-status`, 10, false, (request) =>
        flashStatus(request.query.idList, uidOf(request), marginType),
      ),
    );
  }
  return routes;
}
