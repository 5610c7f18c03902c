/**
 * Operator routes of the market module (docs/operator.md, "Price feeds and the liquidity
 * provider"): the price feeds' streams, paused and resumed; the liquidity provider's settings,
 * read and changed while it runs, and its inventory (balances and positions). Run-time state:
 * a restart or a reset starts again from BOURSE_FEED and BOURSE_LIQUIDITY_*.
 */
import { CATEGORIES, FUTURES_CATEGORIES } from '../domain/category.ts';
import { isDecimalText } from '../domain/decimal.ts';
import { instrumentKey } from '../domain/instrument.ts';
import { asObject, optionalEnum, optionalString, type Fields } from '../api/params.ts';
import { reject, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { positionsOf } from '../api/routes/futures-service.ts';
import { v3Position } from '../api/wire/futures.ts';
import { LIQUIDITY_NUMBERS, liquidityProblem, type LiquidityNumber } from '../market/liquidity-config.ts';
import type { LiquidityChanges, LiquiditySettings, MarketControl } from '../ports/market-control.ts';
import { balanceRows } from './views.ts';

const SWITCH = ['true', 'false', 'on', 'off'] as const;

/** Settings as the API shows them: numbers as decimal strings, like every figure. */
function settingsView(settings: LiquiditySettings, uid: string | null) {
  return {
    enabled: settings.enabled,
    uid,
    markets: settings.markets,
    levels: String(settings.levels),
    spread: String(settings.spread),
    step: String(settings.step),
    notional: String(settings.notional),
    intervalMs: String(settings.intervalMs),
    maxPosition: String(settings.maxPosition),
    leverage: String(settings.leverage),
  };
}

/** `enabled` as true/false (JSON) or "on"/"off"/"true"/"false". */
function switchOf(body: Fields): boolean | undefined {
  if (typeof body.enabled === 'boolean') return body.enabled;
  const text = optionalEnum(body, 'enabled', SWITCH);
  return text === undefined ? undefined : text === 'true' || text === 'on';
}

/** The changes asked for; every field is known and a decimal, or the whole request is refused. */
function changesOf(body: Fields, current: LiquiditySettings): LiquidityChanges {
  const changes: LiquidityChanges = {};
  for (const name of Object.keys(body)) {
    if (name !== 'enabled' && !Object.hasOwn(LIQUIDITY_NUMBERS, name)) reject('PARAM_ERROR', name);
  }
  const enabled = switchOf(body);
  if (enabled !== undefined) changes.enabled = enabled;
  for (const name of Object.keys(LIQUIDITY_NUMBERS) as LiquidityNumber[]) {
    const text = optionalString(body, name);
    if (text === undefined) continue;
    if (!isDecimalText(text)) reject('PARAM_ERROR', name);
    changes[name] = Number(text);
  }
  const problem = liquidityProblem({ ...current, ...changes });
  if (problem) reject('PARAM_ERROR', problem);
  return changes;
}

export function marketRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({
    method,
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });
  // Absent only while the server starts or a reset restarts the market.
  const market = (): MarketControl => services.market ?? reject('SERVICE_RESETTING');

  return [
    route('GET', '/admin/v1/feeds', () => market().feedStreams()),
    route('PUT', '/admin/v1/feeds', (request) => {
      // One stream by id, every one (`*`), or the stream that drives one instrument.
      const body = asObject(request.body);
      for (const name of Object.keys(body)) {
        if (!['feed', 'category', 'symbol', 'paused'].includes(name)) reject('PARAM_ERROR', name);
      }
      if (typeof body.paused !== 'boolean')
        reject(body.paused === undefined ? 'PARAM_EMPTY' : 'PARAM_ERROR', 'paused');
      const streams = market().feedStreams();
      const feed = optionalString(body, 'feed')?.toUpperCase();
      const category = optionalEnum(body, 'category', CATEGORIES);
      const symbol = optionalString(body, 'symbol')?.toUpperCase();
      if ((feed === undefined) === (category === undefined && symbol === undefined))
        reject('PARAM_ERROR', 'feed');
      let chosen: string[];
      if (feed !== undefined) {
        chosen =
          feed === '*'
            ? streams.map((stream) => stream.feed)
            : streams.filter((s) => s.feed === feed).map((s) => s.feed);
        if (chosen.length === 0 && feed !== '*') reject('PARAM_ERROR', 'feed');
      } else {
        if (!category) reject('PARAM_EMPTY', 'category');
        if (!symbol) reject('PARAM_EMPTY', 'symbol');
        const key = instrumentKey(category, symbol);
        chosen = streams.filter((stream) => stream.instruments.includes(key)).map((stream) => stream.feed);
        if (chosen.length === 0) reject('PARAM_ERROR', 'symbol');
      }
      market().setFeedsPaused(chosen, body.paused);
      return market().feedStreams();
    }),
    route('GET', '/admin/v1/liquidity', () =>
      settingsView(market().liquiditySettings(), market().liquidityUid()),
    ),
    route('PATCH', '/admin/v1/liquidity', async (request) => {
      const changes = changesOf(asObject(request.body), market().liquiditySettings());
      const settings = await market().changeLiquidity(changes);
      return settingsView(settings, market().liquidityUid());
    }),
    route('GET', '/admin/v1/liquidity/inventory', () => {
      const uid = market().liquidityUid();
      if (uid === null || !state().accounts.has(uid)) return { uid, balances: [], positions: [] };
      return {
        uid,
        balances: balanceRows(state(), uid),
        positions: FUTURES_CATEGORIES.flatMap((category) =>
          positionsOf(services, uid, category).map((report) => v3Position(state(), report)),
        ),
      };
    }),
  ];
}
