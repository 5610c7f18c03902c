/**
 * Placing a futures order: resolve what it does (open or close which side, by position mode),
 * check it (position available to close; margin and OI limit to open), then hold (reserve
 * margin, or lock the position size being closed) and hand it to the shared matching path.
 *
 * Semantics (the venue's order states): `side` is the trade direction. Hedge mode: buy +
 * long opens long, sell + long closes it, sell + short opens short, buy + short closes it.
 * One-way mode: a buy reduces a short first and opens long with the rest (and the mirror);
 * reduceOnly only reduces. A reduce-only order that does not fit beside the older ones cancels
 * them oldest first and is answered without an orderId.
 */
import type { OrderRequest, PlaceOrders } from '../../domain/commands.ts';
import type { Order } from '../../domain/order.ts';
import { positionKey, type HoldSide, type Position } from '../../domain/position.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import { freeze, readBalance } from '../accounts/ledger.ts';
import { marginValue } from '../instruments/scales.ts';
import { cancelOpenOrder, type ItemResult } from '../trading/cancel.ts';
import { execute, openOrder } from '../trading/order-entry.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import type { ValidOrder } from '../trading/validate.ts';
import { checkOrderPresets, setOrderPresets } from '../triggers/order-presets.ts';
import { tradingWallet } from '../trading/wallets.ts';
import { markPrice } from './mark.ts';
import { openReserve } from './reserve.ts';
import { crossState, valueAt } from './risk.ts';
import { positionModeOf, settingsOf } from './settings.ts';
import { maxLeverageFor } from './tiers.ts';

/** Per-account position notional limit per symbol (the OI limit), whole margin-coin units. */
export const POSITION_NOTIONAL_LIMIT = 10_000_000;

interface Intent {
  holdSide: HoldSide;
  tradeSide: 'open' | 'close';
  posMode: 'one_way_mode' | 'hedge_mode';
}

function intentOf(
  trading: TradingContext,
  uid: string,
  command: PlaceOrders,
  request: OrderRequest,
): Outcome<Intent> {
  const posMode = positionModeOf(trading.context.state, uid, command.category);
  if (posMode === 'hedge_mode') {
    if (!request.posSide) return fail('PARAM_EMPTY', 'posSide');
    const opening = (request.side === 'buy') === (request.posSide === 'long');
    return ok({ holdSide: request.posSide, tradeSide: opening ? 'open' : 'close', posMode });
  }
  if (request.reduceOnly)
    return ok({ holdSide: request.side === 'buy' ? 'short' : 'long', tradeSide: 'close', posMode });
  return ok({ holdSide: request.side === 'buy' ? 'long' : 'short', tradeSide: 'open', posMode });
}

function closeOrdersOf(trading: TradingContext, position: Position): Order[] {
  const orders: Order[] = [];
  for (const order of trading.context.state.orders.values()) {
    const futures = order.futures;
    if (
      order.uid !== position.uid ||
      order.symbol !== position.symbol ||
      order.category !== position.category
    )
      continue;
    if (futures?.tradeSide === 'close' && futures.holdSide === position.holdSide) orders.push(order);
  }
  return orders.sort((a, b) => a.sequence - b.sequence);
}

/** Locks `lots` of the position for a close order, cancelling older close orders if allowed. */
function lockForClose(
  trading: TradingContext,
  position: Position | undefined,
  lots: number,
  replace: boolean,
): Outcome<{ replaced: boolean }> {
  if (!position || lots > position.sizeLots) return fail('POSITION_INSUFFICIENT');
  let replaced = false;
  if (position.sizeLots - position.lockedLots < lots) {
    if (!replace) return fail('POSITION_INSUFFICIENT');
    for (const older of closeOrdersOf(trading, position)) {
      if (position.sizeLots - position.lockedLots >= lots) break;
      cancelOpenOrder(trading, older, 'normal_cancel');
      replaced = true;
    }
  }
  position.lockedLots += lots;
  return ok({ replaced });
}

