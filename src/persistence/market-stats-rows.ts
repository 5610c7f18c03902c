/**
 * The rows behind the market statistics (src/market/market-stats.ts, docs/market-data.md):
 *
 * - `funding_rates`: one row per funding settlement of a perpetual, keyed by
 *   category|symbol|settlement time, so a replayed settlement writes the same row.
 * - `position_spans`: one row per closed position — who held which side of which symbol, how
 *   much was opened, from when until when. With the open positions of the engine state they
 *   say which accounts held what at any past moment.
 * - `taker_buy` candles: the volume of trades whose taker bought, merged like the market candles
 *   (one-minute and one-hour rows); the taker-sell volume is the market volume less it. Only
 *   trades with a buying taker write these rows.
 */
import type { FundingRateSettled, PositionClosed, TradeRecorded } from '../domain/events.ts';
import { candleRows } from './candle-rows.ts';
import type { RowWrite } from './projection.ts';

export function fundingRateRows(event: FundingRateSettled): RowWrite[] {
  return [
    {
      table: 'funding_rates',
      mode: 'upsert',
      row: {
        id: `${event.category}|${event.symbol}|${event.timeMs}`,
        category: event.category,
        symbol: event.symbol,
        funding_rate: event.fundingRate,
        time_ms: event.timeMs,
      },
    },
  ];
}

export function positionSpanRow(position: PositionClosed['position']): RowWrite {
  return {
    table: 'position_spans',
    mode: 'upsert',
    row: {
      position_id: position.positionId,
      uid: position.uid,
      category: position.category,
      symbol: position.symbol,
      hold_side: position.holdSide,
      size: position.openTotalPos,
      opened_ms: position.createdTimeMs,
      closed_ms: position.updatedTimeMs,
    },
  };
}

export function takerBuyRows(event: TradeRecorded): RowWrite[] {
  if (event.side !== 'buy') return [];
  return candleRows('taker_buy', event.category, event.symbol, event.price, event.quantity, event.timeMs);
}
