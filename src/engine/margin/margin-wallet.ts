/**
 * Which wallet a margin request acts on: the crossed wallet (`crossed_margin`), a symbol's
 * isolated wallet (`isolated_margin:BTCUSDT`), or a unified account's one `unified` wallet.
 * An isolated wallet holds only its symbol's base and quote coin; its debt, risk ratio and
 * liquidation are its own.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { EngineState } from '../state.ts';

export type MarginType = 'crossed' | 'isolated';

export const ISOLATED_PREFIX = 'isolated_margin:';

export function isolatedWallet(symbol: string): string {
  return `${ISOLATED_PREFIX}${symbol}`;
}

export function marginWallet(state: EngineState, uid: string, marginType: MarginType, symbol = ''): string {
  if (state.accounts.get(uid)?.mode === 'unified') return 'unified';
  return marginType === 'isolated' ? isolatedWallet(symbol) : 'crossed_margin';
}

/** The symbol of an isolated wallet, or null for any other wallet. */
export function isolatedSymbolOf(wallet: string): string | null {
  return wallet.startsWith(ISOLATED_PREFIX) ? wallet.slice(ISOLATED_PREFIX.length) : null;
}

export function marginInstrument(state: EngineState, symbol: string): Instrument | undefined {
  return state.instruments.get(instrumentKey('MARGIN', symbol));
}

/** True when an isolated wallet may hold `coin` (its symbol's base or quote coin). */
export function isolatedHolds(state: EngineState, wallet: string, coin: string): boolean {
  const symbol = isolatedSymbolOf(wallet);
  if (symbol === null) return true;
  const instrument = marginInstrument(state, symbol);
  return instrument !== undefined && (instrument.baseCoin === coin || instrument.quoteCoin === coin);
}