function checkOpen(
  trading: TradingContext,
  uid: string,
  wallet: string,
  valid: ValidOrder,
  coin: string,
  reserve: bigint,
  lots: number,
  holdSide: HoldSide,
  crossed: boolean,
  leverage: number,
): Failure | null {
  const { state } = trading.context;
  const { instrument } = valid;
  const free = crossed
    ? crossState(state, trading.books, uid, wallet, coin).free
    : readBalance(state, uid, wallet, coin).available;
  if (free < reserve) return { code: 'OPEN_SIZE_EXCEEDED' };
  const position = state.positions.get(positionKey(uid, instrument.category, instrument.symbol, holdSide));
  const mark = markPrice(state, trading.books, instrument);
  if (mark !== null) {
    const after = valueAt(instrument, (position?.sizeLots ?? 0) + lots, mark);
    if (after > BigInt(POSITION_NOTIONAL_LIMIT) * 10n ** 8n) return { code: 'OPEN_SIZE_EXCEEDED' };
    // An open that would carry the position into a tier whose leverage is below the one it
    // uses is over the maximum open size at that leverage (the venue's 40762).
    if (leverage > maxLeverageFor(after, instrument.maxLeverage)) return { code: 'OPEN_SIZE_EXCEEDED' };
  }
  return null;
}

export function placeFuturesOne(
  trading: TradingContext,
  uid: string,
  command: PlaceOrders,
  request: OrderRequest,
  valid: ValidOrder,
): ItemResult {
  const { state } = trading.context;
  const clientOid = request.clientOid ?? '';
  const failed = (failure: Failure): ItemResult => ({ orderId: '', clientOid, ...failure });
  const { instrument } = valid;
  const intent = intentOf(trading, uid, command, request);
  if (!intent.ok) return failed(intent);
  const settings = settingsOf(state, uid, instrument);
  if (request.marginMode && request.marginMode !== settings.marginMode)
    return failed({ code: 'MARGIN_MODE_MISMATCH', params: ['marginMode'] });
  const coin =
    request.marginCoin && instrument.marginCoins.includes(request.marginCoin)
      ? request.marginCoin
      : (instrument.marginCoins[0] ?? instrument.quoteCoin);
  const wallet = tradingWallet(state, uid, command.category);
  const { holdSide, tradeSide, posMode } = intent.value;
  const presets = checkOrderPresets(trading, valid, request, intent.value);
  if (!presets.ok) return failed(presets);
  const crossed = settings.marginMode === 'crossed';
  const leverage = crossed
    ? settings.crossLeverage
    : holdSide === 'long'
      ? settings.longLeverage
      : settings.shortLeverage;

  let reserve = 0n;
  let replaced = false;
  if (tradeSide === 'close') {
    const position = state.positions.get(positionKey(uid, instrument.category, instrument.symbol, holdSide));
    const locked = lockForClose(
      trading,
      position,
      valid.quantityLots,
      posMode === 'one_way_mode' || request.orderType === 'market',
    );
    if (!locked.ok) return failed(locked);
    replaced = locked.value.replaced;
  } else {
    const opposite =
      posMode === 'one_way_mode'
        ? state.positions.get(
            positionKey(uid, instrument.category, instrument.symbol, holdSide === 'long' ? 'short' : 'long'),
          )
        : undefined;
    const openLots = Math.max(0, valid.quantityLots - (opposite?.sizeLots ?? 0));
    if (openLots > 0) {
      const priceTicks = request.orderType === 'limit' ? valid.priceTicks : valid.protectionTicks;
      const mark = markPrice(state, trading.books, instrument);
      const value =
        priceTicks !== undefined
          ? marginValue(instrument, priceTicks, openLots)
          : mark !== null
            ? valueAt(instrument, openLots, mark)
            : null;
      if (value === null) return failed({ code: 'OPEN_SIZE_EXCEEDED' });
      reserve = openReserve(instrument, value, leverage);
      const refused = checkOpen(
        trading,
        uid,
        wallet,
        valid,
        coin,
        reserve,
        openLots,
        holdSide,
        crossed,
        leverage,
      );
      if (refused) return failed(refused);
    }
  }
  if (reserve > 0n) freeze(trading.context, uid, wallet, coin, reserve);
  const order = openOrder(trading, {
    uid,
    clientOid,
    category: command.category,
    wallet,
    request,
    valid,
    hold: { coin, amount: reserve },
    source: 'normal',
  });
  order.futures = {
    holdSide,
    tradeSide,
    reduceOnly: Boolean(request.reduceOnly),
    posMode,
    marginMode: settings.marginMode,
    leverage,
    marginCoin: coin,
    realisedPnl: 0n,
  };
  setOrderPresets(trading, order, presets.value);
  execute(trading, valid, order);
  return replaced
    ? ({ orderId: '', clientOid: order.clientOid, replaced: true } as ItemResult)
    : { orderId: order.orderId, clientOid: order.clientOid };
}
