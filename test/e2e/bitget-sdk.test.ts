/**
 * The `bitget-api` npm SDK, unmodified, pointed at bourse with `baseUrl`: RestClientV2 and
 * RestClientV3 through server time, instruments, the spot account and the account settings,
 * and 40009 through the SDK when the secret is wrong. The SDK throws
 * `{ code: httpStatus, message, body: envelope }` for a non-200 answer.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

interface SdkError {
  code: number;
  message: string;
  body: { code: string; msg: string; requestTime: number; data: unknown };
}

async function sdkError(call: () => Promise<unknown>): Promise<SdkError> {
  try {
    await call();
  } catch (error) {
    return error as SdkError;
  }
  throw new Error('the SDK call succeeded');
}

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

function v2(secret?: string) {
  const { apiKey, secretKey, passphrase } = server.credentials;
  return new RestClientV2({
    apiKey,
    apiSecret: secret ?? secretKey,
    apiPass: passphrase,
    baseUrl: server.url,
  });
}

test('RestClientV2 getServerTime when pointed at bourse answers the wall time', async () => {
  const response = await v2().getServerTime();
  assert.equal(response.code, '00000');
  assert.ok(Math.abs(Number(response.data.serverTime) - Date.now()) < 5_000);
  // RestClientV2.fetchServerTime reads `Number(res.data)` (an object), so it yields NaN
  // against the venue as well; RestClientV3's reads data.serverTime.
  const v3 = new RestClientV3({ baseUrl: server.url });
  assert.ok(Math.abs((await v3.fetchServerTime()) - Date.now()) < 5_000);
});

test('RestClientV3 getServerTime when pointed at bourse answers the wall time', async () => {
  const client = new RestClientV3({ baseUrl: server.url });
  const response = await client.getServerTime();
  assert.equal(response.code, '00000');
  assert.ok(Math.abs(Number(response.data.serverTime) - Date.now()) < 5_000);
});

test('RestClientV3 getInstruments when asked for spot and futures answers the catalogue', async () => {
  const client = new RestClientV3({ baseUrl: server.url });
  const spot = await client.getInstruments({ category: 'SPOT' });
  assert.equal(spot.code, '00000');
  const symbols = spot.data.map((row) => row.symbol);
  assert.ok(symbols.includes('BTCUSDT'), symbols.join(','));
  assert.ok(spot.data.every((row) => row.category === 'SPOT'));
  const one = await client.getInstruments({ category: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  assert.equal(one.data.length, 1);
  assert.equal(one.data[0]?.symbol, 'BTCUSDT');
  assert.equal(typeof one.data[0]?.maxLeverage, 'string');
});

test('RestClientV2 getSpotAccount when signed with the demo key answers the account information', async () => {
  const response = await v2().getSpotAccount();
  assert.equal(response.code, '00000');
  assert.equal(response.data.userId, server.credentials.uid);
  assert.equal(typeof response.data.parentId, 'number');
  assert.ok(Array.isArray(response.data.authorities));
});

test('RestClientV3 getAccountSettings when the key belongs to a unified account answers its settings', async () => {
  const { uid, key } = await accountWithKey(operator, { mode: 'unified' });
  const client = new RestClientV3({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
  const response = await client.getAccountSettings();
  assert.equal(response.code, '00000');
  const data = response.data as unknown as { uid: string; accountMode: string };
  assert.equal(data.uid, uid);
  assert.equal(data.accountMode, 'unified');
});

test('RestClientV3 getAccountSettings when the account is classic surfaces 40084 through the SDK', async () => {
  const { apiKey, secretKey, passphrase } = server.credentials;
  const client = new RestClientV3({ apiKey, apiSecret: secretKey, apiPass: passphrase, baseUrl: server.url });
  const error = await sdkError(() => client.getAccountSettings());
  assert.equal(error.code, 400);
  assert.equal(error.body.code, '40084');
});

test('RestClientV2 getSpotAccount when the secret is wrong surfaces 40009 through the SDK', async () => {
  const error = await sdkError(() => v2('0'.repeat(64)).getSpotAccount());
  assert.equal(error.code, 400);
  assert.deepEqual(
    { code: error.body.code, msg: error.body.msg, data: error.body.data },
    { code: '40009', msg: 'sign signature error', data: null },
  );
  assert.equal(typeof error.body.requestTime, 'number');
});

test('RestClientV3 getAccountSettings when the secret is wrong surfaces 40009 through the SDK', async () => {
  const { key } = await accountWithKey(operator, { mode: 'unified' });
  const client = new RestClientV3({
    apiKey: key.apiKey,
    apiSecret: `${key.secretKey}x`,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
  const error = await sdkError(() => client.getAccountSettings());
  assert.equal(error.code, 400);
  assert.equal(error.body.code, '40009');
});

test('RestClientV2 getSpotAccount when the passphrase is wrong surfaces 40012 through the SDK', async () => {
  const { apiKey, secretKey } = server.credentials;
  const client = new RestClientV2({
    apiKey,
    apiSecret: secretKey,
    apiPass: 'wrong-pass',
    baseUrl: server.url,
  });
  const error = await sdkError(() => client.getSpotAccount());
  assert.equal(error.body.code, '40012');
});

test('RestClientV2 signed GET when the query needs percent-encoding verifies', async () => {
  // The SDK signs the sorted, percent-encoded query it sends (wire.md §1.3).
  const client = v2() as unknown as {
    getPrivate(endpoint: string, params?: Record<string, string>): Promise<{ code: string }>;
  };
  const response = await client.getPrivate('/api/v2/spot/account/info', {
    symbol: '龙虾USDT',
    note: 'a b&c=d',
  });
  assert.equal(response.code, '00000');
});
