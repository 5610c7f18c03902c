/**
 * Placing orders: validate → hold → match → settle (DESIGN.md, "The pipeline of one order").
 * Each item of a batch stands alone: a failed item changes nothing, the others go on.
 *
 * Taker outcomes: a gtc remainder rests; ioc and market remainders are
 * cancelled; a fok that cannot fill whole, and a post_only that would take, are accepted and
 * cancelled at once with no fill (the venue returns their orderId and reports them cancelled).
 */
import type { OrderPresets } from '../triggers/order-presets.ts';
import { awaitSpotPresets, checkSpotPresets } from '../triggers/spot-presets.ts';
import type { OrderRequest, PlaceOrders } from '../../domain/commands.ts';
import { CLIENT_OID_WINDOW_MS, MAX_OPEN_ORDERS_PER_LINE } from '../../domain/order.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { ItemResult } from './cancel.ts';
import { holdFor, placeHold } from './hold.ts';
import { isFutures } from '../../domain/category.ts';
import { placeFuturesOne } from '../futures/place.ts';
import { execute, openOrder } from './order-entry.ts';
import { finish, lineOf, openCount, type TradingContext } from './trading-context.ts';
import { validateOrder, type ValidOrder } from './validate.ts';
import { tradingWalletOf } from './wallets.ts';
import { marginWallet } from '../margin/margin-wallet.ts';

// Order entry moved below placement (order-entry.ts) so futures placement can share it
// without importing this module; re-exported for the modules that take it from here.
export { applyMatch, execute, openOrder, rest, type NewOrder } from './order-entry.ts';

function checkLimits(
  trading: TradingContext,
  uid: string,
  valid: ValidOrder,
  request: OrderRequest,
): Outcome<true> {
  const { state, nowMs } = trading.context;
  if (request.clientOid) {
    const known = state.clientOids.get(`${uid}|${request.clientOid}`);
    if (known && nowMs - known.timeMs < CLIENT_OID_WINDOW_MS) return fail('DUPLICATE_CLIENT_OID');
  }
  if (request.orderType === 'limit') {
    const line = lineOf(valid.instrument);
    if (openCount(state, uid, line) >= MAX_OPEN_ORDERS_PER_LINE) {
      return fail('TOO_MANY_OPEN_ORDERS', String(MAX_OPEN_ORDERS_PER_LINE));
    }
    const perSymbol = Number(valid.instrument.maxSymbolOrderNum || '0');
    if (perSymbol > 0 && openCount(state, uid, valid.key) >= perSymbol) {
      return fail('TOO_MANY_OPEN_ORDERS', String(perSymbol));
    }
  }
  return ok(true);
}

/** An order without TP/SL presets (read only: awaitSpotPresets copies what it keeps). */
const NO_PRESETS: Readonly<OrderPresets> = {};

export function placeOne(
  trading: TradingContext,
  uid: string,
  command: PlaceOrders,
  request: OrderRequest,
): ItemResult {
  const { context } = trading;
  const { state, nowMs } = context;
  const clientOid = request.clientOid ?? '';
  const validated = validateOrder(state, command.category, request, nowMs);
  if (!validated.ok) return { orderId: '', clientOid, ...validated };
  const valid = validated.value;
  const limits = checkLimits(trading, uid, valid, request);
  if (!limits.ok) return { orderId: '', clientOid, ...limits };
  const account = state.accounts.get(uid);
  if (!account) return { orderId: '', clientOid, ...fail('ACCOUNT_NOT_FOUND', uid) };
  if (isFutures(command.category)) return placeFuturesOne(trading, uid, command, request, valid);
  // Spot presets become a TP/SL pair when the order is done; margin orders have none (refused).
  let presets: Readonly<OrderPresets> = NO_PRESETS;
  if (request.takeProfit || request.stopLoss) {
    const checked =
      command.category === 'SPOT'
        ? checkSpotPresets(trading, valid, request)
        : fail('SPOT_TPSL_UNSUPPORTED', request.takeProfit ? 'takeProfit' : 'stopLoss');
    if (!checked.ok) return { orderId: '', clientOid, ...checked };
    presets = checked.value;
  }
  const wallet =
    command.category === 'MARGIN'
      ? marginWallet(state, uid, request.marginMode ?? 'crossed', valid.instrument.symbol)
      : tradingWalletOf(account, command.category);
  const hold = holdFor(valid, request.side);
  const loanType = request.loanType ?? 'autoLoan';
  const mayBorrow = loanType === 'autoLoan' || loanType === 'autoLoanAndRepay';
  const held = placeHold(context, uid, wallet, valid.instrument, hold, mayBorrow);
  if (!held.ok) return { orderId: '', clientOid, ...held };

  const order = openOrder(trading, {
    uid,
    clientOid,
    category: command.category,
    wallet,
    request,
    valid,
    hold,
    source: 'normal',
  });
  awaitSpotPresets(trading, order, presets);
  execute(trading, valid, order);
  return { orderId: order.orderId, clientOid: order.clientOid };
}

export function placeOrders(trading: TradingContext, command: PlaceOrders): Outcome<ItemResult[]> {
  const results: ItemResult[] = [];
  for (const request of command.items) results.push(placeOne(trading, command.uid, command, request));
  finish(trading);
  return ok(results);
}
