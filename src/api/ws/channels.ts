/**
 * Subscription arguments → channels. v2 writes {instType, channel, instId | coin}; v3 writes
 * {instType, topic, symbol, interval}. A channel has a canonical key (connections subscribed to
 * the same key share one serialised message) and a canonical `arg` that its pushes carry:
 * v2 instType upper case ("USDT-FUTURES"), v3 lower case ("usdt-futures") or "UTA".
 */
import { FUTURES_CATEGORIES, parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import type { PermissionArea } from '../../domain/account.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import type { EngineState } from '../../engine/state.ts';
import { parseGranularity, type Granularity } from '../../market/granularity.ts';
import { WS_CODES, wsError, type WsError } from './codes.ts';
import { nameTable } from '../../domain/name-table.ts';

export type Dialect = 'v2' | 'v3';

export type ChannelKind =
  | 'ticker'
  | 'books'
  | 'trade'
  | 'candle'
  | 'account'
  | 'positions'
  | 'orders'
  | 'orders-algo'
  | 'fill'
  | 'positions-history';

export interface Channel {
  dialect: Dialect;
  kind: ChannelKind;
  /** The wire name: "books5", "candle1m", "publicTrade", "order", … */
  name: string;
  private: boolean;
  /** null: every category (v3 "UTA" topics). */
  category: Category | null;
  /** '' for every symbol ("default"). For v2 account: the coin ('' = default). */
  symbol: string;
  /** books: 0 for the incremental full book, else the levels of each snapshot. */
  depth: number;
  granularity: Granularity | null;
  /** Read permission(s) a key needs for a private channel (any of them). */
  permissions: PermissionArea[];
  key: string;
  arg: Record<string, string>;
}

const BOOK_DEPTHS: Readonly<Record<string, number>> = nameTable({
  books: 0,
  books1: 1,
  books5: 5,
  books15: 15,
  books50: 50,
});
const V2_CANDLES = new Set(
  '1m 5m 15m 30m 1H 4H 6H 12H 1D 3D 1W 1M 6Hutc 12Hutc 1Dutc 3Dutc 1Wutc 1Mutc'.split(' '),
);
const V3_INTERVALS = new Set('1m 3m 5m 15m 30m 1H 4H 6H 12H 1D'.split(' '));
const V2_PRIVATE = new Set(['account', 'positions', 'orders', 'orders-algo', 'fill', 'positions-history']);
const V3_PRIVATE: Readonly<Record<string, ChannelKind>> = nameTable({
  account: 'account',
  position: 'positions',
  order: 'orders',
  fill: 'fill',
  'strategy-order': 'orders-algo',
});

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

function notFound(arg: Record<string, unknown>, dialect: Dialect): WsError {
  const fields =
    dialect === 'v2'
      ? `instType:${text(arg.instType) ?? ''},channel:${text(arg.channel) ?? ''},instId:${text(arg.instId) ?? text(arg.coin) ?? ''}`
      : `instType:${text(arg.instType) ?? ''},topic:${text(arg.topic) ?? ''},symbol:${text(arg.symbol) ?? ''}`;
  return wsError(WS_CODES.CHANNEL_NOT_FOUND, `${fields} doesn't exist`);
}

function publicKind(dialect: Dialect, name: string, arg: Record<string, unknown>) {
  if (name === 'ticker') return { kind: 'ticker' as const, depth: 0, granularity: null };
  if (Object.hasOwn(BOOK_DEPTHS, name))
    return { kind: 'books' as const, depth: BOOK_DEPTHS[name] ?? 0, granularity: null };
  if (name === (dialect === 'v2' ? 'trade' : 'publicTrade'))
    return { kind: 'trade' as const, depth: 0, granularity: null };
  const interval = dialect === 'v2' ? (name.startsWith('candle') ? name.slice(6) : '') : text(arg.interval);
  const known = dialect === 'v2' ? V2_CANDLES : V3_INTERVALS;
  if ((dialect === 'v2' || name === 'kline') && interval && known.has(interval)) {
    const granularity = parseGranularity(interval);
    if (granularity) return { kind: 'candle' as const, depth: 0, granularity };
  }
  return null;
}

function parsePublic(
  state: EngineState,
  dialect: Dialect,
  name: string,
  arg: Record<string, unknown>,
): Channel | WsError {
  const kind = publicKind(dialect, name, arg);
  const allowed = dialect === 'v2' ? [...FUTURES_CATEGORIES, 'SPOT' as const] : V3_CATEGORIES;
  const category = parseCategory(text(arg.instType) ?? '', allowed);
  const symbol = (text(dialect === 'v2' ? arg.instId : arg.symbol) ?? '').toUpperCase();
  if (!kind || !category || category === 'MARGIN' || !state.instruments.has(instrumentKey(category, symbol)))
    return notFound(arg, dialect);
  const instType = dialect === 'v2' ? category : category.toLowerCase();
  const interval = dialect === 'v3' && kind.kind === 'candle' ? (text(arg.interval) ?? '') : '';
  const canonical: Record<string, string> =
    dialect === 'v2'
      ? { instType, channel: name, instId: symbol }
      : { instType, topic: name, symbol, ...(interval ? { interval } : {}) };
  return {
    dialect,
    ...kind,
    name,
    private: false,
    category,
    symbol,
    permissions: [],
    key: `${dialect}|${name}|${interval}|${category}|${symbol}`,
    arg: canonical,
  };
}

function v2PrivatePermissions(kind: string, futures: boolean): PermissionArea[] {
  if (!futures) return ['spot'];
  return kind === 'positions' || kind === 'positions-history' || kind === 'account'
    ? ['futures_positions', 'futures_orders']
    : ['futures_orders', 'futures_positions'];
}

function parseV2Private(name: string, arg: Record<string, unknown>): Channel | WsError {
  const category = parseCategory(text(arg.instType) ?? '', [...FUTURES_CATEGORIES, 'SPOT']);
  const futures = category !== null && category !== 'SPOT';
  // orders-algo exists for SPOT too (spot plan orders); positions do not.
  const futuresOnly = name === 'positions' || name === 'positions-history';
  if (!category || (futuresOnly && !futures)) return notFound(arg, 'v2');
  const selectorName = name === 'account' ? 'coin' : 'instId';
  const selector = (text(arg[selectorName]) ?? 'default').toUpperCase();
  const symbol = selector === 'DEFAULT' ? '' : selector;
  return {
    dialect: 'v2',
    kind: name as ChannelKind,
    name,
    private: true,
    category,
    symbol,
    depth: 0,
    granularity: null,
    permissions: v2PrivatePermissions(name, futures),
    key: `v2|${name}|${category}|${symbol}`,
    arg: { instType: category, channel: name, [selectorName]: symbol || 'default' },
  };
}

function parseV3Private(name: string, arg: Record<string, unknown>): Channel | WsError {
  const kind = V3_PRIVATE[name];
  if (!kind || (text(arg.instType) ?? '').toUpperCase() !== 'UTA') return notFound(arg, 'v3');
  const permissions: PermissionArea[] =
    kind === 'positions'
      ? ['futures_positions', 'futures_orders']
      : ['spot', 'futures_orders', 'futures_positions'];
  return {
    dialect: 'v3',
    kind,
    name,
    private: true,
    category: null,
    symbol: '',
    depth: 0,
    granularity: null,
    permissions,
    key: `v3|${name}`,
    arg: { instType: 'UTA', topic: name },
  };
}

/** A subscription argument as a channel, or the venue's error for it. */
export function parseChannel(state: EngineState, dialect: Dialect, arg: unknown): Channel | WsError {
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg))
    return wsError(WS_CODES.PARAM_ERROR, 'Param error');
  const fields = arg as Record<string, unknown>;
  const name = text(dialect === 'v2' ? fields.channel : fields.topic);
  if (!name) return wsError(WS_CODES.PARAM_ERROR, `Param error: ${dialect === 'v2' ? 'channel' : 'topic'}`);
  if (dialect === 'v2' && V2_PRIVATE.has(name)) return parseV2Private(name, fields);
  if (dialect === 'v3' && Object.hasOwn(V3_PRIVATE, name)) return parseV3Private(name, fields);
  return parsePublic(state, dialect, name, fields);
}

export function isWsError(value: Channel | WsError): value is WsError {
  return 'code' in value;
}
