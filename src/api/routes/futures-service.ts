/** What the futures account routes share: submitting settings commands and reading positions. */
import type { Category } from '../../domain/category.ts';
import type { Command } from '../../domain/commands.ts';
import type { Position } from '../../domain/position.ts';
import { positionReport, type PositionReport } from '../../engine/futures/report.ts';
import { unwrap } from '../request.ts';
import type { Services } from '../services.ts';

export function submit<T>(services: Services, command: Command): Promise<T> {
  return services.sequencer.submit<T>(command).then(unwrap);
}

export function positionsOf(
  services: Services,
  uid: string,
  category: Category,
  symbol?: string,
): PositionReport[] {
  const { state, books } = services.sequencer.exchange;
  const positions: Position[] = [];
  for (const position of state.positions.values()) {
    if (position.uid === uid && position.category === category && (!symbol || position.symbol === symbol))
      positions.push(position);
  }
  positions.sort((a, b) =>
    a.symbol === b.symbol ? (a.holdSide < b.holdSide ? -1 : 1) : a.symbol < b.symbol ? -1 : 1,
  );
  return positions.flatMap((position) => positionReport(state, books, position) ?? []);
}

/** The margin coins a product line settles in (from its instruments). */
export function marginCoinsOf(services: Services, category: Category): string[] {
  const coins = new Set<string>();
  for (const instrument of services.sequencer.exchange.state.instruments.values()) {
    if (instrument.category === category) instrument.marginCoins.forEach((coin) => coins.add(coin));
  }
  return [...coins].sort();
}
