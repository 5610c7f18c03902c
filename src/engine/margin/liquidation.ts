/**
 * Margin risk control. After index moves and on the hourly job, every margin wallet with debt
 * (crossed, unified, isolated) is valued; at the liquidationRiskRatio (1.0) its open margin
 * orders are cancelled, its non-stable assets are sold at market through the MARGIN books
 * (orders marked `liquidation`), and the proceeds repay the debt, interest first. A
 * liquidation that changed something is recorded (MarginLiquidated); one that could do nothing
 * (no order, nothing to sell, nothing to repay with) is not recorded again on every check.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { parseScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import { lotsToMoney } from '../instruments/scales.ts';
import { freeze } from '../accounts/ledger.ts';
import { cancelOpenOrder } from '../trading/cancel.ts';
import { execute, openOrder } from '../trading/place.ts';
import { finish, type TradingContext } from '../trading/trading-context.ts';
import { repayCoin } from './repay.ts';
import { riskRatio, walletValue } from './valuation.ts';
import { isolatedSymbolOf } from './margin-wallet.ts';
import { maintenanceRate } from './tiers.ts';

function liquidationThreshold(trading: TradingContext, symbol: string | null): bigint {
  for (const instrument of trading.context.state.instruments.values()) {
    if (symbol !== null && instrument.symbol !== symbol) continue;
    if (instrument.category === 'MARGIN' && instrument.liquidationRiskRatio) {
      return parseScaled(instrument.liquidationRiskRatio, MONEY_SCALE) ?? MONEY_ONE;
    }
  }
  return MONEY_ONE;
}

function walletsWithDebt(trading: TradingContext): string[] {
  const wallets = new Set<string>();
  for (const [key, balance] of trading.context.state.balances) {
    if (balance.borrowed + balance.interest > 0n) wallets.add(key.slice(0, key.lastIndexOf('|')));
  }
  return [...wallets].sort();
}

function sellAll(trading: TradingContext, uid: string, wallet: string, instrument: Instrument): boolean {
  const { state } = trading.context;
  const balance = state.balances.get(`${uid}|${wallet}|${instrument.baseCoin}`);
  if (!balance || balance.available <= 0n) return false;
  const lotMoney = lotsToMoney(instrument, 1);
  const lots = Number(balance.available / lotMoney);
  if (lots <= 0) return false;
  const amount = lotMoney * BigInt(lots);
  freeze(trading.context, uid, wallet, instrument.baseCoin, amount);
  const valid = {
    instrument,
    key: instrumentKey('MARGIN', instrument.symbol),
    priceTicks: 0,
    quantityLots: lots,
    quoteAmount: 0n,
  };
  const order = openOrder(trading, {
    uid,
    clientOid: '',
    category: 'MARGIN',
    wallet,
    request: { side: 'sell', orderType: 'market', timeInForce: 'ioc', stpMode: 'none' },
    valid,
    hold: { coin: instrument.baseCoin, amount },
    source: 'liquidation',
  });
  execute(trading, valid, order);
  return true;
}

export function liquidateWallet(trading: TradingContext, uid: string, wallet: string, ratio: bigint): void {
  const { context } = trading;
  const { state } = context;
  const before = walletValue(state, uid, wallet);
  let changed = false;
  for (const order of [...state.orders.values()]) {
    if (order.uid === uid && order.wallet === wallet && order.category === 'MARGIN') {
      cancelOpenOrder(trading, order, 'liquidation_cancel');
      changed = true;
    }
  }
  // An isolated wallet sells only its own symbol's base coin; the crossed one every margin symbol's.
  const symbol = isolatedSymbolOf(wallet);
  const margins = [...state.instruments.values()].filter(
    (instrument) => instrument.category === 'MARGIN' && (symbol === null || instrument.symbol === symbol),
  );
  for (const instrument of margins) if (sellAll(trading, uid, wallet, instrument)) changed = true;
  const prefix = `${uid}|${wallet}|`;
  for (const key of [...state.balances.keys()]) {
    if (!key.startsWith(prefix)) continue;
    if (repayCoin(context, uid, wallet, key.slice(prefix.length), undefined, 'liquidation_repay'))
      changed = true;
  }
  finish(trading);
  if (!changed) return;
  const liqId = context.nextId();
  if (!context.recording) return;
  context.emit({
    type: 'MarginLiquidated',
    liqId,
    uid,
    wallet,
    symbol: symbol ?? '',
    riskRatio: ratio,
    totalAssetsUsdt: before.assetsUsdt,
    totalDebtUsdt: before.liabilitiesUsdt,
    feeUsdt: 0n,
    startMs: context.nowMs,
    endMs: context.nowMs,
  });
}

/**
 * Every wallet with debt, crossed (or unified) and isolated alike, each against its own
 * threshold and maintenance rate: an isolated wallet's liquidation touches nothing else.
 */
export function enforceMarginRisk(trading: TradingContext): void {
  for (const walletKey of walletsWithDebt(trading)) {
    const [uid, wallet] = walletKey.split('|') as [string, string];
    const symbol = isolatedSymbolOf(wallet);
    if (wallet !== 'crossed_margin' && wallet !== 'unified' && symbol === null) continue;
    const value = walletValue(trading.context.state, uid, wallet);
    const ratio = riskRatio(value, maintenanceRate(symbol !== null));
    if (ratio !== null && ratio >= liquidationThreshold(trading, symbol))
      liquidateWallet(trading, uid, wallet, ratio);
  }
}
