/**
 * The context an SDK case runs in: the `bitget-api` SDK's RestClientV2 on a classic account or
 * RestClientV3 on a unified one, each case on a fresh funded account (harness.ts), with the
 * prices at which orders rest (3 % from the last price) or cross the house's quotes.
 */
import assert from 'node:assert/strict';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import { publicGet } from '../support/http.ts';
import type { OperatorClient } from '../support/operator.ts';
import type { TestServer } from '../support/server.ts';
import { fundedAccount, type Account } from './harness.ts';
import type { AccountKind } from './verdict.ts';

export const SYMBOL = 'BTCUSDT';
export const USDT_M = 'USDT-FUTURES';
/** Futures order fields every v2 case sends. */
export const FUTURES = {
  symbol: SYMBOL,
  productType: USDT_M,
  marginMode: 'crossed',
  marginCoin: 'USDT',
} as const;

export interface SdkSuite {
  server: TestServer;
  operator: OperatorClient;
  /** Last prices of BTCUSDT spot and USDT-M, read once. */
  last: { spot: number; futures: number };
}

interface SdkContextBase {
  uid: string;
  account: Account;
  operator: OperatorClient;
  suite: SdkSuite;
  /** A price string `factor` times the last price, on the tick (0.1 fits both books). */
  spotAt(factor: number): string;
  futuresAt(factor: number): string;
}

export interface V2Context extends SdkContextBase {
  client: RestClientV2;
}

export interface V3Context extends SdkContextBase {
  client: RestClientV3;
}

async function lastPrice(server: TestServer, path: string, query: string): Promise<number> {
  const response = await publicGet<{ lastPr: string }[]>(server.url, path, query);
  const last = Number(response.body?.data[0]?.lastPr);
  assert.ok(last > 0, `a last price from ${path}`);
  return last;
}

export async function sdkSuite(server: TestServer, operator: OperatorClient): Promise<SdkSuite> {
  return {
    server,
    operator,
    last: {
      spot: await lastPrice(server, '/api/v2/spot/market/tickers', `symbol=${SYMBOL}`),
      futures: await lastPrice(server, '/api/v2/mix/market/ticker', `symbol=${SYMBOL}&productType=${USDT_M}`),
    },
  };
}

async function base(suite: SdkSuite, kind: AccountKind) {
  const account = await fundedAccount(suite.operator, kind);
  const at = (last: number) => (factor: number) => String(Math.round(last * factor * 10) / 10);
  const credentials = {
    apiKey: account.key.apiKey,
    apiSecret: account.key.secretKey,
    apiPass: account.key.passphrase,
    baseUrl: suite.server.url,
  };
  return {
    credentials,
    context: {
      uid: account.uid,
      account,
      operator: suite.operator,
      suite,
      spotAt: at(suite.last.spot),
      futuresAt: at(suite.last.futures),
    },
  };
}

export async function v2Context(suite: SdkSuite): Promise<V2Context> {
  const { credentials, context } = await base(suite, 'classic');
  return { ...context, client: new RestClientV2(credentials) };
}

export async function v3Context(suite: SdkSuite): Promise<V3Context> {
  const { credentials, context } = await base(suite, 'unified');
  return { ...context, client: new RestClientV3(credentials) };
}

/** The `data` of an answer, after checking the envelope says success. */
export function dataOf<T>(response: { code: string; msg: string; data: T }): T {
  assert.equal(response.code, '00000');
  assert.match(response.msg, /success/);
  return response.data;
}

/** `data` is a list; when `field` is given, its first row (if any) has it. */
export function isList(data: unknown, field?: string): unknown[] {
  assert.ok(Array.isArray(data), `a list: ${JSON.stringify(data)?.slice(0, 200)}`);
  if (field && data.length > 0) assert.ok(field in (data[0] as object), `rows have ${field}`);
  return data;
}

/** `data` is an object holding every one of `fields`. */
export function hasFields(data: unknown, ...fields: string[]): Record<string, unknown> {
  assert.ok(data && typeof data === 'object', `an object: ${JSON.stringify(data)?.slice(0, 200)}`);
  for (const field of fields) assert.ok(field in data, `has ${field}: ${JSON.stringify(data).slice(0, 300)}`);
  return data as Record<string, unknown>;
}
