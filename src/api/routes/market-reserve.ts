/**
 * The insurance fund as the venue publishes its risk reserve (docs/market-data.md, "Market
 * statistics"): `GET /api/v3/market/risk-reserve` (one contract's margin coin: the fund's
 * balance and its last 100 changes, newest first) and `risk-reserve-all` (every margin coin of
 * a futures line with its contracts and the fund's balance).
 *
 * The fund is an ordinary account (uid 1000000000) whose coins sit in the wallets of the
 * positions it dealt with, so its balance of a coin is the sum over its wallets, and a record's
 * `balance` is that sum after the change (walked back from today's sum). Funding remainders,
 * liquidated margin and losses it covers are all changes. The hourly series (`risk-reserve-hour`)
 * is not served.
 */
import { FUTURES_CATEGORIES, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import { INSURANCE_FUND_UID } from '../../domain/account.ts';
import { formatMoney } from '../../domain/money.ts';
import { optionalString } from '../params.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { instrumentOf, instrumentsOf, publicRoute, requiredQuery, v3CategoryOf } from './market-common.ts';

const V3_FUTURES: readonly Category[] = V3_CATEGORIES.filter((category) =>
  FUTURES_CATEGORIES.includes(category),
);
const RECORDS = 100;

/** The fund's balance of `coin`, summed over its wallets, and those wallets. */
function fundHolding(services: Services, coin: string): { total: bigint; wallets: string[] } {
  const prefix = `${INSURANCE_FUND_UID}|`;
  let total = 0n;
  const wallets: string[] = [];
  for (const [key, balance] of services.sequencer.exchange.state.balances) {
    if (!key.startsWith(prefix) || !key.endsWith(`|${coin}`)) continue;
    wallets.push(key.slice(prefix.length, key.length - coin.length - 1));
    total += balance.available + balance.frozen + balance.margin;
  }
  return { total, wallets };
}

export function marketReserveRoutes(services: Services): Route[] {
  return [
    publicRoute('/api/v3/market/risk-reserve', 'v3', 20, async (request) => {
      const { query } = request;
      const instrument = instrumentOf(
        services,
        v3CategoryOf(query, V3_FUTURES),
        requiredQuery(query, 'symbol'),
      );
      const coin =
        optionalString(query, 'marginCoin')?.toUpperCase() ??
        instrument.marginCoins[0] ??
        instrument.quoteCoin;
      if (!instrument.marginCoins.includes(coin)) reject('PARAM_ERROR', 'marginCoin');
      const { total, wallets } = fundHolding(services, coin);
      const bills =
        wallets.length === 0
          ? []
          : await services.store.bills({ uid: INSURANCE_FUND_UID, wallets, coin, limit: RECORDS });
      let after = total;
      const records = bills.map((bill) => {
        const record = {
          balance: formatMoney(after),
          amount: formatMoney(bill.amount),
          ts: String(bill.timeMs),
        };
        after -= bill.amount;
        return record;
      });
      return { coin, totalBalance: formatMoney(total), riskReserveRecords: records };
    }),
    publicRoute('/api/v3/market/risk-reserve-all', 'v3', 3, (request) => {
      const contracts = instrumentsOf(services, v3CategoryOf(request.query, V3_FUTURES));
      const coins = [...new Set(contracts.flatMap((contract) => contract.marginCoins))];
      return {
        list: coins.map((coin) => ({
          symbols: contracts
            .filter((contract) => contract.marginCoins.includes(coin))
            .map((contract) => contract.symbol),
          coin,
          balance: formatMoney(fundHolding(services, coin).total),
        })),
      };
    }),
  ];
}
