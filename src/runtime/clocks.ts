/**
 * Clocks. Real: wall time. Simulated: time stands still at the engine's clock until the
 * operator advances it (AdvanceClock), so it survives restarts with the journal.
 */
import type { Clock } from '../ports/clock.ts';

export function realClock(): Clock {
  return { simulated: false, now: () => Date.now() };
}

export function simulatedClock(engineNowMs: () => number, startMs: number): Clock {
  return { simulated: true, now: () => engineNowMs() || startMs };
}
