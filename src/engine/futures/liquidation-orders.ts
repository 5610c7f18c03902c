/**
 * Orders the risk engine places for accounts: the liquidated trader's liquidation order (an
 * IOC at the bankruptcy price, `source: 'liquidation'`), and the resting orders at the same
 * price of those who take what the book cannot: the insurance fund (opening the liquidated
 * side) and ADL counterparties (closing theirs, `source: 'adl'`). They hold nothing: a close
 * order locks its position's lots, and the fund's opening needs no margin.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { Order } from '../../domain/order.ts';
import type { HoldSide, Position } from '../../domain/position.ts';
import { restingOf, stpOwner } from '../trading/books.ts';
import { execute, openOrder, rest } from '../trading/order-entry.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import type { ValidOrder } from '../trading/validate.ts';
import { positionModeOf } from './settings.ts';

export interface EngineOrder {
  uid: string;
  wallet: string;
  marginCoin: string;
  holdSide: HoldSide;
  tradeSide: 'open' | 'close';
  side: 'buy' | 'sell';
  lots: number;
  priceTicks: number;
  source: 'liquidation' | 'adl';
  marginMode: Position['marginMode'];
  leverage: number;
}

function validOf(instrument: Instrument, fields: EngineOrder): ValidOrder {
  return {
    instrument,
    key: instrumentKey(instrument.category, instrument.symbol),
    priceTicks: fields.priceTicks,
    quantityLots: fields.lots,
    quoteAmount: 0n,
  };
}

function newOrder(
  trading: TradingContext,
  instrument: Instrument,
  fields: EngineOrder,
  timeInForce: 'gtc' | 'ioc',
): Order {
  const posMode = positionModeOf(trading.context.state, fields.uid, instrument.category);
  const order = openOrder(trading, {
    uid: fields.uid,
    clientOid: '',
    category: instrument.category,
    wallet: fields.wallet,
    request: { side: fields.side, orderType: 'limit', timeInForce, stpMode: 'none' },
    valid: validOf(instrument, fields),
    hold: { coin: fields.marginCoin, amount: 0n },
    source: fields.source,
  });
  order.futures = {
    holdSide: fields.holdSide,
    tradeSide: fields.tradeSide,
    reduceOnly: fields.tradeSide === 'close' && posMode === 'one_way_mode',
    posMode,
    marginMode: fields.marginMode,
    leverage: fields.leverage,
    marginCoin: fields.marginCoin,
    realisedPnl: 0n,
  };
  return order;
}

function lockClose(trading: TradingContext, instrument: Instrument, fields: EngineOrder): void {
  if (fields.tradeSide !== 'close') return;
  const key = `${fields.uid}|${instrument.category}|${instrument.symbol}|${fields.holdSide}`;
  const position = trading.context.state.positions.get(key);
  if (position) position.lockedLots += fields.lots;
}

/** Puts an order in the book without matching it (its price does not cross: see the caller). */
export function restEngineOrder(trading: TradingContext, instrument: Instrument, fields: EngineOrder): Order {
  const order = newOrder(trading, instrument, fields, 'gtc');
  lockClose(trading, instrument, fields);
  const book = trading.books.of(instrumentKey(instrument.category, instrument.symbol));
  book.add(restingOf(order, stpOwner(trading.context.state, order.uid)));
  rest(trading, order);
  return order;
}

/** Places and matches an IOC order: what does not fill is cancelled. */
export function takeWithEngineOrder(
  trading: TradingContext,
  instrument: Instrument,
  fields: EngineOrder,
): Order {
  const order = newOrder(trading, instrument, fields, 'ioc');
  lockClose(trading, instrument, fields);
  execute(trading, validOf(instrument, fields), order);
  return order;
}
