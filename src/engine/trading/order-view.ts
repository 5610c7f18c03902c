/** Formats an order for reports: prices, quantities and money as decimal strings. */
import { formatMoney } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { divide } from '../../domain/decimal.ts';
import { lotsToQuantity, scalesOf, ticksToPrice } from '../instruments/scales.ts';
import { formatScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';

/** Average price = filled value / filled quantity, at the instrument's price precision (rounded down). */
export function averagePrice(instrument: Instrument, order: Order): string {
  if (order.filledLots === 0) return '0';
  const scales = scalesOf(instrument);
  const baseUnits = BigInt(order.filledLots) * scales.lotUnits; // 10^-quantityPlaces
  // price (10^-8 of quote per base) = filledQuote(10^-8) * 10^quantityPlaces / baseUnits
  const priceMoney = divide(order.filledQuote * 10n ** BigInt(scales.quantityPlaces), baseUnits, 'down');
  return formatScaled(priceMoney, MONEY_SCALE);
}

export function orderView(instrument: Instrument, order: Order): OrderView {
  return {
    orderId: order.orderId,
    clientOid: order.clientOid,
    uid: order.uid,
    category: order.category,
    symbol: order.symbol,
    wallet: order.wallet,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    stpMode: order.stpMode,
    price: order.orderType === 'limit' ? ticksToPrice(instrument, order.priceTicks) : '0',
    qty: order.quantityLots > 0 ? lotsToQuantity(instrument, order.quantityLots) : '0',
    amount: order.quoteAmount > 0n ? formatMoney(order.quoteAmount) : '0',
    cumExecQty: lotsToQuantity(instrument, order.filledLots),
    cumExecValue: formatMoney(order.filledQuote),
    avgPrice: averagePrice(instrument, order),
    feeCoin: order.feeCoin,
    fee: formatMoney(order.feeTotal),
    status: order.status,
    cancelReason: order.cancelReason,
    source: order.source,
    createdTimeMs: order.createdTimeMs,
    updatedTimeMs: order.updatedTimeMs,
    ...(order.loanType ? { loanType: order.loanType } : {}),
    ...(order.futures
      ? {
          futures: {
            holdSide: order.futures.holdSide,
            tradeSide: order.futures.tradeSide,
            reduceOnly: order.futures.reduceOnly,
            posMode: order.futures.posMode,
            marginMode: order.futures.marginMode,
            leverage: String(order.futures.leverage),
            marginCoin: order.futures.marginCoin,
            realisedPnl: formatMoney(order.futures.realisedPnl),
            ...(order.futures.takeProfit ? { takeProfit: order.futures.takeProfit } : {}),
            ...(order.futures.stopLoss ? { stopLoss: order.futures.stopLoss } : {}),
          },
        }
      : {}),
  };
}
