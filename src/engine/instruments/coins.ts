/** The coins the exchange knows: every base, quote and margin coin of a listed instrument. */
import type { EngineState } from '../state.ts';

export function coinListed(state: EngineState, coin: string): boolean {
  for (const instrument of state.instruments.values()) {
    if (
      instrument.baseCoin === coin ||
      instrument.quoteCoin === coin ||
      instrument.marginCoins.includes(coin)
    ) {
      return true;
    }
  }
  return false;
}
