/** Every route the server serves: the venue API by spec section, and the operator API. */
import { adminRoutes } from '../../admin/routes.ts';
import type { Route } from '../request.ts';
import type { Services } from '../services.ts';
import { accountInfoRoutes } from './account-info.ts';
import { assetRoutes } from './assets.ts';
import { brokerRoutes } from './broker.ts';
import { transferRoutes } from './transfers.ts';
import { v2UserRoutes } from './v2-user.ts';
import { marketMixRoutes } from './market-mix.ts';
import { marketSpotRoutes } from './market-spot.ts';
import { marketV3Routes } from './market-v3.ts';
import { marketStatsRoutes } from './market-stats.ts';
import { marketRateRoutes } from './market-rates.ts';
import { marketReserveRoutes } from './market-reserve.ts';
import { v2SpotTradeRoutes } from './v2-spot-trade.ts';
import { v2SpotPlanRoutes } from './v2-spot-plan.ts';
import { v2SpotReplaceRoutes } from './v2-spot-replace.ts';
import { closePositionRoutes } from './close-positions.ts';
import { v3TradeRoutes } from './v3-trade.ts';
import { v2MixAccountRoutes } from './v2-mix-account.ts';
import { v2MixTradeRoutes } from './v2-mix-trade.ts';
import { v2MixPlanRoutes } from './v2-mix-plan.ts';
import { v3StrategyRoutes } from './v3-strategy.ts';
import { v3FuturesRoutes } from './v3-futures.ts';
import { adlRankRoutes } from './adl-rank.ts';
import { v3AccountRoutes } from './v3-account.ts';
import { publicRoutes } from './public.ts';
import { walletFamilyRoutes } from './wallet-family.ts';
import { v2MarginAccountRoutes } from './v2-margin-account.ts';
import { v2MarginRateRoutes } from './v2-margin-rates.ts';
import { v2MarginRecordRoutes } from './v2-margin-records.ts';
import { v2MarginLiquidationOrderRoutes } from './v2-margin-liquidation-orders.ts';
import { v2MarginTradeRoutes } from './v2-margin-trade.ts';

export function allRoutes(services: Services): Route[] {
  return [
    ...publicRoutes(services),
    ...marketSpotRoutes(services),
    ...marketMixRoutes(services),
    ...marketV3Routes(services),
    ...marketStatsRoutes(services),
    ...marketRateRoutes(services),
    ...marketReserveRoutes(services),
    ...accountInfoRoutes(services),
    ...v3TradeRoutes(services),
    ...v3FuturesRoutes(services),
    ...adlRankRoutes(services),
    ...v3AccountRoutes(services),
    ...v2MixTradeRoutes(services),
    ...v2MixPlanRoutes(services),
    ...v3StrategyRoutes(services),
    ...v2MixAccountRoutes(services),
    ...v2SpotTradeRoutes(services),
    ...v2MarginAccountRoutes(services),
    ...v2MarginRateRoutes(services),
    ...v2MarginRecordRoutes(services),
    ...v2MarginLiquidationOrderRoutes(services),
    ...v2MarginTradeRoutes(services),
    ...v2SpotPlanRoutes(services),
    ...v2SpotReplaceRoutes(services),
    ...closePositionRoutes(services),
    ...assetRoutes(services),
    ...transferRoutes(services),
    ...v2UserRoutes(services),
    ...brokerRoutes(services),
    ...walletFamilyRoutes(services),
    ...adminRoutes(services),
  ];
}
