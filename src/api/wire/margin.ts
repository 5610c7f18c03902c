/**
 * v2 margin rows (crossed and isolated): account assets, orders and the records read from
 * bills (borrow, repay, interest, financial records), in the venue's field names. `symbol` is
 * the isolated wallet's symbol, null for the crossed wallet: ccxt tells an isolated record
 * from a crossed one by the presence of `symbol`.
 */
import { divide } from '../../domain/decimal.ts';
import { formatMoney, MONEY_ONE } from '../../domain/money.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { Balance } from '../../domain/wallet.ts';
import type { BillRow, MarginLiquidationRow } from '../../ports/store.ts';

export function marginAssetRow(coin: string, balance: Balance, symbol: string | null, nowMs: number) {
  const total = balance.available + balance.frozen;
  return {
    ...(symbol !== null ? { symbol } : {}),
    coin,
    totalAmount: formatMoney(total),
    available: formatMoney(balance.available),
    frozen: formatMoney(balance.frozen),
    borrow: formatMoney(balance.borrowed),
    interest: formatMoney(balance.interest),
    net: formatMoney(total - balance.borrowed - balance.interest),
    coupon: '0',
    cTime: String(nowMs),
    uTime: String(nowMs),
  };
}

/**
 * An order row of open-orders / history-orders: `baseSize` the ordered base quantity,
 * `quoteSize` its quote value (a market buy: the amount to spend), `size` and `amount` what
 * has filled, in base and quote.
 */
export function marginOrderRow(order: OrderView): Record<string, unknown> {
  const marketBuy = order.orderType === 'market' && order.side === 'buy';
  const ordered = order.orderType === 'limit' ? multiply(order.price, order.qty) : '0';
  return {
    orderId: order.orderId,
    symbol: order.symbol,
    orderType: order.orderType,
    enterPointSource: 'API',
    clientOid: order.clientOid,
    loanType: order.loanType ?? 'autoLoan',
    price: order.price,
    side: order.side,
    status: order.status,
    baseSize: marketBuy ? '0' : order.qty,
    quoteSize: marketBuy ? order.amount : ordered,
    priceAvg: order.avgPrice,
    size: order.cumExecQty,
    amount: order.cumExecValue,
    force: order.timeInForce,
    cTime: String(order.createdTimeMs),
    uTime: String(order.updatedTimeMs),
  };
}

/** price × quantity of two decimal texts, exactly (8 places at most each, as instruments are). */
function multiply(price: string, quantity: string): string {
  const scaled = (text: string) => {
    const [whole = '0', fraction = ''] = text.split('.');
    return BigInt(whole + fraction.padEnd(8, '0').slice(0, 8));
  };
  return formatMoney(divide(scaled(price) * scaled(quantity), MONEY_ONE, 'down'));
}

const abs = (value: bigint) => (value < 0n ? -value : value);

export function borrowRecordRow(bill: BillRow, symbol: string | null) {
  return {
    loanId: bill.billId,
    coin: bill.coin,
    borrowAmount: formatMoney(bill.amount),
    borrowType: bill.businessType === 'manual_borrow' ? 'manual' : 'auto',
    ...(symbol !== null ? { symbol } : {}),
    cTime: String(bill.timeMs),
    uTime: String(bill.timeMs),
  };
}

const REPAY_TYPES: Readonly<Record<string, string>> = {
  repay: 'manual',
  auto_repay: 'auto',
  flash_repay: 'flash',
  liquidation_repay: 'liquidation',
};

/** A repay bill: its amount is what was paid, its fee the interest part of it. */
export function repayRecordRow(bill: BillRow, symbol: string | null) {
  const paid = abs(bill.amount);
  return {
    repayId: bill.billId,
    coin: bill.coin,
    repayAmount: formatMoney(paid),
    repayType: REPAY_TYPES[bill.businessType] ?? bill.businessType,
    repayInterest: formatMoney(bill.fee),
    repayPrincipal: formatMoney(paid - bill.fee),
    ...(symbol !== null ? { symbol } : {}),
    cTime: String(bill.timeMs),
    uTime: String(bill.timeMs),
  };
}

/** An interest bill: amount 0, the interest charged in its fee. */
export function interestRecordRow(bill: BillRow, symbol: string | null, dailyRate: string) {
  return {
    interestId: bill.billId,
    interestCoin: bill.coin,
    dailyInterestRate: dailyRate,
    loanCoin: bill.coin,
    interestAmount: formatMoney(bill.fee),
    interstType: bill.businessType === 'first_interest' ? 'first' : 'scheduled',
    ...(symbol !== null ? { symbol } : {}),
    cTime: String(bill.timeMs),
    uTime: String(bill.timeMs),
  };
}

/** The venue's financial-record marginType for a bill's business type. */
export const FINANCIAL_TYPES: Readonly<Record<string, string>> = {
  'transfer-in': 'transfer_in',
  'transfer-out': 'transfer_out',
  borrow: 'borrow',
  manual_borrow: 'borrow',
  repay: 'repay',
  auto_repay: 'repay',
  flash_repay: 'repay',
  liquidation_repay: 'repay',
  buy: 'deal_in',
  sell: 'deal_out',
  first_interest: 'interest',
  interest: 'interest',
};

export function financialRecordRow(bill: BillRow, symbol: string | null) {
  return {
    coin: bill.coin,
    ...(symbol !== null ? { symbol } : {}),
    marginId: bill.billId,
    amount: formatMoney(bill.amount),
    balance: formatMoney(bill.balanceAfter),
    fee: formatMoney(bill.fee === 0n ? 0n : -bill.fee),
    marginType: FINANCIAL_TYPES[bill.businessType] ?? bill.businessType,
    cTime: String(bill.timeMs),
    uTime: String(bill.timeMs),
  };
}

export function liquidationRow(row: MarginLiquidationRow) {
  return {
    liqId: row.liqId,
    ...(row.symbol ? { symbol: row.symbol } : {}),
    liqStartTime: String(row.startMs),
    liqEndTime: String(row.endMs),
    liqRiskRatio: formatMoney(row.riskRatio),
    totalAssets: formatMoney(row.totalAssetsUsdt),
    totalDebt: formatMoney(row.totalDebtUsdt),
    liqFee: formatMoney(row.feeUsdt),
    cTime: String(row.startMs),
    uTime: String(row.endMs),
  };
}
