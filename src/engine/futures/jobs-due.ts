/**
 * When the next funding or delivery settlement falls due, so that the clock jobs before a
 * command need not walk every instrument when none is due (the walk is O(catalogue), and it
 * ran before every command).
 *
 * The answer holds for as long as the instruments and the funding entries stay as they were
 * when it was taken, right after the jobs ran: every listed perpetual then has its funding
 * entry, none of them due, and no delivery that could settle is due either. A delivery that
 * is due but has no index price yet stays due: its time is in the past, so the jobs keep
 * running before every command until it settles, as they did before.
 */
import { instrumentKey } from '../../domain/instrument.ts';
import type { EngineState } from '../state.ts';
import { fundingIntervalMs } from './funding.ts';

/** The earliest time (ms) at which settleFundingDue or settleDeliveriesDue would do anything. */
export function tradingJobsDueMs(state: EngineState): number {
  let dueMs = Infinity;
  for (const instrument of state.instruments.values()) {
    if (instrument.status === 'offline') continue;
    if (instrument.symbolType === 'delivery') {
      const deliveryTimeMs = Number(instrument.deliveryTime || '0');
      if (deliveryTimeMs > 0 && deliveryTimeMs < dueMs) dueMs = deliveryTimeMs;
    }
    if (fundingIntervalMs(instrument) === null) continue;
    const entry = state.funding.get(instrumentKey(instrument.category, instrument.symbol));
    // An entry not made yet is made by the next walk: due now.
    if (!entry) return -Infinity;
    if (entry.nextFundingTimeMs < dueMs) dueMs = entry.nextFundingTimeMs;
  }
  return dueMs;
}
