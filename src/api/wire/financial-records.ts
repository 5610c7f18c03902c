/**
 * v3 financial records: bills in the unified ledger's shape. Types use the
 * venue's spelling where it is published (TRANSFER_IN, ORDER_DEALT_IN,
 * CONTRACT_MAIN_SETTLE_FEE_USER_IN/OUT); the others follow the same pattern (docs/futures.md).
 */
import { formatMoney } from '../../domain/money.ts';
import type { BillRow } from '../../ports/store.ts';

const direction = (amount: bigint) => (amount >= 0n ? 'IN' : 'OUT');

export function financialType(bill: BillRow): string {
  const type = bill.businessType;
  const net = bill.amount;
  if (type === 'deposit') return 'DEPOSIT';
  if (type === 'withdraw') return 'WITHDRAW';
  if (type.startsWith('trans_from') || type === 'transfer-in') return 'TRANSFER_IN';
  if (type.startsWith('trans_to') || type === 'transfer-out') return 'TRANSFER_OUT';
  if (type === 'contract_settle_fee') return `CONTRACT_MAIN_SETTLE_FEE_USER_${direction(net)}`;
  if (type.startsWith('force_close') || type.startsWith('burst')) return 'CONTRACT_MAIN_LIQUIDATION';
  if (type.startsWith('delivery')) return 'CONTRACT_MAIN_DELIVERY';
  if (type === 'borrow' || type === 'repay') return type.toUpperCase();
  if (type === 'convert-in' || type === 'convert-out') return `CONVERT_${direction(net)}`;
  if (bill.category === 'SPOT' || bill.category === 'MARGIN') return `ORDER_DEALT_${direction(net)}`;
  if (type.startsWith('open_') || type.startsWith('close_') || type === 'buy' || type === 'sell') {
    // A trade's direction is its PnL's; the fee is reported on its own.
    return `CONTRACT_MAIN_TRADE_${direction(net + bill.fee)}`;
  }
  return type.toUpperCase();
}

export function financialRecord(bill: BillRow): Record<string, string> {
  return {
    category: bill.category,
    id: bill.billId,
    symbol: bill.symbol,
    coin: bill.coin,
    type: financialType(bill),
    amount: formatMoney(bill.amount + bill.fee),
    fee: bill.fee === 0n ? '0' : formatMoney(-bill.fee),
    balance: formatMoney(bill.balanceAfter),
    ts: String(bill.timeMs),
  };
}
