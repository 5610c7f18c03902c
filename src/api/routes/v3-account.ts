/**
 * Unified (v3) account ledger: GET /api/v3/account/financial-records (endpoints.md §9.4):
 * category required (SPOT, MARGIN, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES or OTHER), coin,
 * type, a window of at most 30 days within 90, limit ≤ 100, cursor paging.
 */
import { parseCategory, V3_CATEGORIES } from '../../domain/category.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import { optionalString, requiredString } from '../params.ts';
import { caller, reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { financialRecord, financialType } from '../wire/financial-records.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';

export function v3AccountRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v3', accountMode: 'unified' });
  return [
    route('GET', '/api/v3/account/financial-records', 20, undefined, async (request) => {
      const { query } = request;
      const categoryText = requiredString(query, 'category').toUpperCase();
      const category = categoryText === 'OTHER' ? 'OTHER' : parseCategory(categoryText, V3_CATEGORIES);
      if (!category) reject('PARAM_ERROR', 'category');
      const uid = caller(request).account.uid;
      const state = services.sequencer.exchange.state;
      const wallet = category === 'OTHER' ? 'unified' : tradingWallet(state, uid, category);
      const coin = optionalString(query, 'coin')?.toUpperCase();
      const type = optionalString(query, 'type')?.toUpperCase();
      const idLessThan = idCursor(query, 'cursor');
      const limit = pageLimit(query, 100, 100);
      // The type filter is on the derived venue type, so it is applied after the query; read
      // generously so a filtered page is still full when the data allows.
      const bills = await services.store.bills({
        uid,
        wallets: [wallet],
        categories: [category],
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, 30 * DAY_MS),
        ...(coin ? { coin } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: type ? limit * 10 : limit,
      });
      const list = bills.filter((bill) => !type || financialType(bill) === type).slice(0, limit);
      return { list: list.map(financialRecord), cursor: list.at(-1)?.billId ?? '' };
    }),
  ];
}
