/**
 * Deposit and withdrawal records (docs/wallet.md): v2 spot/wallet/deposit-records and
 * withdrawal-records (classic), v3 account/deposit-records and withdrawal-records (unified).
 * The operator's deposits and withdrawals, credited addresses and the account's own
 * withdrawal requests, newest first.
 *
 * A main account reads a sub-account's deposits with `subUid` (v2 subaccount-deposit-records,
 * v3 sub-deposit-records; the v3 one also as POST, as the bitget-api SDK sends it).
 *
 * Paging as the venue's: `startTime` and `endTime` are required (v2: a span of at most 90
 * days, v3: 30, within the last 90 days) unless `orderId` (or a withdrawal's `clientOid`)
 * names one record, which is then all that is read; `limit` 20 by default, at most 100 (more reads 100, less than 1 is
 * 40020); older pages with `idLessThan` (v2) or `cursor` (v3), the last orderId of a page.
 */
import type { WalletRecordQuery } from '../../ports/wallet-store.ts';
import { optionalString, requiredString } from '../params.ts';
import { caller, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { v2WalletRecord, v3WalletRecord } from '../wire/wallet-records.ts';
import { DAY_MS, idCursor, pageLimit, timeWindow } from './query-window.ts';
import { signedRoutes } from './route-kit.ts';
import { fieldsOf, subAccountOf } from './wallet-sub.ts';

const WALLET_READ = { area: 'wallet', write: false } as const;

interface Dialect {
  cursor: 'idLessThan' | 'cursor';
  maxSpanMs: number;
  view: typeof v2WalletRecord;
  /** Whether startTime and endTime must be sent (else the latest span is read). */
  timesRequired: boolean;
}

const V2: Dialect = {
  cursor: 'idLessThan',
  maxSpanMs: 90 * DAY_MS,
  view: v2WalletRecord,
  timesRequired: true,
};
const V3: Dialect = { cursor: 'cursor', maxSpanMs: 30 * DAY_MS, view: v3WalletRecord, timesRequired: true };
/** v2 subaccount-deposit-records: the times are optional there. */
const V2_SUB: Dialect = { ...V2, timesRequired: false };

/** Whose records: the caller's, or (a main account asking) its sub-account `subUid`'s. */
type Owner = (request: ApiRequest) => string;
const own: Owner = (request) => caller(request).account.uid;

export function walletRecordRoutes(services: Services): Route[] {
  const v2 = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic' });
  const v3 = signedRoutes({ dialect: 'v3', accountMode: 'unified' });

  const records =
    (direction: WalletRecordQuery['direction'], dialect: Dialect, owner: Owner = own): Route['handler'] =>
    async (request) => {
      const query = fieldsOf(request);
      const uid = owner(request);
      const limit = pageLimit(query, 20, 100);
      const recordId = idCursor(query, 'orderId');
      const clientOid = direction === 'withdrawal' ? optionalString(query, 'clientOid') : undefined;
      if (recordId !== undefined || clientOid !== undefined) {
        // One record, by id or clientOid: the other parameters do not apply (as the venue's).
        const key = recordId !== undefined ? { recordId } : { clientOid };
        return (await services.store.walletRecords({ uid, direction, ...key, limit })).map(dialect.view);
      }
      if (dialect.timesRequired) {
        requiredString(query, 'startTime');
        requiredString(query, 'endTime');
      }
      const coin = optionalString(query, 'coin')?.toUpperCase();
      const idLessThan = idCursor(query, dialect.cursor);
      const rows = await services.store.walletRecords({
        uid,
        direction,
        ...timeWindow(query, services.clock.now(), 90 * DAY_MS, dialect.maxSpanMs),
        ...(coin ? { coin } : {}),
        ...(idLessThan ? { idLessThan } : {}),
        limit,
      });
      return rows.map(dialect.view);
    };

  const sub: Owner = (request) => subAccountOf(services.sequencer.exchange.state, request);
  return [
    v2('GET', '/api/v2/spot/wallet/deposit-records', 10, WALLET_READ, records('deposit', V2)),
    v2(
      'GET',
      '/api/v2/spot/wallet/subaccount-deposit-records',
      10,
      WALLET_READ,
      records('deposit', V2_SUB, sub),
    ),
    v3('GET', '/api/v3/account/sub-deposit-records', 10, WALLET_READ, records('deposit', V3, sub)),
    v3('POST', '/api/v3/account/sub-deposit-records', 10, WALLET_READ, records('deposit', V3, sub)),
    v2('GET', '/api/v2/spot/wallet/withdrawal-records', 10, WALLET_READ, records('withdrawal', V2)),
    v3('GET', '/api/v3/account/deposit-records', 10, WALLET_READ, records('deposit', V3)),
    v3('GET', '/api/v3/account/withdrawal-records', 10, WALLET_READ, records('withdrawal', V3)),
  ];
}
