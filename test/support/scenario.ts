/** What HTTP scenario tests share: unwrapping a success envelope, and a v2 futures order. */
import assert from 'node:assert/strict';

export type Row = Record<string, unknown>;

/** The `data` of a success envelope; fails the test with the whole answer otherwise. */
export function data<T>(response: { body: { code: string; data: unknown } | null; text: string }): T {
  assert.equal(response.body?.code, '00000', response.text);
  return response.body.data as T;
}

/** A v2 mix limit order on BTCUSDT USDT-M, crossed; `fields` override or add. */
export const mixOrder = (fields: Row) => ({
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginMode: 'crossed',
  marginCoin: 'USDT',
  orderType: 'limit',
  force: 'gtc',
  ...fields,
});
