/**
 * Oversized request fields are refused at the edge, before a command exists: nothing is
 * journaled for them, and a huge number is never parsed. Each field has a length bound (the
 * venue's where it has one: clientOid ≤ 50 characters, 40304), numbers at most 40 characters.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_DECIMAL_TEXT_LENGTH } from '../../src/domain/decimal.ts';
import { MAX_FIELD_LENGTH } from '../../src/api/field-limits.ts';
import { optionalDecimal, optionalString, optionalStringList } from '../../src/api/params.ts';
import { Rejected } from '../../src/api/request.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

let server: TestServer;
let client: SigningClient;

before(async () => {
  server = await startTestServer();
  const { apiKey, secretKey, passphrase } = server.credentials;
  client = new SigningClient(server.url, { apiKey, secretKey, passphrase });
});

after(() => server.close());

function rejection(read: () => unknown): { code: string; params: readonly string[] } | null {
  try {
    read();
    return null;
  } catch (error) {
    if (!(error instanceof Rejected)) throw error;
    return { code: error.failure.code, params: error.failure.params ?? [] };
  }
}

const SPOT_ORDER = '/api/v2/spot/trade/place-order';
const order = (fields: Record<string, string>) => ({
  symbol: 'BTCUSDT',
  side: 'buy',
  orderType: 'limit',
  force: 'gtc',
  price: '100',
  size: '0.001',
  ...fields,
});

test('optionalString when a field is longer than its bound is refused naming the field', () => {
  const long = 'A'.repeat(MAX_FIELD_LENGTH + 1);
  assert.deepEqual(
    rejection(() => optionalString({ symbol: long }, 'symbol')),
    { code: 'PARAM_ERROR', params: ['symbol'] },
  );
  assert.equal(optionalString({ symbol: 'A'.repeat(MAX_FIELD_LENGTH) }, 'symbol')?.length, MAX_FIELD_LENGTH);
  assert.deepEqual(
    rejection(() => optionalString({ clientOid: 'x'.repeat(51) }, 'clientOid')),
    { code: 'CLIENT_OID_TOO_LONG', params: ['clientOid'] },
  );
  assert.deepEqual(
    rejection(() => optionalString({ newClientOid: 'x'.repeat(51) }, 'newClientOid')),
    { code: 'CLIENT_OID_TOO_LONG', params: ['newClientOid'] },
  );
  assert.deepEqual(
    rejection(() => optionalStringList({ ipList: ['1.2.3.4', 'x'.repeat(100_000)] }, 'ipList', 30)),
    { code: 'PARAM_ERROR', params: ['ipList'] },
  );
});

test('optionalDecimal when the number is longer than any amount can be is refused', () => {
  assert.deepEqual(
    rejection(() => optionalDecimal({ size: '1'.repeat(MAX_DECIMAL_TEXT_LENGTH + 1) }, 'size')),
    { code: 'PARAM_ERROR', params: ['size'] },
  );
});

test('place-order when the symbol is 1 MB is refused with 40020 and journals nothing', async () => {
  const seqBefore = server.services.sequencer.lastSeq;
  for (let index = 0; index < 20; index += 1) {
    const response = await client.post(SPOT_ORDER, { body: order({ symbol: 'S'.repeat(1_000_000 - 200) }) });
    assert.equal(response.body?.code, '40020', response.text.slice(0, 200));
    assert.equal(response.body?.msg, 'Parameter symbol error');
  }
  assert.equal(server.services.sequencer.lastSeq, seqBefore, 'no rejected command was journaled');
});

test('place-order when the size or the clientOid is oversized is refused before a command exists', async () => {
  const seqBefore = server.services.sequencer.lastSeq;
  const size = await client.post(SPOT_ORDER, { body: order({ size: '1'.repeat(900_000) }) });
  assert.deepEqual([size.body?.code, size.body?.msg], ['40020', 'Parameter size error']);
  const clientOid = await client.post(SPOT_ORDER, { body: order({ clientOid: 'c'.repeat(51) }) });
  assert.deepEqual(
    [clientOid.body?.code, clientOid.body?.msg],
    ['40304', 'clientOid or clientOrderId length cannot greater than 50'],
  );
  const v3 = await client.post('/api/v3/trade/place-order', {
    body: {
      category: 'SPOT',
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      qty: '0.001',
      price: '100',
      clientOid: 'c'.repeat(100_000),
    },
  });
  assert.equal(v3.body?.code, '40304', v3.text.slice(0, 200));
  assert.equal(server.services.sequencer.lastSeq, seqBefore);
});
