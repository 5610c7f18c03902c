/**
 * v2 margin accounts, crossed and isolated (`/api/v2/margin/{crossed|isolated}/…`): assets,
 * borrow, repay, the borrow and transfer-out limits, the risk ratio, flash repay. The isolated
 * routes act on the symbol's own wallet (`isolated_margin:SYMBOL`); rates and tiers are in
 * v2-margin-rates.ts.
 */
import { formatMoney } from '../../domain/money.ts';
import type { EngineState } from '../../engine/state.ts';
import { maxBorrowable } from '../../engine/margin/borrow.ts';
import {
  ISOLATED_PREFIX,
  marginInstrument,
  marginWallet,
  type MarginType,
} from '../../engine/margin/margin-wallet.ts';
import { asObject, optionalString, requiredDecimal } from '../params.ts';
import { reject, unwrap, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { marginAssetRow } from '../wire/margin.ts';
import {
  balancesOf,
  coinOf,
  isolatedSymbol,
  isolatedWallets,
  MARGIN_TYPES,
  maxTransferOut,
  ratioText,
  uidOf,
} from './margin-query.ts';
import { signedRoutes } from './route-kit.ts';

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
  /**
   * A per-coin limit of a margin wallet as the venue names it: crossed `{coin, <crossedField>}`;
   * isolated, for the symbol's two coins, `{symbol, baseCoin, baseCoin<Suffix>, quoteCoin,
   * quoteCoin<Suffix>}`.
   */
  const coinLimits = (
    request: ApiRequest,
    marginType: MarginType,
    limitOf: (current: EngineState, uid: string, wallet: string, coin: string) => bigint,
    [crossedField, isolatedSuffix]: [string, string],
  ) => {
    const current = state();
    const uid = uidOf(request);
    if (marginType === 'crossed') {
      const coin = coinOf(request.query);
      const wallet = marginWallet(current, uid, 'crossed');
      return { coin, [crossedField]: formatMoney(limitOf(current, uid, wallet, coin)) };
    }
    const symbol = isolatedSymbol(current, request.query) ?? '';
    const instrument = marginInstrument(current, symbol);
    if (!instrument) return reject('SYMBOL_NOT_FOUND', symbol);
    const wallet = marginWallet(current, uid, 'isolated', symbol);
    const { baseCoin, quoteCoin } = instrument;
    return {
      symbol,
      baseCoin,
      [`baseCoin${isolatedSuffix}`]: formatMoney(limitOf(current, uid, wallet, baseCoin)),
      quoteCoin,
      [`quoteCoin${isolatedSuffix}`]: formatMoney(limitOf(current, uid, wallet, quoteCoin)),
    };
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
      route('GET', `${base}/account/max-borrowable-amount`, 10, false, (request) =>
        coinLimits(request, marginType, maxBorrowable, ['maxBorrowableAmount', 'MaxBorrowAmount']),
      ),
      route('GET', `${base}/account/max-transfer-out-amount`, 10, false, (request) =>
        coinLimits(request, marginType, maxTransferOut, ['maxTransferOutAmount', 'MaxTransferOutAmount']),
      ),
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
