/**
 * Cancel and replace (v2 futures modify-order): the open limit order is
 * cancelled and a new order with the new price and size (and newClientOid) is placed, in one
 * command, so the journal never holds the cancel without the placement. As on the venue the
 * replacement can still be refused after the cancel (no margin, a band): the command then
 * succeeds with `{ failure }`, keeping the cancel, and the caller answers with the failure.
 * The replacement carries the old order's TP/SL presets unless the command changes them.
 */
import type { ReplaceOrder } from '../../domain/commands.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import { lotsToQuantity, ticksToPrice } from '../instruments/scales.ts';
import { cancelOpenOrder, findOpenOrder } from './cancel.ts';
import { placeOne } from './place.ts';
import { finish, type TradingContext } from './trading-context.ts';

export interface ReplaceResult {
  orderId: string;
  clientOid: string;
  failure?: Failure;
}

export function replaceOrder(trading: TradingContext, command: ReplaceOrder): Outcome<ReplaceResult> {
  const { state } = trading.context;
  const open = findOpenOrder(state, command.uid, command.order);
  if (!open) return fail('ORDER_NOT_FOUND');
  if (open.orderType !== 'limit') return fail('ORDER_NOT_MODIFIABLE');
  const instrument = state.instruments.get(instrumentKey(open.category, open.symbol));
  if (!instrument) return fail('SYMBOL_NOT_FOUND', open.symbol);
  // Presets: kept from the old order unless the command changes them (null removes).
  const takeProfit = command.takeProfit === undefined ? open.futures?.takeProfit : command.takeProfit;
  const stopLoss = command.stopLoss === undefined ? open.futures?.stopLoss : command.stopLoss;
  const replacement = {
    symbol: open.symbol,
    side: open.side,
    orderType: 'limit' as const,
    timeInForce: open.timeInForce,
    stpMode: open.stpMode,
    price: command.price ?? ticksToPrice(instrument, open.priceTicks),
    quantity: command.quantity ?? lotsToQuantity(instrument, open.quantityLots - open.filledLots),
    ...(open.futures ? { posSide: open.futures.holdSide } : {}),
    ...(open.futures?.reduceOnly ? { reduceOnly: true } : {}),
    ...(command.newClientOid ? { clientOid: command.newClientOid } : {}),
    ...(takeProfit ? { takeProfit } : {}),
    ...(stopLoss ? { stopLoss } : {}),
  };
  cancelOpenOrder(trading, open, 'modify_cancel');
  const placed = placeOne(
    trading,
    command.uid,
    { ...command, type: 'PlaceOrders', category: open.category, items: [] },
    replacement,
  );
  finish(trading);
  if ('code' in placed) {
    const failure: Failure = { code: placed.code, ...(placed.params ? { params: placed.params } : {}) };
    return ok({ orderId: open.orderId, clientOid: open.clientOid, failure });
  }
  return ok({ orderId: placed.orderId, clientOid: placed.clientOid });
}
