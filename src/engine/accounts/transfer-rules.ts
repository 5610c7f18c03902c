/**
 * What a transfer may move: which coins a wallet holds, how much may leave it, and the
 * margin rule. Business types of the bills on each side.
 *
 * Rules (docs/subaccounts.md, "Transfers"):
 * - a futures wallet holds the margin coins of its product line (usdt_futures: USDT, …);
 *   an isolated-margin wallet holds the base and quote coin of its symbol; spot, crossed
 *   margin and the unified wallet hold any listed coin;
 * - at most the available balance leaves a wallet, and from a wallet backing futures at most
 *   its cross free margin (`transferableAmount`);
 * - a wallet with margin debt keeps its risk ratio (valuation.ts) under the warning ratio
 *   (the instrument's warningRiskRatio, 0.8 by default) after the transfer.
 */
import { maintenanceRate } from '../margin/tiers.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import { parseWalletType, type WalletType } from '../../domain/wallet.ts';
import { crossState } from '../futures/risk.ts';
import { collateralTransferable, isUnion, UNION_WALLET } from '../futures/union.ts';
import { coinListed } from '../instruments/coins.ts';
import { riskRatio, walletValue } from '../margin/valuation.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';
import { readBalance } from './ledger.ts';

export const DEFAULT_WARNING_RISK_RATIO = (MONEY_ONE * 8n) / 10n;

export function walletTypeOf(wallet: string): WalletType | null {
  return parseWalletType(wallet.split(':')[0] ?? '');
}

export function isFuturesWallet(wallet: string): boolean {
  return walletTypeOf(wallet)?.endsWith('_futures') ?? false;
}

/** The bill business type of a transfer leg: futures wallets use the venue's futures names. */
export function transferBusinessType(wallet: string, direction: 'in' | 'out'): string {
  if (isFuturesWallet(wallet)) return direction === 'in' ? 'trans_from_exchange' : 'trans_to_exchange';
  return direction === 'in' ? 'transfer-in' : 'transfer-out';
}

/** Why a wallet cannot hold `coin` (the parameter to blame), or null when it can. */
export function coinRefusal(
  state: EngineState,
  wallet: string,
  coin: string,
  uid?: string,
): 'coin' | 'symbol' | null {
  const type = walletTypeOf(wallet);
  // Union mode: the USDT-M wallet holds any listed coin as collateral (futures/union.ts).
  if (uid !== undefined && wallet === UNION_WALLET && isUnion(state, uid))
    return coinListed(state, coin) ? null : 'coin';
  if (type === null) return 'coin';
  if (type === 'isolated_margin') {
    const symbol = wallet.slice(wallet.indexOf(':') + 1);
    const instrument = state.instruments.get(instrumentKey('MARGIN', symbol));
    if (!instrument) return 'symbol';
    return instrument.baseCoin === coin || instrument.quoteCoin === coin ? null : 'coin';
  }
  if (type.endsWith('_futures')) {
    const category = type.toUpperCase().replace('_', '-');
    for (const instrument of state.instruments.values()) {
      if (instrument.category === category && instrument.marginCoins.includes(coin)) return null;
    }
    return 'coin';
  }
  return coinListed(state, coin) ? null : 'coin';
}

/**
 * How much of `coin` may leave the wallet: its available balance, and in a wallet that backs
 * futures (a futures wallet, the unified wallet) no more than the cross free margin (what
 * crossed positions' initial margin and unrealised losses leave; futures/risk.ts).
 */
export function transferableAmount(
  state: EngineState,
  books: Books,
  uid: string,
  wallet: string,
  coin: string,
): bigint {
  const available = readBalance(state, uid, wallet, coin).available;
  if (!isFuturesWallet(wallet) && walletTypeOf(wallet) !== 'unified') return available;
  if (wallet === UNION_WALLET && coin !== 'USDT' && isUnion(state, uid)) {
    return collateralTransferable(state, books, uid, coin, available);
  }
  const free = crossState(state, books, uid, wallet, coin).free;
  const limit = free < available ? free : available;
  return limit > 0n ? limit : 0n;
}

function warningRatio(state: EngineState, wallet: string): bigint {
  const symbol = wallet.startsWith('isolated_margin:') ? wallet.slice('isolated_margin:'.length) : null;
  for (const instrument of state.instruments.values()) {
    if (instrument.category !== 'MARGIN' || !instrument.warningRiskRatio) continue;
    if (symbol !== null && instrument.symbol !== symbol) continue;
    return parseScaled(instrument.warningRiskRatio, MONEY_SCALE) ?? DEFAULT_WARNING_RISK_RATIO;
  }
  return DEFAULT_WARNING_RISK_RATIO;
}

/** True when taking `amount` of `coin` out keeps a wallet with debt under its warning ratio. */
export function debtAllowsTransfer(
  state: EngineState,
  uid: string,
  wallet: string,
  coin: string,
  amount: bigint,
): boolean {
  const value = walletValue(state, uid, wallet);
  if (value.liabilitiesUsdt === 0n) return true;
  const removedUsdt = divide(amount * (usdtPriceOf(state, coin) ?? 0n), MONEY_ONE, 'up');
  const ratio = riskRatio(
    { assetsUsdt: value.assetsUsdt - removedUsdt, liabilitiesUsdt: value.liabilitiesUsdt },
    maintenanceRate(wallet.startsWith('isolated_margin:')),
  );
  return ratio === null || ratio < warningRatio(state, wallet);
}
