/**
 * BOURSE_FEED: where each instrument's index price comes from (docs/market-data.md).
 *
 *   BOURSE_FEED=off                     no feed: prices only from the operator API
 *   BOURSE_FEED=*=sim                   a seeded random walk per base coin (the demo default)
 *   BOURSE_FEED="BTC=sim:volatility=0.8,seed=7;ETHUSDT=replay:file=eth.csv,speed=60;*=operator"
 *
 * Rules are `target=source[:option=value,…]`, separated by `;`. A target is `*`, a base coin
 * (`BTC`), a symbol (`BTCUSDT`, every category listing it) or `CATEGORY:SYMBOL`; the most
 * specific rule wins. Instruments that one rule selects share one price stream (`*` and a
 * base coin: one per base coin), so spot, margin and futures of BTC move together.
 */
import type { Instrument } from '../domain/instrument.ts';

export interface SimSource {
  kind: 'sim';
  /** Annualised volatility (1 = 100 %/year) of the geometric random walk. */
  volatility: number;
  seed: number;
  intervalMs: number;
  /** Start price; else the instrument's current index price. */
  start?: number;
}

export interface ReplaySource {
  kind: 'replay';
  file: string;
  speed: number;
  loop: boolean;
  format?: 'csv' | 'jsonl';
}

export type FeedSource = SimSource | ReplaySource | { kind: 'operator' };

export interface FeedRule {
  target: string;
  source: FeedSource;
}

export const DEFAULT_FEED = '*=sim';

function fail(message: string): never {
  throw new Error(`BOURSE_FEED: ${message}`);
}

function options(text: string): Map<string, string> {
  const map = new Map<string, string>();
  if (!text) return map;
  for (const part of text.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) fail(`option "${part}" must be name=value`);
    map.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return map;
}

function positive(map: Map<string, string>, name: string, fallback: number): number {
  const text = map.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) fail(`${name} must be a positive number, not "${text}"`);
  return value;
}

function source(kind: string, map: Map<string, string>): FeedSource {
  const known = (names: string[]) => {
    for (const name of map.keys()) if (!names.includes(name)) fail(`unknown option "${name}" for ${kind}`);
  };
  if (kind === 'operator' || kind === 'off') {
    known([]);
    return { kind: 'operator' };
  }
  if (kind === 'sim') {
    known(['volatility', 'seed', 'interval', 'start']);
    const seed = Number(map.get('seed') ?? '1');
    if (!Number.isSafeInteger(seed)) fail('seed must be an integer');
    const start = map.get('start');
    return {
      kind: 'sim',
      volatility: positive(map, 'volatility', 1),
      seed,
      intervalMs: Math.max(100, Math.round(positive(map, 'interval', 1000))),
      ...(start !== undefined ? { start: positive(map, 'start', 1) } : {}),
    };
  }
  if (kind === 'replay') {
    known(['file', 'speed', 'loop', 'format']);
    const file = map.get('file');
    if (!file) fail('replay needs file=PATH');
    const format = map.get('format')?.toLowerCase();
    if (format !== undefined && format !== 'csv' && format !== 'jsonl') fail('format must be csv or jsonl');
    const loop = (map.get('loop') ?? 'true').toLowerCase();
    if (!['true', 'false', 'yes', 'no', 'on', 'off'].includes(loop)) fail('loop must be true or false');
    return {
      kind: 'replay',
      file,
      speed: positive(map, 'speed', 1),
      loop: ['true', 'yes', 'on'].includes(loop),
      ...(format ? { format } : {}),
    };
  }
  fail(`unknown source "${kind}" (sim, replay or operator)`);
}

export function parseFeedConfig(text: string | undefined): FeedRule[] {
  const value = (text ?? DEFAULT_FEED).trim();
  if (value === '' || value.toLowerCase() === 'off') return [];
  return value
    .split(/[;\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      if (at <= 0) fail(`rule "${part}" must be target=source`);
      const target = part.slice(0, at).trim().toUpperCase();
      const spec = part.slice(at + 1).trim();
      const colon = spec.indexOf(':');
      const kind = (colon < 0 ? spec : spec.slice(0, colon)).toLowerCase();
      return { target, source: source(kind, options(colon < 0 ? '' : spec.slice(colon + 1))) };
    });
}

/** One price stream: the instruments one rule drives together. */
export interface FeedGroup {
  id: string;
  source: SimSource | ReplaySource;
  instruments: Instrument[];
}

function ruleFor(rules: FeedRule[], instrument: Instrument): [FeedRule, string] | null {
  const exact = rules.find((rule) => rule.target === `${instrument.category}:${instrument.symbol}`);
  if (exact) return [exact, exact.target];
  const bySymbol = rules.find((rule) => rule.target === instrument.symbol);
  if (bySymbol) return [bySymbol, bySymbol.target];
  const byBase = rules.find((rule) => rule.target === instrument.baseCoin);
  if (byBase) return [byBase, byBase.target];
  const any = rules.find((rule) => rule.target === '*');
  return any ? [any, instrument.baseCoin] : null;
}

export function feedGroups(rules: FeedRule[], instruments: Iterable<Instrument>): FeedGroup[] {
  const groups = new Map<string, FeedGroup>();
  for (const instrument of instruments) {
    const found = ruleFor(rules, instrument);
    if (!found || found[0].source.kind === 'operator') continue;
    const [rule, id] = found;
    let group = groups.get(id);
    if (!group) {
      group = { id, source: rule.source as SimSource | ReplaySource, instruments: [] };
      groups.set(id, group);
    }
    group.instruments.push(instrument);
  }
  return [...groups.values()];
}
