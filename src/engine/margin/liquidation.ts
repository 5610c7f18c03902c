/**
 * Margin risk control. After index moves and on the hourly job, every
 * margin wallet with debt is valued; at the instrument's liquidationRiskRatio (1.0) its open
 * margin orders are cancelled, its non-stable assets are sold at market through the MARGIN
 * books (orders marked `liquidation`), and the proceeds repay the debt, interest first.
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

function liquidationThreshold(trading: TradingContext): bigint {
  for (const instrument of trading.context.state.instruments.values()) {
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

function sellAll(trading: TradingContext, uid: string, wallet: string, instrument: Instrument): void {
  const { state } = trading.context;
  const balance = state.balances.get(`${uid}|${wallet}|${instrument.baseCoin}`);
  if (!balance || balance.available <= 0n) return;
  const lotMoney = lotsToMoney(instrument, 1);
  const lots = Number(balance.available / lotMoney);
  if (lots <= 0) return;
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
}

export function liquidateWallet(trading: TradingContext, uid: string, wallet: string): void {
  const { state } = trading.context;
  for (const order of [...state.orders.values()]) {
    if (order.uid === uid && order.wallet === wallet && order.category === 'MARGIN') {
      cancelOpenOrder(trading, order, 'liquidation_cancel');
    }
  }
  const margins = [...state.instruments.values()].filter((instrument) => instrument.category === 'MARGIN');
  for (const instrument of margins) sellAll(trading, uid, wallet, instrument);
  const prefix = `${uid}|${wallet}|`;
  for (const key of [...state.balances.keys()]) {
    if (key.startsWith(prefix)) repayCoin(trading.context, uid, wallet, key.slice(prefix.length));
  }
  finish(trading);
}

export function enforceMarginRisk(trading: TradingContext): void {
  const threshold = liquidationThreshold(trading);
  for (const walletKey of walletsWithDebt(trading)) {
    const [uid, wallet] = walletKey.split('|') as [string, string];
    if (wallet !== 'crossed_margin' && wallet !== 'unified') continue;
    const ratio = riskRatio(walletValue(trading.context.state, uid, wallet));
    if (ratio !== null && ratio >= threshold) liquidateWallet(trading, uid, wallet);
  }
}
