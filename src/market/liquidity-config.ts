/**
 * BOURSE_LIQUIDITY_*: what the liquidity provider quotes and how (docs/liquidity.md). Every
 * setting is checked here, at start, so a bad one stops the server with a message naming it.
 *
 * Invariant: SPREAD + STEP × (LEVELS − 1) stays under 0.02, the tightest price band of the
 * default catalogue (spot), so no house order is refused for its price.
 */
import { CATEGORIES, parseCategory } from '../domain/category.ts';
import { POSITION_NOTIONAL_LIMIT } from '../engine/futures/place.ts';
import type { LadderSpec } from './ladder.ts';

export interface LiquidityConfig extends LadderSpec {
  enabled: boolean;
  /** `CATEGORY:SYMBOL`, `CATEGORY:*` or `*` entries. */
  markets: string[];
  intervalMs: number;
  /** Largest futures position per contract, quote value (USD for coin-margined contracts). */
  maxPosition: number;
  /** Cross leverage of the house's futures positions (capped to each contract's range). */
  leverage: number;
}

/** Every listed instrument: spot, margin and every futures product type. */
export const DEFAULT_LIQUIDITY_MARKETS = '*';

const integer = (low: number, high: number) => (value: number) =>
  Number.isInteger(value) && value >= low && value <= high;

/** Each numeric setting: its variable, its default and its range (also for run-time changes). */
export const LIQUIDITY_NUMBERS = {
  levels: ['BOURSE_LIQUIDITY_LEVELS', 10, integer(1, 50)],
  spread: ['BOURSE_LIQUIDITY_SPREAD', 0.0005, (value) => value >= 0 && value < 0.1],
  step: ['BOURSE_LIQUIDITY_STEP', 0.0005, (value) => value > 0 && value < 0.1],
  notional: ['BOURSE_LIQUIDITY_NOTIONAL', 5000, (value) => value > 0 && value <= 1e9],
  intervalMs: ['BOURSE_LIQUIDITY_INTERVAL', 500, (value) => Number.isInteger(value) && value >= 50],
  // Within the engine's per-account position limit, which would refuse the house's orders.
  maxPosition: [
    'BOURSE_LIQUIDITY_MAX_POSITION',
    100_000,
    (value) => value > 0 && value <= POSITION_NOTIONAL_LIMIT,
  ],
  leverage: ['BOURSE_LIQUIDITY_LEVERAGE', 5, integer(1, 125)],
} satisfies Record<string, [string, number, (value: number) => boolean]>;

export type LiquidityNumber = keyof typeof LIQUIDITY_NUMBERS;

/** Keeps every ladder within the tightest price band of the default catalogue (spot). */
function withinBand(config: Pick<LiquidityConfig, 'spread' | 'step' | 'levels'>): boolean {
  return config.spread + config.step * (config.levels - 1) < 0.02;
}

/** The first setting out of its range (`spread` when the ladder would leave the band), or null. */
export function liquidityProblem(config: LiquidityConfig): LiquidityNumber | null {
  for (const [name, [, , check]] of Object.entries(LIQUIDITY_NUMBERS)) {
    if (!check(config[name as LiquidityNumber])) return name as LiquidityNumber;
  }
  return withinBand(config) ? null : 'spread';
}

function number(env: NodeJS.ProcessEnv, name: LiquidityNumber): number {
  const [variable, fallback, check] = LIQUIDITY_NUMBERS[name];
  const text = env[variable];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || !check(value)) throw new Error(`${variable} is out of range: "${text}"`);
  return value;
}

function parseMarkets(text: string): string[] {
  const markets = text
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .filter((entry) => entry !== '');
  for (const entry of markets) {
    if (entry === '*') continue;
    const [category = '', symbol] = entry.split(':');
    if (!parseCategory(category, CATEGORIES) || !symbol) {
      throw new Error(`BOURSE_LIQUIDITY_MARKETS: "${entry}" must be CATEGORY:SYMBOL, CATEGORY:* or *`);
    }
  }
  return markets;
}

/** Whether a `markets` list selects the instrument. */
export function marketSelected(markets: string[], category: string, symbol: string): boolean {
  return markets.some((entry) => {
    if (entry === '*') return true;
    const [entryCategory, entrySymbol] = entry.split(':');
    return entryCategory === category && (entrySymbol === '*' || entrySymbol === symbol);
  });
}

export function parseLiquidityConfig(env: NodeJS.ProcessEnv): LiquidityConfig {
  const flag = (env.BOURSE_LIQUIDITY ?? 'on').toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'].includes(flag)) {
    throw new Error('BOURSE_LIQUIDITY must be on or off');
  }
  const config: LiquidityConfig = {
    enabled: ['on', 'true', '1', 'yes'].includes(flag),
    markets: parseMarkets(env.BOURSE_LIQUIDITY_MARKETS || DEFAULT_LIQUIDITY_MARKETS),
    levels: number(env, 'levels'),
    spread: number(env, 'spread'),
    step: number(env, 'step'),
    notional: number(env, 'notional'),
    intervalMs: number(env, 'intervalMs'),
    maxPosition: number(env, 'maxPosition'),
    leverage: number(env, 'leverage'),
  };
  if (!withinBand(config)) {
    throw new Error(
      'BOURSE_LIQUIDITY_SPREAD + STEP × (LEVELS − 1) must stay under 0.02, the spot price band',
    );
  }
  return config;
}
