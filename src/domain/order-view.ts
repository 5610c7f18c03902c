import type { PlanPreset } from './plan.ts';

/**
 * An order as reported: the figures and instrument of one moment, so that history shows what
 * was true when it happened. The engine's events carry those figures and format this view on
 * its first read, once (engine/trading/report-records.ts). Both the v2 and the v3 wire shapes
 * are produced from this one record.
 */
export interface OrderView {
  orderId: string;
  clientOid: string;
  uid: string;
  category: string;
  symbol: string;
  wallet: string;
  side: string;
  orderType: string;
  timeInForce: string;
  stpMode: string;
  /** Limit price; "0" for market orders. */
  price: string;
  /** Ordered base quantity; "0" for a market buy by amount. */
  qty: string;
  /** Market buy: quote amount; otherwise "0". */
  amount: string;
  cumExecQty: string;
  cumExecValue: string;
  /** Average fill price; "0" before any fill. */
  avgPrice: string;
  feeCoin: string;
  /** Fee paid, positive decimal. */
  fee: string;
  status: string;
  cancelReason: string;
  source: string;
  createdTimeMs: number;
  updatedTimeMs: number;
  /** Spot orders only: the TP/SL presets the order carries (absent: none). */
  spotPresets?: { takeProfit?: PlanPreset; stopLoss?: PlanPreset };
  /** Margin orders placed with a loanType (v2 margin routes). */
  loanType?: string;
  /** Futures orders only. */
  futures?: {
    holdSide: string;
    tradeSide: string;
    reduceOnly: boolean;
    posMode: string;
    marginMode: string;
    leverage: string;
    marginCoin: string;
    realisedPnl: string;
    /** TP/SL presets the order carries (absent: none). */
    takeProfit?: PlanPreset;
    stopLoss?: PlanPreset;
  };
}
