/**
 * Shared steps of the transfer, sub-account and broker route tests: a server, the operator,
 * accounts with keys (bound to 127.0.0.1 when asked), and reading `data` or the error code of
 * an answer.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from '../../support/server.ts';
import { SigningClient, type ApiCredentials } from '../../support/signing.ts';

export type Rows = Record<string, string>[];

interface Answer {
  status: number;
  text: string;
  body: { code: string; msg: string; data: unknown } | null;
}

export function data<T>(response: Answer): T {
  assert.equal(response.body?.code, '00000', response.text);
  return response.body.data as T;
}

/** The wire code and message of a refused request (asserting it was refused). */
export function refusal(response: Answer): [code: string, msg: string] {
  assert.notEqual(response.body?.code, '00000', response.text);
  assert.ok(response.status >= 400, response.text);
  return [response.body?.code ?? '', response.body?.msg ?? ''];
}

export interface Harness {
  server: TestServer;
  operator: OperatorClient;
}

export async function harness(t: TestContext, env: Record<string, string> = {}): Promise<Harness> {
  const server = await serverFor(t, { env: { BOURSE_SEED_DEMO: 'false', ...env } });
  return { server, operator: new OperatorClient(server.url, TEST_OPERATOR_TOKEN) };
}

export interface Trader {
  uid: string;
  client: SigningClient;
  credentials: ApiCredentials;
}

export async function mainAccount(
  { server, operator }: Harness,
  options: { ipList?: string[]; permissions?: string[]; funds?: [string, string, string][] } = {},
): Promise<Trader> {
  const { uid } = await operator.createAccount();
  for (const [wallet, coin, amount] of options.funds ?? []) {
    await operator.deposit(uid, { coin, amount, wallet });
  }
  const key = await operator.createApiKey(uid, {
    ipList: options.ipList ?? ['127.0.0.1'],
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  return { uid, client: new SigningClient(server.url, key), credentials: key };
}

/** An operator call that must succeed; returns `data`. */
export async function admin<T = unknown>(
  operator: OperatorClient,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  return data<T>(await operator.call(method, path, body));
}

/** Wallet → coin → available, as the operator sees an account. */
export async function availableOf(operator: OperatorClient, uid: string): Promise<Record<string, string>> {
  const account = await operator.getAccount(uid);
  const flat: Record<string, string> = {};
  for (const [wallet, coins] of Object.entries(account.wallets)) {
    for (const [coin, balance] of Object.entries(coins)) flat[`${wallet}:${coin}`] = balance.available;
  }
  return flat;
}
