/**
 * One instrument's re-quote as an ordered list of steps (place, cancel), so that between any
 * two of them (the engine evaluates plan orders after every command) the house's book keeps
 * both sides and never crosses itself. When some level stays on each side (a move smaller
 * than the ladder), the stale levels are cancelled and the new ones placed: two commands.
 * After a jump that leaves a side with nothing to keep:
 *
 *   1. the side whose new levels cannot cross the house's other side goes first: asks,
 *      unless a new ask would reach an own resting bid (the price fell), then bids;
 *   2. per side, new levels are placed before the stale ones are cancelled, so a side is
 *      never empty.
 *
 * A level stays (keeps its time priority) while it is at a target price, at least half full
 * and no larger than its target. With a `room` (futures inventory limit, lots per side), a
 * side's new levels are trimmed so that, while its stale levels still rest, the side holds
 * no more than `room`: no fill, even one in the middle of the re-quote (a triggered plan's
 * market order), can take the position past the limit. The next round places the rest.
 */
import type { Instrument } from '../domain/instrument.ts';
import { capSide, type Quote } from './ladder.ts';

export interface OwnOrder {
  orderId: string;
  side: Quote['side'];
  priceTicks: number;
  remainingLots: number;
}

export type Step = { kind: 'place'; quotes: Quote[] } | { kind: 'cancel'; orderIds: string[] };

export type Room = Record<Quote['side'], number>;

interface Diff {
  kept: OwnOrder[];
  stale: OwnOrder[];
  places: Quote[];
}

function diff(own: OwnOrder[], targets: Quote[]): Diff {
  const wanted = new Map(targets.map((quote) => [`${quote.side}|${quote.priceTicks}`, quote]));
  const kept: OwnOrder[] = [];
  const stale: OwnOrder[] = [];
  for (const order of own) {
    const key = `${order.side}|${order.priceTicks}`;
    const target = wanted.get(key);
    if (target && order.remainingLots * 2 >= target.lots && order.remainingLots <= target.lots) {
      wanted.delete(key);
      kept.push(order);
    } else stale.push(order);
  }
  return { kept, stale, places: [...wanted.values()] };
}

const lotsOf = (orders: OwnOrder[]) => orders.reduce((sum, order) => sum + order.remainingLots, 0);

/** The steps that turn `own` into `targets` (empty when the ladder already stands). */
export function requoteSteps(instrument: Instrument, own: OwnOrder[], targets: Quote[], room?: Room): Step[] {
  const { kept, stale, places } = diff(own, targets);
  const steps: Step[] = [];
  const keepsBothSides = (['buy', 'sell'] as const).every(
    (side) => kept.some((order) => order.side === side) || !stale.some((order) => order.side === side),
  );
  if (keepsBothSides) {
    // The usual small move: cancelling first empties no side, and what is placed next
    // cannot cross what stays (both belong to one ladder). Two commands.
    if (stale.length > 0) steps.push({ kind: 'cancel', orderIds: stale.map((order) => order.orderId) });
    if (places.length > 0) steps.push({ kind: 'place', quotes: places });
    return steps;
  }
  const lowestNewAsk = Math.min(...places.filter((q) => q.side === 'sell').map((q) => q.priceTicks));
  const highestOwnBid = Math.max(...own.filter((o) => o.side === 'buy').map((o) => o.priceTicks));
  const first: Quote['side'] = lowestNewAsk <= highestOwnBid ? 'buy' : 'sell';
  for (const side of [first, first === 'buy' ? 'sell' : 'buy'] as const) {
    let quotes = places.filter((quote) => quote.side === side);
    const staleIds = stale.filter((order) => order.side === side).map((order) => order.orderId);
    if (room && staleIds.length > 0) {
      const resting = lotsOf([...kept, ...stale].filter((order) => order.side === side));
      quotes = capSide(instrument, quotes, side, room[side] - resting);
    }
    if (quotes.length > 0) steps.push({ kind: 'place', quotes });
    if (staleIds.length > 0) steps.push({ kind: 'cancel', orderIds: staleIds });
  }
  return steps;
}

/** Every quote the steps place. */
export function placedBy(steps: Step[]): Quote[] {
  return steps.flatMap((step) => (step.kind === 'place' ? step.quotes : []));
}
