/**
 * v2 margin records, crossed and isolated: interest, borrow, repay and financial records, read
 * from the bills of the margin wallets (engine/margin writes a bill for every borrowing,
 * repayment and interest charge), and liquidations from their own table. `idLessThan` paging,
 * newest first, within 90 days; `startTime` as the venue requires it. Rows carry
 * `maxId`/`minId` of the page. A `loanId` or `repayId` filter is part of the bills query, so it
 * applies before the page limit.
 */
import type { BillRow } from '../../ports/store.ts';
import { dailyRateText } from '../../engine/margin/interest.ts';
import { ISOLATED_PREFIX, marginWallet } from '../../engine/margin/margin-wallet.ts';
import { optionalEnum, optionalString, type Fields } from '../params.ts';
import { caller, reject, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import {
  borrowRecordRow,
  FINANCIAL_TYPES,
  financialRecordRow,
  interestRecordRow,
  liquidationRow,
  repayRecordRow,
} from '../wire/margin.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';
import { isolatedSymbol, isolatedWallets, MARGIN_TYPES } from './margin-query.ts';

const FINANCIAL_NAMES = [...new Set(Object.values(FINANCIAL_TYPES))];

function page<T>(rows: T[], idOf: (row: T) => string) {
  const ids = rows.map(idOf);
  return { resultList: rows, maxId: ids[0] ?? '', minId: ids[ids.length - 1] ?? '' };
}

function symbolOfWallet(wallet: string): string | null {
  return wallet.startsWith(ISOLATED_PREFIX) ? wallet.slice(ISOLATED_PREFIX.length) : null;
}

export function v2MarginRecordRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2', accountMode: 'classic', area: 'margin' });
  const state = () => services.sequencer.exchange.state;

  /** The bills of the request's margin wallets, by business type, newest first. */
  const billsOf = async (
    request: ApiRequest,
    isolated: boolean,
    businessTypes: readonly string[],
    only: { idName?: string } = {},
  ): Promise<BillRow[]> => {
    const { query } = request;
    if (optionalString(query, 'startTime') === undefined) reject('PARAM_EMPTY', 'startTime');
    const uid = caller(request).account.uid;
    const current = state();
    const symbol = isolated ? isolatedSymbol(current, query, false) : undefined;
    const wallets = isolated
      ? isolatedWallets(current, uid, symbol)
      : [marginWallet(current, uid, 'crossed')];
    const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
    const coin = optionalString(query, 'coin')?.toUpperCase();
    const idLessThan = idCursor(query, 'idLessThan');
    const wanted = only.idName ? idCursor(query, only.idName) : undefined;
    if (wallets.length === 0) return [];
    return services.store.bills({
      uid,
      wallets,
      categories: ['MARGIN'],
      businessTypes,
      ...window,
      ...(coin ? { coin } : {}),
      ...(idLessThan ? { idLessThan } : {}),
      ...(wanted ? { billId: wanted } : {}),
      limit: pageLimit(query, 100, 500),
    });
  };

  const routes: Route[] = [];
  for (const marginType of MARGIN_TYPES) {
    const base = `/api/v2/margin/${marginType}`;
    const isolated = marginType === 'isolated';
    routes.push(
      route('GET', `${base}/interest-history`, 10, false, async (request) => {
        const bills = await billsOf(request, isolated, ['first_interest', 'interest']);
        const rows = bills.map((bill) =>
          interestRecordRow(bill, symbolOfWallet(bill.wallet), dailyRateText(bill.coin)),
        );
        return page(rows, (row) => row.interestId);
      }),
      route('GET', `${base}/borrow-history`, 10, false, async (request) => {
        const bills = await billsOf(request, isolated, ['borrow', 'manual_borrow'], { idName: 'loanId' });
        return page(
          bills.map((bill) => borrowRecordRow(bill, symbolOfWallet(bill.wallet))),
          (row) => row.loanId,
        );
      }),
      route('GET', `${base}/repay-history`, 10, false, async (request) => {
        const bills = await billsOf(
          request,
          isolated,
          ['repay', 'auto_repay', 'flash_repay', 'liquidation_repay'],
          {
            idName: 'repayId',
          },
        );
        return page(
          bills.map((bill) => repayRecordRow(bill, symbolOfWallet(bill.wallet))),
          (row) => row.repayId,
        );
      }),
      route('GET', `${base}/liquidation-history`, 10, false, async (request) => {
        const { query } = request;
        if (optionalString(query, 'startTime') === undefined) reject('PARAM_EMPTY', 'startTime');
        const uid = caller(request).account.uid;
        const current = state();
        const symbol = isolated ? isolatedSymbol(current, query, false) : undefined;
        const wallets = isolated
          ? isolatedWallets(current, uid, symbol)
          : [marginWallet(current, uid, 'crossed')];
        const window = timeWindow(query, services.clock.now(), 90 * DAY_MS, 90 * DAY_MS);
        const idLessThan = idCursor(query, 'idLessThan');
        const rows =
          wallets.length === 0
            ? []
            : await services.store.marginLiquidations({
                uid,
                wallets,
                ...window,
                ...(idLessThan ? { idLessThan } : {}),
                limit: pageLimit(query, 100, 500),
              });
        return page(rows.map(liquidationRow), (row) => row.liqId);
      }),
      route('GET', `${base}/financial-records`, 10, false, async (request) => {
        const wanted = optionalEnum(request.query as Fields, 'marginType', FINANCIAL_NAMES);
        const types = Object.entries(FINANCIAL_TYPES)
          .filter(([, name]) => !wanted || name === wanted)
          .map(([businessType]) => businessType);
        const bills = await billsOf(request, isolated, types);
        return page(
          bills.map((bill) => financialRecordRow(bill, symbolOfWallet(bill.wallet))),
          (row) => row.marginId,
        );
      }),
    );
  }
  return routes;
}
