/**
 * Authentication as the venue does it (wire.md §1): each failure answers with the venue's
 * code, msg and HTTP 400, in the venue's order; header names in any case; both clients'
 * query signing styles.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FUTURES_READ_ECHO, SPOT_WRITE_ECHO, startExtraApp, type ExtraApp } from '../support/app.ts';
import type { ApiResponse } from '../support/http.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient, type ApiCredentials } from '../support/signing.ts';

const INFO = '/api/v2/spot/account/info';

let server: TestServer;
let extra: ExtraApp;
let demo: ApiCredentials;
let client: SigningClient;

before(async () => {
  server = await startTestServer();
  extra = await startExtraApp(server, [SPOT_WRITE_ECHO, FUTURES_READ_ECHO]);
  const { apiKey, secretKey, passphrase } = server.credentials;
  demo = { apiKey, secretKey, passphrase };
  client = new SigningClient(server.url, demo);
});

after(async () => {
  await extra.close();
  await server.close();
});

function assertRejected(response: ApiResponse, code: string, msg: string): void {
  assert.equal(response.status, 400, response.text);
  assert.deepEqual(
    { code: response.body?.code, msg: response.body?.msg, data: response.body?.data },
    { code, msg, data: null },
  );
  assert.equal(typeof response.body?.requestTime, 'number');
}

test('signed GET when every header is right answers success', async () => {
  const response = await client.get(INFO);
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body?.code, '00000');
  assert.equal((response.body?.data as { userId: string }).userId, server.credentials.uid);
});

test('authenticate when the ACCESS-KEY header is absent answers 40006', async () => {
  assertRejected(
    await client.get(INFO, { headers: { 'ACCESS-KEY': undefined } }),
    '40006',
    'Invalid ACCESS_KEY',
  );
});

test('authenticate when no auth header at all is sent answers 40006', async () => {
  const response = await client.get(INFO, {
    headers: {
      'ACCESS-KEY': undefined,
      'ACCESS-SIGN': undefined,
      'ACCESS-TIMESTAMP': undefined,
      'ACCESS-PASSPHRASE': undefined,
    },
  });
  assertRejected(response, '40006', 'Invalid ACCESS_KEY');
});

test('authenticate when ACCESS-KEY is empty answers 40001', async () => {
  assertRejected(
    await client.get(INFO, { headers: { 'ACCESS-KEY': '' } }),
    '40001',
    'ACCESS_KEY cannot be empty',
  );
});

test('authenticate when ACCESS-SIGN is absent or empty answers 40002', async () => {
  const expected = ['40002', 'ACCESS_SIGN cannot be empty'] as const;
  assertRejected(await client.get(INFO, { headers: { 'ACCESS-SIGN': undefined } }), ...expected);
  assertRejected(await client.get(INFO, { signature: '' }), ...expected);
});

test('authenticate when ACCESS-PASSPHRASE is absent or empty answers 40011', async () => {
  const expected = ['40011', 'ACCESS_PASSPHRASE cannot be empty'] as const;
  assertRejected(await client.get(INFO, { headers: { 'ACCESS-PASSPHRASE': undefined } }), ...expected);
  assertRejected(await client.get(INFO, { headers: { 'ACCESS-PASSPHRASE': '' } }), ...expected);
});

test('authenticate when ACCESS-TIMESTAMP is not an integer answers 40005', async () => {
  for (const timestamp of ['', 'abc', '1.5e12', `${Date.now()}.0`, '-1000', '0x1F', '12345678901234567']) {
    assertRejected(await client.get(INFO, { timestamp }), '40005', 'Invalid ACCESS_TIMESTAMP');
  }
  assertRejected(
    await client.get(INFO, { headers: { 'ACCESS-TIMESTAMP': undefined } }),
    '40005',
    'Invalid ACCESS_TIMESTAMP',
  );
});

test('authenticate when ACCESS-TIMESTAMP is more than 30 s off answers 40008', async () => {
  for (const offsetMs of [-31_000, 31_000, -3_600_000, 86_400_000]) {
    const response = await client.get(INFO, { timestamp: Date.now() + offsetMs });
    assertRejected(response, '40008', 'Request timestamp expired');
  }
  const epoch = await client.get(INFO, { timestamp: '0' });
  assertRejected(epoch, '40008', 'Request timestamp expired');
});

test('authenticate when ACCESS-TIMESTAMP is within 30 s either way answers success', async () => {
  for (const offsetMs of [-25_000, 25_000]) {
    const response = await client.get(INFO, { timestamp: Date.now() + offsetMs });
    assert.equal(response.body?.code, '00000', response.text);
  }
});

test('authenticate when the key is unknown answers 40006', async () => {
  const stranger = new SigningClient(server.url, { ...demo, apiKey: 'bg_0000000000000000000000000000dead' });
  assertRejected(await stranger.get(INFO), '40006', 'Invalid ACCESS_KEY');
});

test('authenticate when the passphrase is wrong answers 40012', async () => {
  const wrong = new SigningClient(server.url, { ...demo, passphrase: `${demo.passphrase}x` });
  assertRejected(await wrong.get(INFO), '40012', 'apikey/password is incorrect');
});

test('authenticate when the client IP is not whitelisted answers 40018', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator, { ipList: ['10.9.8.7'] });
  const listed = new SigningClient(server.url, key);
  assertRejected(await listed.get(INFO), '40018', 'Invalid IP');
});

test('authenticate when the client IP is whitelisted answers success', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator, { ipList: ['10.9.8.7', '127.0.0.1'] });
  const response = await new SigningClient(server.url, key).get(INFO);
  assert.equal(response.body?.code, '00000', response.text);
});

test('authenticate when X-Forwarded-For names a whitelisted IP but proxies are not trusted answers 40018', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator, { ipList: ['10.9.8.7'] });
  const response = await new SigningClient(server.url, key).get(INFO, {
    headers: { 'X-Forwarded-For': '10.9.8.7' },
  });
  assertRejected(response, '40018', 'Invalid IP');
});

test('authenticate when X-Forwarded-For names a whitelisted IP and proxies are trusted answers success', async () => {
  const trusting = await startExtraApp(server, [], { trustProxy: true });
  try {
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    const { key } = await accountWithKey(operator, { ipList: ['10.9.8.7'] });
    const response = await new SigningClient(trusting.url, key).get(INFO, {
      headers: { 'X-Forwarded-For': '10.9.8.7, 192.168.0.1' },
    });
    assert.equal(response.body?.code, '00000', response.text);
  } finally {
    await trusting.close();
  }
});

test('authenticate when the signature is made with another secret answers 40009', async () => {
  const response = await client.get(INFO, { secret: 'not-the-secret' });
  assertRejected(response, '40009', 'sign signature error');
});

test('authenticate when the signature covers another path, method, timestamp or query answers 40009', async () => {
  const other = client.build('GET', '/api/v2/spot/account/assets');
  assertRejected(await client.get(INFO, { signature: other.signature }), '40009', 'sign signature error');
  const post = client.build('POST', INFO);
  assertRejected(await client.get(INFO, { signature: post.signature }), '40009', 'sign signature error');
  const timestamp = Date.now();
  const earlier = client.build('GET', INFO, { timestamp: timestamp - 1 });
  assertRejected(
    await client.get(INFO, { timestamp, signature: earlier.signature }),
    '40009',
    'sign signature error',
  );
  const withQuery = client.build('GET', INFO, { query: { symbol: 'BTCUSDT' }, timestamp });
  assertRejected(
    await client.get(INFO, { query: { symbol: 'ETHUSDT' }, timestamp, signature: withQuery.signature }),
    '40009',
    'sign signature error',
  );
});

test('authenticate when the signature is not base64 or has the wrong case answers 40009', async () => {
  const good = client.build('GET', INFO);
  for (const signature of ['!!!', good.signature.toLowerCase(), `${good.signature}=`, '\u00e9']) {
    const response = await client.get(INFO, { signature });
    assertRejected(response, '40009', 'sign signature error');
  }
});

test('authenticate when the key lacks the permission answers 40014', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator, { permissions: ['stor'] });
  const readOnly = new SigningClient(extra.url, key);
  const response = await readOnly.post(SPOT_WRITE_ECHO.path, { body: { a: 1 } });
  assertRejected(response, '40014', 'Incorrect permissions, need read and write permissions');
});

test('authenticate when a read-only code covers a read route answers success', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator, { permissions: ['coor'] });
  const response = await new SigningClient(extra.url, key).get(FUTURES_READ_ECHO.path);
  assert.equal(response.body?.code, '00000', response.text);
  const { key: spotOnly } = await accountWithKey(operator, { permissions: ['spot_trade'] });
  const denied = await new SigningClient(extra.url, spotOnly).get(FUTURES_READ_ECHO.path);
  assertRejected(denied, '40014', 'Incorrect permissions, need read permissions');
});

test('authenticate when several checks fail answers the first in the venue order', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator, { permissions: ['stor'], ipList: ['10.0.0.1'] });
  const restricted = new SigningClient(extra.url, key);
  const path = SPOT_WRITE_ECHO.path;
  const stale = Date.now() - 60_000;
  // Each step fixes the check the previous one failed; the next check in order answers.
  const steps: [Parameters<SigningClient['post']>[1], SigningClient, string][] = [
    [
      { headers: { 'ACCESS-KEY': '', 'ACCESS-PASSPHRASE': '' }, signature: '', timestamp: 'x' },
      restricted,
      '40001',
    ],
    [{ headers: { 'ACCESS-PASSPHRASE': '' }, signature: '', timestamp: 'x' }, restricted, '40002'],
    [{ headers: { 'ACCESS-PASSPHRASE': '' }, secret: 'wrong', timestamp: 'x' }, restricted, '40011'],
    [
      { headers: { 'ACCESS-PASSPHRASE': 'wrong-pass' }, secret: 'wrong', timestamp: 'x' },
      restricted,
      '40005',
    ],
    [
      { headers: { 'ACCESS-PASSPHRASE': 'wrong-pass' }, secret: 'wrong', timestamp: stale },
      restricted,
      '40008',
    ],
    [
      { headers: { 'ACCESS-KEY': 'bg_unknown', 'ACCESS-PASSPHRASE': 'wrong-pass' }, secret: 'wrong' },
      restricted,
      '40006',
    ],
    [{ headers: { 'ACCESS-PASSPHRASE': 'wrong-pass' }, secret: 'wrong' }, restricted, '40012'],
    [{ secret: 'wrong' }, restricted, '40018'],
  ];
  for (const [options, signer, code] of steps) {
    const response = await signer.post(path, { body: {}, ...options });
    assert.equal(response.body?.code, code, `expected ${code}: ${response.text}`);
    assert.equal(response.status, 400);
  }
  const { key: local } = await accountWithKey(operator, { permissions: ['stor'] });
  const localClient = new SigningClient(extra.url, local);
  assert.equal((await localClient.post(path, { body: {}, secret: 'wrong' })).body?.code, '40009');
  assert.equal((await localClient.post(path, { body: {} })).body?.code, '40014');
});

test('authenticate when header names are lower, upper or mixed case answers success', async () => {
  for (const headerCase of ['lower', 'upper', 'mixed'] as const) {
    const response = await client.get(INFO, { headerCase });
    assert.equal(response.body?.code, '00000', `${headerCase}: ${response.text}`);
  }
});

test('signed GET when the query is signed bitget-api style (sorted, encoded) answers success', async () => {
  for (const symbol of ['BTCUSDT', '龙虾USDT', '$DEGENUSDT_UMCBL', 'a b+c/d?e=f&g', '100%']) {
    const response = await client.get(INFO, {
      style: 'bitget-api',
      query: { symbol, coin: 'USDT', limit: '5' },
    });
    assert.equal(response.body?.code, '00000', `${symbol}: ${response.text}`);
  }
});

test('signed GET when the query is signed ccxt style (sorted, raw values) answers success', async () => {
  for (const symbol of ['BTCUSDT', '龙虾USDT', '$DEGENUSDT_UMCBL', 'a b/c:d', '100%']) {
    const response = await client.get(INFO, { style: 'ccxt', query: { symbol, coin: 'USDT', limit: '5' } });
    assert.equal(response.body?.code, '00000', `${symbol}: ${response.text}`);
  }
});

test('signed GET when the query is signed in the order sent, unsorted, answers success', async () => {
  const response = await client.get(INFO, { query: 'symbol=BTCUSDT&coin=USDT&limit=5' });
  assert.equal(response.body?.code, '00000', response.text);
});

test('signed GET when the signed query differs from the sent query answers 40009', async () => {
  const timestamp = Date.now();
  const signed = client.build('GET', INFO, { query: 'symbol=BTCUSDT', timestamp });
  const response = await client.get(INFO, {
    query: 'symbol=BTCUSDT&x=1',
    timestamp,
    signature: signed.signature,
  });
  assertRejected(response, '40009', 'sign signature error');
});

test('signed GET when the signature covers a decoded form that reads as other parameters answers 40009', async () => {
  // The server reads one parameter named "coin=USDT&limit=2" from this query, not coin and limit.
  const timestamp = Date.now();
  const signed = client.build('GET', INFO, { query: 'coin=USDT&limit=2', timestamp });
  const response = await client.get(INFO, {
    query: 'coin%3DUSDT%26limit%3D2',
    timestamp,
    signature: signed.signature,
  });
  assertRejected(response, '40009', 'sign signature error');
});

test('signed POST when the raw body bytes are signed answers success', async () => {
  const raw = '{ "symbol" : "BTCUSDT",\n  "size": "0.1" }';
  const response = await new SigningClient(extra.url, demo).post(SPOT_WRITE_ECHO.path, { body: raw });
  assert.equal(response.body?.code, '00000', response.text);
  assert.deepEqual((response.body?.data as { body: unknown }).body, { symbol: 'BTCUSDT', size: '0.1' });
});

test('signed POST when the body was re-serialised after signing answers 40009', async () => {
  const signer = new SigningClient(extra.url, demo);
  const timestamp = Date.now();
  const signed = signer.build('POST', SPOT_WRITE_ECHO.path, { body: '{"a": 1}', timestamp });
  const response = await signer.post(SPOT_WRITE_ECHO.path, {
    body: '{"a":1}',
    timestamp,
    signature: signed.signature,
  });
  assertRejected(response, '40009', 'sign signature error');
});

test('signed POST when the body is empty is signed with an empty string and answers success', async () => {
  const signer = new SigningClient(extra.url, demo);
  const response = await signer.post(SPOT_WRITE_ECHO.path);
  assert.equal(response.body?.code, '00000', response.text);
});

test('signed request when it succeeds logs the uid and no credential', async () => {
  const before = server.logs.length;
  const response = await client.get(INFO, { query: { symbol: 'BTCUSDT' } });
  assert.equal(response.body?.code, '00000');
  const line = server.logs.slice(before).find((text) => text.includes(INFO));
  assert.ok(line, 'a request line was logged');
  const record = JSON.parse(line) as Record<string, unknown>;
  assert.equal(record.uid, server.credentials.uid);
  assert.equal(record.code, '00000');
  assert.equal(record.path, INFO);
  assert.equal(typeof record.latencyMs, 'number');
  for (const secret of [demo.apiKey, demo.secretKey, demo.passphrase, response.signature, 'BTCUSDT']) {
    assert.ok(!line.includes(secret), `log line leaks ${secret}`);
  }
});
