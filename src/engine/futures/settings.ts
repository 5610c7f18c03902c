/**
 * Futures settings per account: position mode per product line (until set, the mode the
 * account started in: CreateAccount.positionMode), and per symbol the margin
 * mode and leverage (cross, or long/short when isolated). Modes cannot change while the
 * account holds positions or orders there (the venue's 40920 / 45117).
 */
import type { AdjustMargin, SetLeverage, SetMarginMode, SetPositionMode } from '../../domain/commands.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import {
  DEFAULT_LEVERAGE,
  positionKey,
  settingsKey,
  type PositionMode,
  type SymbolSettings,
} from '../../domain/position.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import { moveToMargin, readBalance } from '../accounts/ledger.ts';
import type { EngineState } from '../state.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { positionRisk } from './risk.ts';
import { maxLeverageFor } from './tiers.ts';

/** The account's mode for the product type: as set, else the one it started in, else one-way. */
export function positionModeOf(state: EngineState, uid: string, category: string): PositionMode {
  return (
    state.positionModes.get(`${uid}|${category}`) ?? state.accounts.get(uid)?.positionMode ?? 'one_way_mode'
  );
}

export function settingsOf(state: EngineState, uid: string, instrument: Instrument): SymbolSettings {
  const stored = state.symbolSettings.get(settingsKey(uid, instrument.category, instrument.symbol));
  if (stored) return stored;
  const leverage = Math.min(DEFAULT_LEVERAGE, Number(instrument.maxLeverage || DEFAULT_LEVERAGE));
  return { marginMode: 'crossed', crossLeverage: leverage, longLeverage: leverage, shortLeverage: leverage };
}

function hasActivity(state: EngineState, uid: string, category: string, symbol?: string): boolean {
  for (const position of state.positions.values()) {
    if (position.uid === uid && position.category === category && (!symbol || position.symbol === symbol))
      return true;
  }
  for (const order of state.orders.values()) {
    if (order.uid === uid && order.category === category && (!symbol || order.symbol === symbol)) return true;
  }
  // Live trigger and TP/SL plans count as orders: they would fire into the old mode.
  for (const plan of state.plans.live.values()) {
    if (plan.uid === uid && plan.category === category && (!symbol || plan.symbol === symbol)) return true;
  }
  return false;
}

function instrumentOf(state: EngineState, category: string, symbol: string): Instrument | undefined {
  return state.instruments.get(instrumentKey(category as Instrument['category'], symbol));
}

export function setPositionMode(
  state: EngineState,
  command: SetPositionMode,
): Outcome<{ posMode: PositionMode }> {
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', 'uid');
  if (positionModeOf(state, command.uid, command.category) === command.posMode)
    return ok({ posMode: command.posMode });
  if (hasActivity(state, command.uid, command.category)) return fail('POSITION_OR_ORDER_EXISTS');
  state.positionModes.set(`${command.uid}|${command.category}`, command.posMode);
  return ok({ posMode: command.posMode });
}

export function setMarginMode(state: EngineState, command: SetMarginMode): Outcome<SymbolSettings> {
  const instrument = instrumentOf(state, command.category, command.symbol);
  if (!instrument) return fail('SYMBOL_NOT_FOUND', command.symbol);
  const current = settingsOf(state, command.uid, instrument);
  if (current.marginMode === command.marginMode) return ok(current);
  if (hasActivity(state, command.uid, command.category, command.symbol)) return fail('MARGIN_MODE_LOCKED');
  const next = { ...current, marginMode: command.marginMode };
  state.symbolSettings.set(settingsKey(command.uid, command.category, command.symbol), next);
  return ok(next);
}

export function setLeverage(state: EngineState, command: SetLeverage): Outcome<SymbolSettings> {
  const instrument = instrumentOf(state, command.category, command.symbol);
  if (!instrument) return fail('SYMBOL_NOT_FOUND', command.symbol);
  const min = Number(instrument.minLeverage || '1');
  const max = Number(instrument.maxLeverage || '1');
  const values = [command.leverage, command.longLeverage, command.shortLeverage].filter(
    (value) => value !== undefined,
  );
  if (values.length === 0) return fail('PARAM_EMPTY', 'leverage');
  for (const value of values) {
    if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
      return fail('LEVERAGE_INVALID');
  }
  const current = settingsOf(state, command.uid, instrument);
  const next: SymbolSettings = {
    marginMode: current.marginMode,
    crossLeverage: command.leverage ?? current.crossLeverage,
    longLeverage: command.longLeverage ?? command.leverage ?? current.longLeverage,
    shortLeverage: command.shortLeverage ?? command.leverage ?? current.shortLeverage,
  };
  // A position's tier caps its leverage (tiers.ts); the engine holds no books here, so the
  // tier is looked up by the position's cost basis, its value at entry.
  for (const side of ['long', 'short'] as const) {
    const position = state.positions.get(positionKey(command.uid, command.category, command.symbol, side));
    if (!position) continue;
    const wanted =
      position.marginMode === 'crossed'
        ? next.crossLeverage
        : side === 'long'
          ? next.longLeverage
          : next.shortLeverage;
    if (wanted > maxLeverageFor(position.entryValue, instrument.maxLeverage)) return fail('LEVERAGE_INVALID');
  }
  state.symbolSettings.set(settingsKey(command.uid, command.category, command.symbol), next);
  // Open positions take the new leverage (the venue re-margins them; isolated margin stays).
  for (const side of ['long', 'short'] as const) {
    const position = state.positions.get(positionKey(command.uid, command.category, command.symbol, side));
    if (position) {
      position.leverage =
        position.marginMode === 'crossed'
          ? next.crossLeverage
          : side === 'long'
            ? next.longLeverage
            : next.shortLeverage;
    }
  }
  return ok(next);
}

/** Isolated margin in or out; removing may not leave less than the position's initial margin. */
export function adjustMargin(trading: TradingContext, command: AdjustMargin): Outcome<{ margin: bigint }> {
  const { state } = trading.context;
  const position = state.positions.get(
    positionKey(command.uid, command.category, command.symbol, command.holdSide),
  );
  if (!position || position.marginMode !== 'isolated') return fail('POSITION_INSUFFICIENT');
  if (command.amount === 0n) return fail('PARAM_ERROR', 'amount');
  if (command.amount > 0n) {
    const available = readBalance(state, position.uid, position.wallet, position.marginCoin).available;
    if (available < command.amount) return fail('INSUFFICIENT_BALANCE');
  } else {
    const risk = positionRisk(state, trading.books, position);
    const keep = risk
      ? risk.initialMargin - (risk.unrealisedPnl < 0n ? risk.unrealisedPnl : 0n)
      : position.isolatedMargin;
    if (position.isolatedMargin + command.amount < keep) return fail('INSUFFICIENT_BALANCE');
  }
  moveToMargin(state, position.uid, position.wallet, position.marginCoin, command.amount);
  position.isolatedMargin += command.amount;
  position.updatedTimeMs = trading.context.nowMs;
  trading.context.emit({
    type: 'BillPosted',
    billId: trading.context.nextId(),
    uid: position.uid,
    wallet: position.wallet,
    coin: position.marginCoin,
    symbol: position.symbol,
    amount: 0n,
    fee: 0n,
    balanceAfter: (() => {
      const balance = readBalance(state, position.uid, position.wallet, position.marginCoin);
      return balance.available + balance.frozen + balance.margin;
    })(),
    businessType: command.amount > 0n ? 'append_margin' : 'reduce_margin',
    category: position.category,
    timeMs: trading.context.nowMs,
  });
  return ok({ margin: position.isolatedMargin });
}
