/**
 * Auto-deleveraging ranking. When the insurance fund cannot take what the book did not absorb
 * of a liquidation, positions on the other side of the symbol are closed against it at the
 * bankruptcy price, with no fee, highest score first. Score = PnL ratio × leverage, the PnL
 * ratio being uPnL ÷ cost basis (venue-mechanics §3.6: "ROI × account MMR" for profitable
 * positions; the leverage stands in for the account's ratio). Profitable positions come first,
 * then the others by the same score; ties go to the older position.
 * The public indicator (`adlRank`, 0..1, closer to 1 = deleveraged sooner) is a position's
 * place in that ranking among the positions of its side.
 */
import { MONEY_ONE } from '../../domain/money.ts';
import type { HoldSide, Position } from '../../domain/position.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';
import { INSURANCE_FUND_UID } from './insurance.ts';
import { positionRisk } from './risk.ts';

export interface AdlCandidate {
  position: Position;
  /** PnL ratio × leverage, money-scaled. */
  score: bigint;
  profitable: boolean;
}

function candidateOf(state: EngineState, books: Books, position: Position): AdlCandidate | null {
  const risk = positionRisk(state, books, position);
  if (!risk || position.entryValue <= 0n) return null;
  const score = (risk.unrealisedPnl * MONEY_ONE * BigInt(position.leverage)) / position.entryValue;
  return { position, score, profitable: risk.unrealisedPnl > 0n };
}

function before(a: AdlCandidate, b: AdlCandidate): number {
  if (a.profitable !== b.profitable) return a.profitable ? -1 : 1;
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  const byId = BigInt(a.position.positionId) - BigInt(b.position.positionId);
  return byId < 0n ? -1 : byId > 0n ? 1 : 0;
}

/** Positions of `holdSide` in the symbol, first to be deleveraged first (the fund's excluded). */
export function adlQueue(
  state: EngineState,
  books: Books,
  category: string,
  symbol: string,
  holdSide: HoldSide,
  excludeUid = '',
): AdlCandidate[] {
  const queue: AdlCandidate[] = [];
  for (const position of state.positions.values()) {
    if (position.category !== category || position.symbol !== symbol || position.holdSide !== holdSide)
      continue;
    if (position.uid === INSURANCE_FUND_UID || position.uid === excludeUid || position.sizeLots <= 0)
      continue;
    const candidate = candidateOf(state, books, position);
    if (candidate) queue.push(candidate);
  }
  return queue.sort(before);
}

/**
 * The ADL indicator of a position as the venue's adlRank endpoints give it: 1 for the first in
 * its side's queue down to 1/n for the last, "0" for a losing position (never first in line
 * while a profitable one is there).
 */
export function adlRankOf(state: EngineState, books: Books, position: Position): string {
  const queue = adlQueue(state, books, position.category, position.symbol, position.holdSide);
  const index = queue.findIndex((candidate) => candidate.position === position);
  const entry = queue[index];
  if (!entry?.profitable) return '0';
  const rank = (queue.length - index) / queue.length;
  return String(Math.round(rank * 10_000) / 10_000);
}
