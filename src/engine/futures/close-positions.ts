/**
 * Closing positions at market (v2 mix close-positions, v3 close-positions): every position of
 * the account in the product line, narrowed to a symbol and a side when asked, gets a market
 * close order at the book through the ordinary placement path (engine/trading/place.ts): in
 * hedge mode a close of its side, in one-way mode a reduce-only order. As with any market
 * close, older close orders holding the position's size are cancelled to free it.
 *
 * A position larger than the symbol's maximum market order is closed in several orders of at
 * most that size; the closing stops early when an order does not fill whole (the book ran
 * out), and what is left stays open. Positions are taken in symbol order, long before short.
 * Nothing to close is a failure of the whole command (the venue's 22002 / 25227); an order
 * that is refused is that position's failure and the others go on.
 */
import type { ClosePositions, OrderRequest, PlaceOrders } from '../../domain/commands.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { HoldSide, Position } from '../../domain/position.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import { lotsToQuantity, quantityToLots } from '../instruments/scales.ts';
import { placeOne } from '../trading/place.ts';
import { finish, type TradingContext } from '../trading/trading-context.ts';
import { positionModeOf } from './settings.ts';

export interface ClosedOrder {
  symbol: string;
  holdSide: HoldSide;
  orderId: string;
  clientOid: string;
}

export type CloseResult = ClosedOrder | (ClosedOrder & Failure);

/** At most this many orders close one position (a bound, far above any listed instrument's need). */
const MAX_ORDERS_PER_POSITION = 100;

function targetsOf(trading: TradingContext, command: ClosePositions): Position[] {
  const targets: Position[] = [];
  for (const position of trading.context.state.positions.values()) {
    if (position.uid !== command.uid || position.category !== command.category) continue;
    if (command.symbol && position.symbol !== command.symbol) continue;
    if (command.holdSide && position.holdSide !== command.holdSide) continue;
    if (position.sizeLots > 0) targets.push(position);
  }
  return targets.sort((a, b) =>
    a.symbol === b.symbol ? (a.holdSide < b.holdSide ? -1 : 1) : a.symbol < b.symbol ? -1 : 1,
  );
}

function maxMarketLots(instrument: Instrument): number {
  const lots = instrument.maxMarketOrderQty ? quantityToLots(instrument, instrument.maxMarketOrderQty) : 0;
  return typeof lots === 'number' && lots > 0 ? lots : Number.MAX_SAFE_INTEGER;
}

function closeRequest(trading: TradingContext, position: Position, lots: number, instrument: Instrument) {
  const hedge = positionModeOf(trading.context.state, position.uid, position.category) === 'hedge_mode';
  const request: OrderRequest = {
    symbol: position.symbol,
    side: position.holdSide === 'long' ? 'sell' : 'buy',
    orderType: 'market',
    timeInForce: 'ioc',
    stpMode: 'none',
    quantity: lotsToQuantity(instrument, lots),
    marginCoin: position.marginCoin,
  };
  if (hedge) request.posSide = position.holdSide;
  else request.reduceOnly = true;
  return request;
}

/** The market orders that close one position, in order; a refused one ends the list. */
function closeOne(trading: TradingContext, command: ClosePositions, position: Position): CloseResult[] {
  const { state } = trading.context;
  const { symbol, holdSide } = position;
  const instrument = state.instruments.get(instrumentKey(position.category, symbol));
  if (!instrument)
    return [{ symbol, holdSide, orderId: '', clientOid: '', ...fail('SYMBOL_NOT_FOUND', symbol) }];
  const place: PlaceOrders = { ...command, type: 'PlaceOrders', items: [] };
  const results: CloseResult[] = [];
  for (let count = 0; count < MAX_ORDERS_PER_POSITION && position.sizeLots > 0; count += 1) {
    const lots = Math.min(position.sizeLots, maxMarketLots(instrument));
    const before = position.sizeLots;
    const result = placeOne(trading, command.uid, place, closeRequest(trading, position, lots, instrument));
    if ('code' in result) {
      const failure: Failure = { code: result.code, ...(result.params ? { params: result.params } : {}) };
      results.push({ symbol, holdSide, orderId: '', clientOid: '', ...failure });
      break;
    }
    // A close that cancelled older close orders is answered without its id: its clientOid is it.
    results.push({
      symbol,
      holdSide,
      orderId: result.orderId || result.clientOid,
      clientOid: result.clientOid,
    });
    if (before - position.sizeLots < lots) break;
  }
  return results;
}

export function closePositions(trading: TradingContext, command: ClosePositions): Outcome<CloseResult[]> {
  const targets = targetsOf(trading, command);
  if (targets.length === 0) return fail('NO_POSITION_TO_CLOSE');
  const results = targets.flatMap((position) => closeOne(trading, command, position));
  finish(trading);
  return ok(results);
}
