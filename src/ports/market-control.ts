/**
 * What the operator API may see and change of the market module (src/market) while it runs:
 * the price feeds' streams (paused or running) and the liquidity provider's settings and
 * account. The market implements it; the admin routes reach it through `Services.market`.
 * Both are run-time state only: a restart or a reset starts again from the settings
 * (BOURSE_FEED, BOURSE_LIQUIDITY_*).
 */

/** One price stream: the instruments one feed rule drives together (src/market/feed-config.ts). */
export interface FeedStreamStatus {
  /** The stream's id: a base coin, a symbol or `CATEGORY:SYMBOL`. */
  feed: string;
  source: 'sim' | 'replay';
  /** `CATEGORY:SYMBOL` of each instrument it drives. */
  instruments: string[];
  paused: boolean;
}

/** The liquidity provider's settings (src/market/liquidity-config.ts has their ranges). */
export interface LiquiditySettings {
  enabled: boolean;
  markets: string[];
  levels: number;
  spread: number;
  step: number;
  notional: number;
  intervalMs: number;
  maxPosition: number;
  leverage: number;
}

/** What the operator may change at run time: everything but the markets quoted. */
export type LiquidityChanges = Partial<Omit<LiquiditySettings, 'markets'>>;

export interface MarketControl {
  feedStreams(): FeedStreamStatus[];
  /** Pauses or resumes the streams named; nothing moves a paused stream's index but the operator. */
  setFeedsPaused(feeds: readonly string[], paused: boolean): void;
  liquiditySettings(): LiquiditySettings;
  /** Applies changes already checked (liquidityProblem); turning it off cancels the house's orders. */
  changeLiquidity(changes: LiquidityChanges): Promise<LiquiditySettings>;
  /** The house account, once it exists. */
  liquidityUid(): string | null;
}
