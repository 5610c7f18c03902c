/** What route handlers may use: the sequencer (writes, and the state for reads), the store
 * (history reads), the clock, the secret box and the settings. Built once in main.ts. */
import type { PositionMode } from '../domain/position.ts';
import type { Clock, TimeWalker } from '../ports/clock.ts';
import type { MarketControl } from '../ports/market-control.ts';
import type { Store } from '../ports/store.ts';
import type { Sequencer } from '../runtime/sequencer.ts';
import type { SecretBox } from '../security/secrets.ts';
import type { RequestGate } from './request-gate.ts';
import type { ConvertSettings } from './routes/convert-settings.ts';

export interface Services {
  sequencer: Sequencer;
  store: Store;
  clock: Clock;
  box: SecretBox;
  wallNow: () => number;
  /** The futures position mode new accounts start in (BOURSE_POSITION_MODE). */
  newAccountPositionMode: PositionMode;
  /** Admission of requests; closed while the operator resets the venue (src/admin/reset.ts). */
  gate?: RequestGate;
  /** The operator's reset, once the server is up (src/admin/reset.ts); absent before. */
  reset?: () => Promise<unknown>;
  /** Set once the market runs: advancing the simulated clock walks the feeds' path. */
  timeWalker?: TimeWalker;
  /** Set once the market runs: its feeds and liquidity provider, for the operator API. */
  market?: MarketControl;
  /** Convert quote settings (absent: the defaults of convert-settings.ts). */
  convert?: ConvertSettings;
}
