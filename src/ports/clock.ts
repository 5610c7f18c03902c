import type { Outcome } from '../domain/result-code.ts';

/** Where command time comes from: wall time, or simulated time the operator advances. */
export interface Clock {
  readonly simulated: boolean;
  now(): number;
}

/**
 * Moves a simulated clock forward along the price feeds' path (src/market), so that every
 * step is evaluated at its own time; absent when nothing drives prices.
 */
export interface TimeWalker {
  advance(ms: number): Promise<Outcome<{ nowMs: number }>>;
}
