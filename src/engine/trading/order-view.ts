/** Formats an order for reports: prices, quantities and money as decimal strings. */
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
export function averagePrice(instrument: Instrument, order: Order): string {
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
    ...(order.spotPresets ? { spotPresets: { ...order.spotPresets } } : {}),
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
