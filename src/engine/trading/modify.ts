/**
 * Modify (v3 modify-order): a new total quantity and/or price for an
 * open limit order, amended in the book. A size decrease at the same price keeps the order's
 * place in the queue; a price change or a size increase sends it to the back (and, if the new
 * price crosses, it trades as a taker). The hold follows the new terms. TP/SL presets may
 * change too, alone or with the terms, while the order has no fill (order-presets.ts).
 *
 * A failed modification changes nothing, unless autoCancel is set: then the original order is
 * cancelled, and the command succeeds with `{modified: false, failure}` so that the
 * cancellation is journaled while the caller still sees the failure.
 */
import type { ModifyOrder, OrderRequest } from '../../domain/commands.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import { freeze, readBalance } from '../accounts/ledger.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { lotsToQuantity, marginValue, scalesOf, ticksToPrice } from '../instruments/scales.ts';
import { amend } from '../matching/index.ts';
import { openReserve } from '../futures/reserve.ts';
import { cancelOpenOrder, findOpenOrder } from './cancel.ts';
import { holdFor } from './hold.ts';
import { applyMatch } from './place.ts';
import { finish, touch, type TradingContext } from './trading-context.ts';
import { validateOrder } from './validate.ts';
import { presetsAfterModify, setOrderPresets } from '../triggers/order-presets.ts';

export interface ModifyResult {
  orderId: string;
  clientOid: string;
  modified: boolean;
  failure?: Failure;
}

function attempt(trading: TradingContext, command: ModifyOrder): Outcome<ModifyResult> {
  const { state, nowMs } = trading.context;
  const order = findOpenOrder(state, command.uid, command.order);
  if (!order) return fail('ORDER_NOT_FOUND');
  if (order.orderType !== 'limit') return fail('ORDER_NOT_MODIFIABLE');
  const instrument = state.instruments.get(instrumentKey(order.category, order.symbol));
  if (!instrument) return fail('SYMBOL_NOT_FOUND', order.symbol);
  const price = command.price ?? ticksToPrice(instrument, order.priceTicks);
  const quantity = command.quantity ?? lotsToQuantity(instrument, order.quantityLots);
  // The request's fields named one by one: spreading the whole order cost a fifth of a modify.
  const request: OrderRequest = {
    symbol: order.symbol,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    stpMode: order.stpMode,
    price,
    quantity,
    clientOid: '',
  };
  const validated = validateOrder(state, order.category, request, nowMs);
  if (!validated.ok) return validated;
  const valid = validated.value;
  const presets = presetsAfterModify(trading, order, valid, command);
  if (!presets.ok) return presets;
  if (valid.priceTicks === order.priceTicks && valid.quantityLots === order.quantityLots) {
    if (presets.value === null) return fail('MODIFY_UNCHANGED');
    setOrderPresets(trading, order, presets.value);
    touch(trading, order);
    return ok({ orderId: order.orderId, clientOid: order.clientOid, modified: true });
  }
  const remainingLots = valid.quantityLots - order.filledLots;
  if (remainingLots <= 0) return fail('ORDER_NOT_MODIFIABLE');

  const futures = order.futures;
  // Close (reduce-only) futures orders cannot be modified, as on the venue's v3 batch modify.
  if (futures?.tradeSide === 'close') return fail('ORDER_NOT_MODIFIABLE');
  const newHold = futures
    ? openReserve(
        valid.instrument,
        marginValue(valid.instrument, valid.priceTicks, remainingLots),
        futures.leverage,
      )
    : holdFor(
        {
          instrument: valid.instrument,
          key: valid.key,
          priceTicks: valid.priceTicks,
          quantityLots: remainingLots,
          quoteAmount: valid.quoteAmount,
        },
        order.side,
      ).amount;
  const extra = newHold - order.holdAmount;
  if (extra > 0n && readBalance(state, order.uid, order.wallet, order.holdCoin).available < extra) {
    return fail('INSUFFICIENT_BALANCE');
  }
  const book = trading.books.of(valid.key);
  const sequence = state.nextSequence;
  const amended = amend(book, {
    orderId: order.orderId,
    priceTicks: valid.priceTicks,
    remainingLots,
    sequence,
    timeInForce: order.timeInForce === 'post_only' ? 'post_only' : 'gtc',
    quoteOf: scalesOf(instrument).quoteOf,
  });
  if (amended.outcome === 'not_found') throw new Error(`open order ${order.orderId} missing from its book`);
  if (amended.outcome === 'rejected') return fail('ORDER_NOT_MODIFIABLE');

  if (presets.value) setOrderPresets(trading, order, presets.value);
  adjustHold(trading, order, newHold);
  order.priceTicks = valid.priceTicks;
  order.quantityLots = valid.quantityLots;
  touch(trading, order);
  if (amended.outcome === 'requeued') {
    state.nextSequence += 1;
    order.sequence = sequence;
    applyMatch(trading, valid, order, amended.match);
  }
  return ok({ orderId: order.orderId, clientOid: order.clientOid, modified: true });
}

function adjustHold(trading: TradingContext, order: ModifyTarget, newHold: bigint): void {
  const delta = newHold - order.holdAmount;
  if (delta === 0n) return;
  freeze(trading.context, order.uid, order.wallet, order.holdCoin, delta);
  order.holdAmount = newHold;
}

type ModifyTarget = { uid: string; wallet: string; holdCoin: string; holdAmount: bigint };

export function modifyOrder(trading: TradingContext, command: ModifyOrder): Outcome<ModifyResult> {
  const result = attempt(trading, command);
  if (result.ok || !command.autoCancel) {
    finish(trading);
    return result;
  }
  const order = findOpenOrder(trading.context.state, command.uid, command.order);
  if (!order) return result;
  cancelOpenOrder(trading, order, 'modify_cancel');
  finish(trading);
  const failure: Failure = { code: result.code, ...(result.params ? { params: result.params } : {}) };
  return ok({ orderId: order.orderId, clientOid: order.clientOid, modified: false, failure });
}
