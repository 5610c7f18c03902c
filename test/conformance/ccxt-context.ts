/**
 * The context a ccxt case runs in: its own funded account behind a ccxt.pro `bitget` instance
 * (markets copied from one instance that loaded them, as a bot holding several keys would),
 * the server's operator, and the prices at which to place orders that rest: a few per cent
 * from the last price, inside the venue's price bands.
 */
import assert from 'node:assert/strict';
import type { OperatorClient } from '../support/operator.ts';
import type { TestServer } from '../support/server.ts';
import { ccxtFor, fundedAccount, SPOT, SWAP, type Bitget } from './harness.ts';
import type { AccountKind } from './verdict.ts';

export interface CcxtContext {
  kind: AccountKind;
  exchange: Bitget;
  uid: string;
  operator: OperatorClient;
  /** A price `factor` times the last price of `symbol`, on the tick (0.1 fits both books). */
  at(symbol: string, factor: number): number;
  /** Futures in one-way mode (new accounts are in hedge mode, as on the venue). */
  oneWay(): Promise<void>;
  /** Opens a one-way long of 0.01 BTC on the USDT-M perpetual at market. */
  openLong(): Promise<void>;
}

export interface CcxtSuite {
  server: TestServer;
  operator: OperatorClient;
  kind: AccountKind;
  /** An instance whose markets are loaded; each case copies them. */
  loaded: Bitget;
  lastPrices: Record<string, number>;
  /** Every instance made, closed at the end (WebSocket connections). */
  made: Bitget[];
}

export async function ccxtSuite(
  server: TestServer,
  operator: OperatorClient,
  kind: AccountKind,
): Promise<CcxtSuite> {
  const { key } = await fundedAccount(operator, kind);
  const loaded = ccxtFor(server, key, kind);
  await loaded.loadMarkets();
  const lastPrices: Record<string, number> = {};
  for (const symbol of [SPOT, SWAP]) {
    const last = (await loaded.fetchTicker(symbol)).last;
    assert.ok(last && last > 0, `a last price for ${symbol}`);
    lastPrices[symbol] = last;
  }
  return { server, operator, kind, loaded, lastPrices, made: [loaded] };
}

export async function ccxtContext(suite: CcxtSuite): Promise<CcxtContext> {
  const { uid, key } = await fundedAccount(suite.operator, suite.kind);
  const exchange = ccxtFor(suite.server, key, suite.kind);
  exchange.setMarkets(suite.loaded.markets, suite.loaded.currencies as never);
  suite.made.push(exchange);
  const context: CcxtContext = {
    kind: suite.kind,
    exchange,
    uid,
    operator: suite.operator,
    at(symbol, factor) {
      return Math.round((suite.lastPrices[symbol] ?? 0) * factor * 10) / 10;
    },
    async oneWay() {
      await exchange.setPositionMode(false, SWAP);
    },
    async openLong() {
      await context.oneWay();
      await exchange.createOrder(SWAP, 'market', 'buy', 0.01);
    },
  };
  return context;
}
