/**
 * The envelope and the error paths of the edge: every answer is {code, msg, requestTime,
 * data} with a string code; unknown paths, malformed JSON, wrong types, unknown enum values
 * and oversize bodies get a 4xx envelope with the venue's code, never a 500 or a stack.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Route } from '../../src/api/request.ts';
import { SPOT_WRITE_ECHO, startExtraApp, type ExtraApp } from '../support/app.ts';
import { publicGet, send, sendRaw, type ApiResponse } from '../support/http.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

let server: TestServer;
let extra: ExtraApp;
let operator: OperatorClient;

const UNSERIALISABLE: Route = {
  method: 'GET',
  path: '/api/v2/test/bigint',
  auth: 'public',
  dialect: 'v2',
  handler: () => ({ amount: 1n }),
};

before(async () => {
  server = await startTestServer();
  extra = await startExtraApp(server, [SPOT_WRITE_ECHO, UNSERIALISABLE]);
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(async () => {
  await extra.close();
  await server.close();
});

function assertEnvelope(response: ApiResponse, status: number, code: string, msg?: string): void {
  assert.equal(response.status, status, response.text);
  assert.ok(response.body, `not JSON: ${response.text}`);
  assert.deepEqual(Object.keys(response.body).sort(), ['code', 'data', 'msg', 'requestTime']);
  assert.equal(typeof response.body.code, 'string');
  assert.equal(response.body.code, code, response.text);
  assert.equal(typeof response.body.requestTime, 'number');
  if (msg !== undefined) assert.equal(response.body.msg, msg);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.ok(!/\bat .*\.ts:\d+/.test(response.text), 'no stack trace in a response');
}

test('GET public time when called on v2 and v3 answers the wall time as a string', async () => {
  for (const path of ['/api/v2/public/time', '/api/v3/public/time']) {
    const before = Date.now();
    const response = await publicGet<{ serverTime: string }>(server.url, path);
    assertEnvelope(response, 200, '00000', 'success');
    const serverTime = response.body?.data.serverTime ?? '';
    assert.match(serverTime, /^\d{13}$/);
    assert.ok(Math.abs(Number(serverTime) - before) < 5_000);
    assert.ok(Math.abs((response.body?.requestTime ?? 0) - before) < 5_000);
  }
});

test('request when the path is unknown answers 40404 with HTTP 404', async () => {
  const paths = [
    '/',
    '/api/v2/nope',
    '/api/v3/mix/market/tickers',
    '/admin/v1/nope',
    '/api/v2/public/time/x',
  ];
  for (const path of paths) {
    assertEnvelope(await send(`${server.url}${path}`), 404, '40404', 'Request URL NOT FOUND');
  }
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const response = await send(`${server.url}/api/v2/public/time`, { method });
    assertEnvelope(response, 404, '40404', 'Request URL NOT FOUND');
  }
});

test('request when the path is a decommissioned v1 path answers 30032', async () => {
  const response = await send(`${server.url}/api/spot/v1/public/time`);
  assertEnvelope(response, 400, '30032');
});

test('request when the path has malformed percent-encoding answers 40404 and the server stays up', async () => {
  const response = await send(`${server.url}/admin/v1/accounts/%E0%A4%A`, {
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
  });
  assertEnvelope(response, 404, '40404');
  assertEnvelope(await publicGet(server.url, '/api/v2/public/time'), 200, '00000');
});

test('operator POST when the body is malformed JSON answers 40017', async () => {
  for (const body of ['{"mode":', '{mode: "classic"}', "{'a':1}", '{"a":1}}', '\u0000', 'undefined']) {
    const response = await operator.call('POST', '/admin/v1/accounts', body);
    assertEnvelope(response, 400, '40017', 'Parameter verification failed body is not valid JSON');
  }
});

test('signed POST when the body is malformed JSON answers 40017 after authentication', async () => {
  const { apiKey, secretKey, passphrase } = server.credentials;
  const client = new SigningClient(extra.url, { apiKey, secretKey, passphrase });
  const response = await client.post(SPOT_WRITE_ECHO.path, { body: '{"symbol":' });
  assertEnvelope(response, 400, '40017');
  const unsigned = await client.post(SPOT_WRITE_ECHO.path, { body: '{"symbol":', secret: 'wrong' });
  assertEnvelope(unsigned, 400, '40009');
});

test('operator POST when the body is JSON of the wrong shape answers 40017', async () => {
  for (const body of ['[1]', '"text"', '42', 'null', 'true']) {
    const response = await operator.call('POST', '/admin/v1/accounts', body);
    assertEnvelope(response, 400, '40017');
  }
});

test('operator POST when a field has the wrong type answers 40020 naming it', async () => {
  const { uid } = await operator.createAccount();
  const cases: [string, unknown, string][] = [
    ['/admin/v1/accounts', { label: { a: 1 } }, 'label'],
    ['/admin/v1/accounts', { mode: ['classic'] }, 'mode'],
    [`/admin/v1/accounts/${uid}/deposits`, { coin: 'USDT', amount: true }, 'amount'],
    [`/admin/v1/accounts/${uid}/deposits`, { coin: ['USDT'], amount: '1' }, 'coin'],
    [`/admin/v1/accounts/${uid}/api-keys`, { permissions: 'stow' }, 'permissions'],
    [`/admin/v1/accounts/${uid}/api-keys`, { ipList: [1, 2] }, 'ipList'],
  ];
  for (const [path, body, field] of cases) {
    const response = await operator.call('POST', path, body);
    assertEnvelope(response, 400, '40020', `Parameter ${field} error`);
  }
});

test('operator POST when a required field is missing answers 40019 naming it', async () => {
  const { uid } = await operator.createAccount();
  const response = await operator.call('POST', `/admin/v1/accounts/${uid}/deposits`, { amount: '1' });
  assertEnvelope(response, 400, '40019', 'Parameter coin cannot be empty');
});

test('request when the body is over 1 MiB answers 413 with 40017', async () => {
  const big = `{"label":"${'a'.repeat(1024 * 1024 + 10)}"}`;
  const response = await operator.call('POST', '/admin/v1/accounts', big);
  assertEnvelope(response, 413, '40017', 'Parameter verification failed body too large');
  const signed = new SigningClient(extra.url, server.credentials);
  assertEnvelope(await signed.post(SPOT_WRITE_ECHO.path, { body: big }), 413, '40017');
});

test('operator POST when the Content-Type is not JSON answers 40007', async () => {
  const response = await send(`${server.url}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, 'content-type': 'text/plain' },
    body: '{}',
  });
  assertEnvelope(response, 400, '40007', 'Invalid Content_Type');
});

test('operator request when an enum value is unknown answers 40020', async () => {
  const cases: [string, string, unknown, string][] = [
    ['POST', '/admin/v1/accounts', { mode: 'hybrid' }, 'mode'],
    ['POST', '/admin/v1/accounts', { kind: 'root' }, 'kind'],
    ['PUT', '/admin/v1/prices', { category: 'OPTIONS', symbol: 'BTCUSDT', indexPrice: '1' }, 'category'],
  ];
  for (const [method, path, body, field] of cases) {
    assertEnvelope(await operator.call(method, path, body), 400, '40020', `Parameter ${field} error`);
  }
});

test('GET v3 instruments when the category is unknown or missing answers 40020 or 40019', async () => {
  assertEnvelope(await publicGet(server.url, '/api/v3/market/instruments', 'category=OPTIONS'), 400, '40020');
  assertEnvelope(
    await publicGet(server.url, '/api/v3/market/instruments'),
    400,
    '40019',
    'Parameter category cannot be empty',
  );
  assertEnvelope(
    await publicGet(server.url, '/api/v3/market/instruments', 'category=SPOT&symbol=NOPEUSDT'),
    400,
    '25100',
  );
});

test('GET v3 instruments when the category is in any case answers the same rows', async () => {
  const upper = await publicGet<{ symbol: string }[]>(
    server.url,
    '/api/v3/market/instruments',
    'category=SPOT',
  );
  const lower = await publicGet<{ symbol: string }[]>(
    server.url,
    '/api/v3/market/instruments',
    'category=spot',
  );
  const mixed = await publicGet<{ symbol: string }[]>(
    server.url,
    '/api/v3/market/instruments',
    'category=Spot',
  );
  assertEnvelope(upper, 200, '00000');
  assert.ok((upper.body?.data.length ?? 0) > 0);
  assert.deepEqual(lower.body?.data, upper.body?.data);
  assert.deepEqual(mixed.body?.data, upper.body?.data);
});

test('operator request when enum values are in any case accepts them', async () => {
  const unified = await operator.createAccount({ mode: 'UNIFIED', kind: 'Main' });
  assert.equal((await operator.getAccount(unified.uid)).mode, 'unified');
  const sub = await operator.createAccount({ kind: 'SUB', parentUid: unified.uid, mode: 'Classic' });
  const subView = await operator.getAccount(sub.uid);
  assert.deepEqual([subView.kind, subView.mode, subView.parentUid], ['sub', 'classic', unified.uid]);
  const price = await operator.setPrice({ category: 'usdt-futures', symbol: 'btcusdt', indexPrice: '65000' });
  assert.deepEqual(price, { category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '65000' });
  const receipt = await operator.deposit(sub.uid, {
    coin: 'usdt',
    amount: '5',
    wallet: 'SPOT',
    subType: 'FAST',
  });
  assert.deepEqual([receipt.coin, receipt.wallet], ['USDT', 'spot']);
  const listed = await operator.listInstruments('spot');
  assert.ok(listed.length > 0 && listed.every((row) => row.category === 'SPOT'));
});

test('request when the HTTP request line is malformed answers a JSON envelope', async () => {
  const requests = [
    'GET /api/v2/public/time HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    'GARBAGE\r\n\r\n',
    'GET /a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n',
    `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  ];
  for (const request of requests) {
    const response = await sendRaw(server.url, request);
    assert.ok(
      response.status >= 400 && response.status < 500,
      `${JSON.stringify(request.slice(0, 40))}: ${response.head}`,
    );
    const body = JSON.parse(response.body) as { code: unknown };
    assert.equal(typeof body.code, 'string');
  }
  assertEnvelope(await publicGet(server.url, '/api/v2/public/time'), 200, '00000');
});

test('request when a handler returns a value JSON cannot carry answers 45001 and the server stays up', async () => {
  const response = await send(`${extra.url}${UNSERIALISABLE.path}`);
  assertEnvelope(response, 500, '45001', 'Unknown error');
  assertEnvelope(await send(`${extra.url}/api/v2/public/time`), 200, '00000');
  assert.ok(extra.logs.some((line) => line.includes('response not serialisable')));
});
