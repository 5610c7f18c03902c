/**
 * What the liquidation scenario tests share: a server with the simulated clock (feed and
 * liquidity provider off, so the book holds only what a test places and, one side quoted, the
 * mark is the index), funded v2 clients, and the v2 mix reads a trader checks.
 */
import assert from 'node:assert/strict';
import { INSURANCE_FUND_UID } from '../../src/domain/account.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from './operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from './server.ts';
import { SigningClient } from './signing.ts';
import { data, mixOrder as order, type Row } from './scenario.ts';

const USDT_M = { productType: 'USDT-FUTURES' };

export async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t, { env: { BOURSE_CLOCK: 'simulated' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (usdt: string) => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
    return { uid, client: new SigningClient(server.url, await operator.createApiKey(uid)) };
  };
  const index = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  return { server, operator, trader, index };
}

export async function place(client: SigningClient, fields: Row) {
  return data<Row>(await client.post('/api/v2/mix/order/place-order', { body: order(fields) }));
}

export async function post(client: SigningClient, path: string, body: Row) {
  return data<Row>(
    await client.post(path, { body: { symbol: 'BTCUSDT', ...USDT_M, marginCoin: 'USDT', ...body } }),
  );
}

export const get = async <T>(client: SigningClient, path: string, key: string) =>
  data<Record<string, T>>(await client.get(path, { query: USDT_M }))[key] as T;

export const history = (client: SigningClient) =>
  get<Row[]>(client, '/api/v2/mix/order/orders-history', 'entrustedList');
export const fills = (client: SigningClient) => get<Row[]>(client, '/api/v2/mix/order/fills', 'fillList');
export const bills = (client: SigningClient) => get<Row[]>(client, '/api/v2/mix/account/bill', 'bills');
export const closed = (client: SigningClient) =>
  get<Row[]>(client, '/api/v2/mix/position/history-position', 'list');
export const positions = async (client: SigningClient) =>
  data<Row[]>(await client.get('/api/v2/mix/position/all-position', { query: USDT_M }));

export async function available(client: SigningClient): Promise<string> {
  const [row] = data<Row[]>(await client.get('/api/v2/mix/account/accounts', { query: USDT_M }));
  return String(row?.available);
}

export function fundUsdt(server: TestServer): bigint {
  const state = server.services.sequencer.exchange.state;
  return state.balances.get(`${INSURANCE_FUND_UID}|usdt_futures|USDT`)?.available ?? 0n;
}

export function conserved(server: TestServer) {
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
}

export const pick = (row: Row | undefined, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, row?.[key]]));
