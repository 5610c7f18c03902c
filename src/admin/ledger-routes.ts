/**
 * Operator routes of an account's ledger (docs/operator.md, "An account's bills, plan orders
 * and deposit records"): bills of every wallet, plan orders, and deposit and withdrawal
 * records (pending ones included, to settle). All from the store's projections, newest first,
 * paged by id like the other operator lists (`limit` 1–500, default 100; `cursor` the last id
 * of the page before; the answer's `cursor` null on the last page). No time window.
 */
import { formatMoney } from '../domain/money.ts';
import type { PlanView } from '../domain/plan.ts';
import type { BillRow } from '../ports/store.ts';
import { optionalEnum, optionalString } from '../api/params.ts';
import { reject, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { idCursor } from '../api/routes/query-window.ts';
import { pageOf, pageSize } from './views.ts';

const FUNDING_MAX = 1000;
const PLAN_STATUSES = ['live', 'executed', 'fail_execute', 'cancelled'] as const;

function billView(bill: BillRow) {
  return {
    billId: bill.billId,
    wallet: bill.wallet,
    category: bill.category,
    coin: bill.coin,
    symbol: bill.symbol,
    businessType: bill.businessType,
    amount: formatMoney(bill.amount),
    fee: formatMoney(bill.fee),
    balanceAfter: formatMoney(bill.balanceAfter),
    createdTime: String(bill.timeMs),
  };
}

function planView({ updatedTimeMs, createdTimeMs, ...plan }: PlanView) {
  return { ...plan, createdTime: String(createdTimeMs), updatedTime: String(updatedTimeMs) };
}

/** The wallets an account has held a balance in (keys of the engine's balances: uid|wallet|coin). */
function walletsOf(services: Services, uid: string): string[] {
  const wallets = new Set<string>();
  for (const key of services.sequencer.exchange.state.balances.keys()) {
    const [owner, wallet] = key.split('|');
    if (owner === uid && wallet) wallets.add(wallet);
  }
  return [...wallets];
}

export function ledgerRoutes(services: Services): Route[] {
  const route = (path: string, handler: Route['handler']): Route => ({
    method: 'GET',
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });
  const accountOf = (params: Record<string, string>): string => {
    const uid = params.uid ?? '';
    if (!services.sequencer.exchange.state.accounts.has(uid)) reject('ACCOUNT_NOT_FOUND', 'uid');
    return uid;
  };

  return [
    route('/admin/v1/accounts/:uid/bills', async (request, params) => {
      const uid = accountOf(params);
      const limit = pageSize(request.query);
      const idLessThan = idCursor(request.query, 'cursor');
      const coin = optionalString(request.query, 'coin')?.toUpperCase();
      const wallets = walletsOf(services, uid);
      const bills =
        wallets.length === 0
          ? []
          : await services.store.bills({
              uid,
              wallets,
              ...(coin ? { coin } : {}),
              ...(idLessThan ? { idLessThan } : {}),
              limit: limit + 1,
            });
      return pageOf(bills, limit, (bill) => bill.billId, billView);
    }),
    route('/admin/v1/accounts/:uid/plan-orders', async (request, params) => {
      const uid = accountOf(params);
      const limit = pageSize(request.query);
      const idLessThan = idCursor(request.query, 'cursor');
      const status = optionalEnum(request.query, 'status', PLAN_STATUSES);
      const plans = await services.store.plans({
        uid,
        ...(status ? { statuses: [status] } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit: limit + 1,
      });
      return pageOf(plans, limit, (plan) => plan.planId, planView);
    }),
    route('/admin/v1/accounts/:uid/funding', async (_request, params) => {
      const uid = accountOf(params);
      const records = await services.store.fundingRecords(uid, FUNDING_MAX);
      return records.map((record) => ({
        id: record.recordId,
        txId: record.txId,
        coin: record.coin,
        amount: formatMoney(record.amount),
        type: record.direction,
        subType: record.subType,
        status: record.status,
        ts: String(record.timeMs),
      }));
    }),
  ];
}
