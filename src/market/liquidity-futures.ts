/**
 * The house's futures rules: settings, inventory and margin for each contract it quotes.
 *
 * Settings: one-way position mode per product type and crossed margin at `leverage` (capped
 * to the contract's range) per symbol, set by the ordinary commands before the first quote.
 * One-way mode lets a fill against a long simply reduce it.
 *
 * Inventory: the net position (long − short, lots) may not pass `maxPosition` (quote value at
 * the index) either way. The bids are trimmed to limit − net lots and the asks to limit + net,
 * best level first, so net + every resting bid ≤ limit holds after each round, and fills only
 * move lots from the resting bids into the position: the limit holds whatever takers do. A
 * price move revalues the limit; the next round trims to it (the house never takes liquidity
 * to get back under it).
 *
 * Margin: crossed free margin (available − initial margin + losses, engine/futures/risk.ts)
 * stays at least what the new orders reserve plus the value of the wallet's positions at the
 * mark; when it would not, the house deposits the shortfall and four full ladders' reserve.
 * Equity is then at least initial margin + position value (120 % of the value at 5×) against
 * a maintenance margin of value × (mmr + taker fee), about 0.5 %. On a linear contract a long
 * then cannot be liquidated and a short only if the price more than doubles before the next
 * round tops it up; on a coin-margined one a short cannot be, and a long only if the price
 * falls by more than half.
 */
import type { Command } from '../domain/commands.ts';
import type { Instrument } from '../domain/instrument.ts';
import { positionKey } from '../domain/position.ts';
import { futuresWalletOf } from '../domain/wallet.ts';
import { indexPrice } from '../engine/futures/mark.ts';
import { openReserve } from '../engine/futures/reserve.ts';
import { crossState, positionRisk, walletPositions } from '../engine/futures/risk.ts';
import { positionModeOf, settingsOf } from '../engine/futures/settings.ts';
import { marginValue, ticksToMoney } from '../engine/instruments/scales.ts';
import type { EngineState } from '../engine/state.ts';
import type { Books } from '../engine/trading/books.ts';
import { capSide, lotNotional, notionalMoney, type Quote } from './ladder.ts';
import type { Room } from './requote.ts';

export interface FundingNeed {
  wallet: string;
  coin: string;
  amount: bigint;
}

/** The house's cross leverage on `instrument`: the configured one within the contract's range. */
export function houseLeverage(instrument: Instrument, leverage: number): number {
  const min = Number(instrument.minLeverage || '1') || 1;
  const max = Number(instrument.maxLeverage || String(leverage)) || leverage;
  return Math.max(min, Math.min(max, leverage));
}

/** Commands that bring the house's settings on `instrument` to one-way, crossed, `leverage`. */
export function settingsCommands(
  state: EngineState,
  uid: string,
  instrument: Instrument,
  leverage: number,
  timeMs: number,
): Command[] {
  const { category, symbol } = instrument;
  const commands: Command[] = [];
  if (positionModeOf(state, uid, category) !== 'one_way_mode')
    commands.push({ type: 'SetPositionMode', timeMs, uid, category, posMode: 'one_way_mode' });
  const settings = settingsOf(state, uid, instrument);
  if (settings.marginMode !== 'crossed')
    commands.push({ type: 'SetMarginMode', timeMs, uid, category, symbol, marginMode: 'crossed' });
  const wanted = houseLeverage(instrument, leverage);
  if (settings.crossLeverage !== wanted)
    commands.push({ type: 'SetLeverage', timeMs, uid, category, symbol, leverage: wanted });
  return commands;
}

/** Whether the house may quote `instrument`: one-way and crossed (what its orders assume). */
export function settingsReady(state: EngineState, uid: string, instrument: Instrument): boolean {
  return (
    positionModeOf(state, uid, instrument.category) === 'one_way_mode' &&
    settingsOf(state, uid, instrument).marginMode === 'crossed'
  );
}

/** Net position in lots: long − short. */
export function netLots(state: EngineState, uid: string, instrument: Instrument): number {
  const size = (side: 'long' | 'short') =>
    state.positions.get(positionKey(uid, instrument.category, instrument.symbol, side))?.sizeLots ?? 0;
  return size('long') - size('short');
}

/** `maxPosition` (quote value) in lots at the index price. */
export function limitLots(instrument: Instrument, indexTicks: number, maxPosition: number): number {
  const oneLot = lotNotional(instrument, indexTicks);
  return oneLot > 0n ? Number(notionalMoney(maxPosition) / oneLot) : 0;
}

/**
 * Lots each side may hold so that no fill takes the net position past the limit: bids
 * limit − net, asks limit + net (empty room when there is no index to value the limit at).
 */
export function inventoryRoom(
  state: EngineState,
  uid: string,
  instrument: Instrument,
  maxPosition: number,
): Room {
  const tickMoney = ticksToMoney(instrument, 1);
  const indexMoney = indexPrice(state, instrument) ?? 0n;
  if (tickMoney <= 0n || indexMoney <= 0n) return { buy: 0, sell: 0 };
  const limit = limitLots(instrument, Number(indexMoney / tickMoney), maxPosition);
  const net = netLots(state, uid, instrument);
  return { buy: limit - net, sell: limit + net };
}

/** The ladder with each side trimmed to its room, best level first. */
export function capToRoom(instrument: Instrument, quotes: Quote[], room: Room): Quote[] {
  return capSide(instrument, capSide(instrument, quotes, 'buy', room.buy), 'sell', room.sell);
}

function reserveOf(instrument: Instrument, quotes: Quote[], leverage: number): bigint {
  let total = 0n;
  for (const quote of quotes) {
    total += openReserve(instrument, marginValue(instrument, quote.priceTicks, quote.lots), leverage);
  }
  return total;
}

/** Value at the mark of every position the house holds in a wallet's margin coin. */
function positionsValue(state: EngineState, books: Books, uid: string, wallet: string, coin: string): bigint {
  let total = 0n;
  for (const position of walletPositions(state, uid, wallet, coin)) {
    total += positionRisk(state, books, position)?.markValue ?? 0n;
  }
  return total;
}

/**
 * The deposit that keeps cross free margin at least what `places` reserve plus the value of
 * the wallet's positions (the cover that keeps liquidation out of reach), or null. It adds
 * four times the reserve of `ladder` (the full, untrimmed ladder) so top-ups are rare. Run
 * every round (with no places too), so losses on open positions are covered as they come.
 */
export function futuresNeed(
  state: EngineState,
  books: Books,
  uid: string,
  instrument: Instrument,
  places: Quote[],
  ladder: Quote[],
): FundingNeed | null {
  const wallet = futuresWalletOf(instrument.category);
  const coin = instrument.marginCoins[0] ?? instrument.quoteCoin;
  const leverage = settingsOf(state, uid, instrument).crossLeverage;
  const required = reserveOf(instrument, places, leverage) + positionsValue(state, books, uid, wallet, coin);
  const free = crossState(state, books, uid, wallet, coin).free;
  if (free >= required) return null;
  return { wallet, coin, amount: required + reserveOf(instrument, ladder, leverage) * 4n - free };
}
