/**
 * Broker and agent reports (spec §15–17): the sub-accounts' deposit and withdrawal records of
 * a main account, and an agent's customers' KYC results and commissions, each at its v2 path
 * and (agent reports) the older /api/broker/v1/agent twin. docs/broker.md has the rules.
 */
import { formatMoney } from '../../domain/money.ts';
import { MARKET_SUFFIXES } from '../../engine/agents/commissions.ts';
import { DAY_MS, UTC8_OFFSET_MS, utc8DayStartOf } from '../../engine/agents/days.ts';
import type { BrokerFundingRow, CommissionRow } from '../../ports/store.ts';
import { optionalEnum, optionalInteger, optionalString, type Fields } from '../params.ts';
import { caller, reject, unwrap, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { hasChildren, mainAccountCaller } from './main-account.ts';
import { idCursor, pageLimit } from './query-window.ts';
import { reportWindow } from './report-window.ts';

function fundingRow(row: BrokerFundingRow) {
  return {
    uid: row.uid,
    txId: row.txId,
    coin: row.coin,
    type: row.direction,
    subType: row.subType,
    amount: formatMoney(row.amount),
    status: row.status,
    ts: String(row.updatedTimeMs),
  };
}

function commissionRow(row: CommissionRow) {
  return {
    uid: row.uid,
    date: String(row.dateMs),
    coin: row.coin,
    symbol: row.symbol,
    productType: row.category,
    dealAmount: formatMoney(row.dealAmount),
    fee: formatMoney(row.fee),
    feeDeduction: '0',
    activityBonusDeduct: '0',
    spotCouponDeduct: '0',
    futuresCouponDeduct: '0',
    spotFeeDiscountDeduct: '0',
    negativeMakerFeeDeduct: '0',
    feePaid: formatMoney(row.feePaid),
    rebateAmount: formatMoney(row.rebateAmount),
    userTotalRebateAmount: formatMoney(row.userRebateAmount),
    dayTotalRebateAmount: formatMoney(row.dayTotalRebateAmount),
    totalRebateAmount: formatMoney(row.totalRebateAmount),
  };
}

/** The market symbols a `symbol` filter means: the one named, or every market of a bare symbol. */
function symbolFilter(query: Fields): string[] | undefined {
  const symbol = optionalString(query, 'symbol')?.toUpperCase();
  if (symbol === undefined) return undefined;
  const suffixes = Object.values(MARKET_SUFFIXES);
  if (suffixes.some((suffix) => symbol.endsWith(suffix))) return [symbol];
  if (symbol.includes('_')) reject('PARAM_ERROR', 'symbol');
  return suffixes.map((suffix) => `${symbol}${suffix}`);
}

function uidFilter(query: Fields): string | undefined {
  const uid = optionalString(query, 'uid');
  if (uid !== undefined && !/^\d{1,20}$/.test(uid)) reject('PARAM_ERROR', 'uid');
  return uid;
}

export function brokerRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const agentUid = (request: ApiRequest) => {
    const uid = caller(request).account.uid;
    if (!state().brokerage.agents.has(uid)) reject('PERMISSION_DENIED', 'agent');
    return uid;
  };
  const signed = (path: string, perSecond: number, handler: Route['handler']): Route => ({
    method: 'GET',
    path,
    auth: 'signed',
    dialect: 'v2',
    rateLimit: { perSecond, by: 'uid' },
    handler,
  });

  const kycResults: Route['handler'] = async (request) => {
    const agent = agentUid(request);
    const { query } = request;
    const window = reportWindow(query, services.clock.now(), {
      offsetMs: UTC8_OFFSET_MS,
      maxSpanMs: 90 * DAY_MS,
    });
    const pageSize = optionalInteger(query, 'pageSize') ?? pageLimit(query, 100, 1000);
    if (pageSize < 1) reject('PARAM_ERROR', 'pageSize');
    const pageNo = optionalInteger(query, 'pageNo') ?? 1;
    if (pageNo < 1) reject('PARAM_ERROR', 'pageNo');
    const limit = Math.min(pageSize, 1000);
    const uid = uidFilter(query);
    const idLessThan = idCursor(query, 'idLessThan');
    const rows = await services.store.agentKyc({
      agentUid: agent,
      ...window,
      ...(uid ? { uid } : {}),
      ...(idLessThan ? { idLessThan } : {}),
      offset: (pageNo - 1) * limit,
      limit,
    });
    return {
      userList: rows.map((row) => ({ uid: row.uid, kycResult: row.result })),
      endId: rows.at(-1)?.uid ?? '',
    };
  };

  const commissions: Route['handler'] = async (request) => {
    const agent = agentUid(request);
    const { query } = request;
    const nowMs = services.clock.now();
    const window = reportWindow(query, nowMs, {
      offsetMs: UTC8_OFFSET_MS,
      maxSpanMs: 90 * DAY_MS,
      maxAgeMs: 90 * DAY_MS,
    });
    // Days close on the clock; with no command since midnight (real clock) close them now.
    if (utc8DayStartOf(nowMs) > state().brokerage.commissionsClosedToMs) {
      unwrap(await services.sequencer.submit({ type: 'AdvanceClock', timeMs: nowMs, ms: 0 }));
    }
    const uid = uidFilter(query);
    const coin = optionalString(query, 'coin')?.toUpperCase();
    const symbols = symbolFilter(query);
    const idLessThan = idCursor(query, 'idLessThan');
    const rows = await services.store.commissions({
      agentUid: agent,
      // A record's date is its day's 00:00 UTC+8: every day the window touches.
      fromDateMs: utc8DayStartOf(window.startTimeMs),
      toDateMs: window.endTimeMs,
      ...(uid ? { uid } : {}),
      ...(coin ? { coin } : {}),
      ...(symbols ? { symbols } : {}),
      ...(idLessThan ? { idLessThan } : {}),
      limit: pageLimit(query, 100, 1000),
    });
    return { commissionList: rows.map(commissionRow), endId: rows.at(-1)?.recordId ?? '' };
  };

  return [
    signed('/api/v2/broker/all-sub-deposit-withdrawal', 5, async (request) => {
      const main = mainAccountCaller(request, false);
      if (!hasChildren(state(), main.account.uid)) reject('PERMISSION_DENIED', 'broker');
      const { query } = request;
      const window = reportWindow(query, services.clock.now(), {
        offsetMs: 0,
        maxSpanMs: 7 * DAY_MS,
        maxAgeMs: 90 * DAY_MS,
      });
      const type = optionalEnum(query, 'type', ['all', 'deposit', 'withdrawal'] as const) ?? 'all';
      const idLessThan = idCursor(query, 'idLessThan');
      const rows = await services.store.brokerFunding({
        parentUid: main.account.uid,
        ...window,
        ...(type === 'all' ? {} : { direction: type }),
        ...(idLessThan ? { idLessThan } : {}),
        limit: pageLimit(query, 100, 100),
      });
      return { list: rows.map(fundingRow), endId: rows.at(-1)?.recordId ?? '' };
    }),
    signed('/api/broker/v1/agent/customer-kyc-result', 10, kycResults),
    signed('/api/v2/broker/customer-kyc-result', 10, kycResults),
    signed('/api/broker/v1/agent/customer-commissions', 10, commissions),
    signed('/api/v2/broker/customer-commissions', 10, commissions),
  ];
}
