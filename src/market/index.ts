/**
 * The market module's entry: starts the price feeds and the liquidity provider from the
 * configuration and stops them. Both live outside the core and reach the engine only through
 * the sequencer (SetIndexPrice, CreateAccount, Deposit, PlaceOrders, CancelOrders).
 */
import type { Services } from '../api/services.ts';
import type { TimeWalker } from '../ports/clock.ts';
import type { MarketControl } from '../ports/market-control.ts';
import type { FeedRule } from './feed-config.ts';
import { PriceFeeds, type MarketLog } from './feeds.ts';
import { LiquidityProvider, type LiquidityConfig } from './liquidity.ts';

export interface MarketConfig {
  feeds: FeedRule[];
  liquidity: LiquidityConfig;
}

export interface Market extends TimeWalker, MarketControl {
  feeds: PriceFeeds;
  liquidity: LiquidityProvider;
  stop(): Promise<void>;
}

export async function startMarket(services: Services, config: MarketConfig, log: MarketLog): Promise<Market> {
  const feeds = new PriceFeeds(services, config.feeds, log);
  const liquidity = new LiquidityProvider(services, config.liquidity, log);
  if (feeds.active) {
    await feeds.poll();
    feeds.start();
  }
  await liquidity.start();
  return {
    feeds,
    liquidity,
    // The liquidity provider re-quotes after every chunk of the walk, so its ladder follows.
    advance: (ms) => feeds.walk(ms, () => liquidity.requote()),
    feedStreams: () => feeds.streamStatus(),
    setFeedsPaused: (ids, paused) => feeds.setPaused(ids, paused),
    liquiditySettings: () => liquidity.settings,
    changeLiquidity: (changes) => liquidity.change(changes),
    liquidityUid: () => liquidity.accountUid,
    async stop() {
      await Promise.all([feeds.stop(), liquidity.stop()]);
    },
  };
}
