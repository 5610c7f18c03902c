/**
 * Formats an order for reports: prices, quantities and money as decimal strings. The engine's
 * events carry an order's figures and format them on first read (report-records.ts); the
 * reads of live orders format them at once (`orderView`).
 */
import { formatMoney } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { divide } from '../../domain/decimal.ts';
import { lotsToMoney, lotsToQuantity, scalesOf, ticksToPrice } from '../instruments/scales.ts';
import { isInverse } from '../../domain/category.ts';
import { formatScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';

/** 10^n for the few quantity precisions there are, made once instead of per view. */
const POWERS_OF_TEN = Array.from({ length: 19 }, (_, exponent) => 10n ** BigInt(exponent));

/** Average price = filled value / filled quantity, at the instrument's price precision (rounded down). */
export function averagePrice(
  instrument: Instrument,
  order: Pick<Order, 'filledLots' | 'filledQuote'>,
): string {
  if (order.filledLots === 0) return '0';
  const scales = scalesOf(instrument);
  if (isInverse(instrument.category)) {
    // Coin-margined: lots are USD and filledQuote is the coin paid, so the average price is
    // USD ÷ coin (the harmonic mean of the fill prices, as the venue shows it), in money units.
    if (order.filledQuote === 0n) return '0';
    const usdMoney = lotsToMoney(instrument, order.filledLots);
    return formatScaled(
      divide(usdMoney * 10n ** BigInt(MONEY_SCALE), order.filledQuote, 'down'),
      MONEY_SCALE,
    );
  }
  const baseUnits = BigInt(order.filledLots) * scales.lotUnits; // 10^-quantityPlaces
  // price (10^-8 of quote per base) = filledQuote(10^-8) * 10^quantityPlaces / baseUnits
  const power = POWERS_OF_TEN[scales.quantityPlaces] ?? 10n ** BigInt(scales.quantityPlaces);
  const priceMoney = divide(order.filledQuote * power, baseUnits, 'down');
  return formatScaled(priceMoney, MONEY_SCALE);
}

/** The fields of an order fixed when it is opened: a report of any moment may read them from the order. */
export type OrderIdentity = Pick<
  Order,
  | 'orderId'
  | 'clientOid'
  | 'uid'
  | 'category'
  | 'symbol'
  | 'wallet'
  | 'side'
  | 'orderType'
  | 'stpMode'
  | 'createdTimeMs'
>;

/** The fields of an order that change after it is opened: a report of one moment copies them. */
export type OrderFigures = Pick<
  Order,
  | 'timeInForce'
  | 'priceTicks'
  | 'quantityLots'
  | 'quoteAmount'
  | 'filledLots'
  | 'filledQuote'
  | 'feeCoin'
  | 'feeTotal'
  | 'status'
  | 'cancelReason'
  | 'source'
  | 'updatedTimeMs'
  | 'spotPresets'
  | 'loanType'
  | 'futures'
>;

/** The view of a live order, as it stands now. */
export function orderView(instrument: Instrument, order: Order): OrderView {
  return formatOrderView(instrument, order, order);
}

/** The view of an order from its fixed fields and its figures of one moment (the key order is the wire's). */
export function formatOrderView(
  instrument: Instrument,
  order: OrderIdentity,
  figures: OrderFigures,
): OrderView {
  return {
    orderId: order.orderId,
    clientOid: order.clientOid,
    uid: order.uid,
    category: order.category,
    symbol: order.symbol,
    wallet: order.wallet,
    side: order.side,
    orderType: order.orderType,
    timeInForce: figures.timeInForce,
    stpMode: order.stpMode,
    price: order.orderType === 'limit' ? ticksToPrice(instrument, figures.priceTicks) : '0',
    qty: figures.quantityLots > 0 ? lotsToQuantity(instrument, figures.quantityLots) : '0',
    amount: figures.quoteAmount > 0n ? formatMoney(figures.quoteAmount) : '0',
    cumExecQty: lotsToQuantity(instrument, figures.filledLots),
    cumExecValue: formatMoney(figures.filledQuote),
    avgPrice: averagePrice(instrument, figures),
    feeCoin: figures.feeCoin,
    fee: formatMoney(figures.feeTotal),
    status: figures.status,
    cancelReason: figures.cancelReason,
    source: figures.source,
    createdTimeMs: order.createdTimeMs,
    updatedTimeMs: figures.updatedTimeMs,
    ...(figures.spotPresets ? { spotPresets: { ...figures.spotPresets } } : {}),
    ...(figures.loanType ? { loanType: figures.loanType } : {}),
    ...(figures.futures
      ? {
          futures: {
            holdSide: figures.futures.holdSide,
            tradeSide: figures.futures.tradeSide,
            reduceOnly: figures.futures.reduceOnly,
            posMode: figures.futures.posMode,
            marginMode: figures.futures.marginMode,
            leverage: String(figures.futures.leverage),
            marginCoin: figures.futures.marginCoin,
            realisedPnl: formatMoney(figures.futures.realisedPnl),
            ...(figures.futures.takeProfit ? { takeProfit: figures.futures.takeProfit } : {}),
            ...(figures.futures.stopLoss ? { stopLoss: figures.futures.stopLoss } : {}),
          },
        }
      : {}),
  };
}
