/**
 * v2 margin rates and tiers, crossed and isolated: interest-rate-and-limit (daily and annual
 * rates, the tier's leverage and limit, what the account may borrow now) and tier-data
 * (margin/tiers.ts: one tier per coin and per symbol).
 */
import { divide } from '../../domain/decimal.ts';
import { formatMoney, MONEY_ONE } from '../../domain/money.ts';
import { maxBorrowable } from '../../engine/margin/borrow.ts';
import { dailyRateText } from '../../engine/margin/interest.ts';
import { marginInstrument, marginWallet } from '../../engine/margin/margin-wallet.ts';
import {
  borrowLimitText,
  crossedLeverage,
  CROSS_MAINTENANCE_RATE,
  ISOLATED_MAINTENANCE_RATE,
  isolatedLeverage,
} from '../../engine/margin/tiers.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { annual, coinOf, isolatedSymbol, MARGIN_TYPES, uidOf, vipList } from './margin-query.ts';
import { signedRoutes } from './route-kit.ts';

export function v2MarginRateRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2', accountMode: 'classic', area: 'margin' });
  const state = () => services.sequencer.exchange.state;
  const routes: Route[] = [];
  for (const marginType of MARGIN_TYPES) {
    const base = `/api/v2/margin/${marginType}`;
    const isolated = marginType === 'isolated';
    routes.push(
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
    );
  }
  return routes;
}
