/**
 * Hostile and random input on the signature, header, query, body and path paths. For every
 * request: never a 5xx, always the JSON envelope with a string code and no stack trace, no
 * state change unless the answer was a success, and no secret, passphrase or signature in
 * any response body or log line. The PRNG is seeded; a failure names the seed and the case.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { stateHash } from '../../src/engine/state-hash.ts';
import type { EngineState } from '../../src/engine/state.ts';
import { businessHash } from '../support/state.ts';
import { SPOT_WRITE_ECHO, startExtraApp, type ExtraApp } from '../support/app.ts';
import { send, sendRaw, type ApiResponse } from '../support/http.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { ALPHANUMERIC, PRINTABLE, Random } from '../support/random.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient, type ApiCredentials, type SignedRequestOptions } from '../support/signing.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20240601);
const INFO = '/api/v2/spot/account/info';
const SETTINGS = '/api/v3/account/settings';

let server: TestServer;
let extra: ExtraApp;
let demo: ApiCredentials;
let restricted: ApiCredentials;
const secrets = new Set<string>();

before(async () => {
  server = await startTestServer();
  extra = await startExtraApp(server, [SPOT_WRITE_ECHO]);
  demo = server.credentials;
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  restricted = (await accountWithKey(operator, { ipList: ['10.1.1.1'], permissions: ['stor'] })).key;
  for (const credentials of [demo, restricted]) {
    secrets.add(credentials.secretKey);
    secrets.add(credentials.passphrase);
  }
  secrets.add(TEST_OPERATOR_TOKEN);
});

after(async () => {
  await extra.close();
  await server.close();
});

function state(): EngineState {
  return server.services.sequencer.exchange.state;
}

function hashNow(): string {
  return stateHash(state());
}

/** The checks every fuzzed answer must pass. */
function assertSafe(response: ApiResponse, label: string): void {
  assert.ok(response.status < 500, `${label}: status ${response.status} ${response.text.slice(0, 200)}`);
  assert.ok(response.body, `${label}: not JSON: ${response.text.slice(0, 200)}`);
  assert.equal(typeof response.body.code, 'string', `${label}: code`);
  assert.equal(typeof response.body.msg, 'string', `${label}: msg`);
  assert.equal(typeof response.body.requestTime, 'number', `${label}: requestTime`);
  assert.ok(!/\n\s+at |node:internal|\.ts:\d+/.test(response.text), `${label}: stack trace`);
  for (const secret of secrets)
    assert.ok(!response.text.includes(secret), `${label}: response leaks a secret`);
}

function assertLogsClean(): void {
  for (const line of [...server.logs, ...extra.logs]) {
    assert.doesNotThrow(() => JSON.parse(line), `log line is not JSON: ${line.slice(0, 120)}`);
    for (const secret of secrets)
      assert.ok(!line.includes(secret), `log line leaks a secret: ${line.slice(0, 120)}`);
  }
}

/** Sends a request that must be rejected and must change nothing. */
async function rejected(label: string, run: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = hashNow();
  const response = await run();
  assertSafe(response, label);
  assert.notEqual(
    response.body?.code,
    '00000',
    `${label}: expected a rejection, got ${response.text.slice(0, 200)}`,
  );
  assert.equal(hashNow(), before, `${label}: a rejected request changed the state`);
  return response;
}

function mutateSignature(random: Random, signature: string): string {
  switch (random.int(0, 7)) {
    case 0: {
      const index = random.int(0, signature.length - 2);
      const replacement = random.pick([...ALPHANUMERIC.replace(signature[index] ?? '', '')]);
      return signature.slice(0, index) + replacement + signature.slice(index + 1);
    }
    case 1:
      return signature.slice(0, random.int(1, signature.length - 1));
    case 2:
      return signature + random.string(random.int(1, 8), ALPHANUMERIC);
    case 3:
      return Buffer.from(random.string(32, PRINTABLE)).toString('base64');
    case 4:
      return random.string(random.int(1, 300), PRINTABLE).trim() || 'x';
    case 5:
      return Buffer.from(signature, 'base64').toString('hex');
    case 6:
      return 'A'.repeat(random.int(1, 6000));
    default:
      return signature.split('').reverse().join('');
  }
}

test('signed GET when the signature is fuzzed answers 40009 and changes nothing', async () => {
  const random = new Random(SEED);
  const client = new SigningClient(server.url, demo);
  for (let index = 0; index < 120; index += 1) {
    const timestamp = Date.now();
    const query = random.bool() ? { symbol: random.pick(['BTCUSDT', '龙虾USDT', 'a b', '$X']) } : undefined;
    const good = client.build('GET', INFO, { timestamp, ...(query ? { query } : {}) });
    secrets.add(good.signature);
    const signature = mutateSignature(random, good.signature);
    if (signature === good.signature) continue;
    const label = `seed ${SEED} case ${index} signature ${JSON.stringify(signature.slice(0, 60))}`;
    const response = await rejected(label, () =>
      client.get(INFO, { timestamp, signature, ...(query ? { query } : {}) }),
    );
    assert.ok(['40009', '40002'].includes(response.body?.code ?? ''), `${label}: ${response.text}`);
  }
  assertLogsClean();
});

test('signed request when the auth headers are fuzzed is rejected with an auth code and changes nothing', async () => {
  const random = new Random(SEED + 1);
  const authCodes = new Set([
    '40001',
    '40002',
    '40005',
    '40006',
    '40008',
    '40009',
    '40011',
    '40012',
    '40018',
    '40014',
    '40037',
  ]);
  const names = ['ACCESS-KEY', 'ACCESS-SIGN', 'ACCESS-TIMESTAMP', 'ACCESS-PASSPHRASE'];
  const hostileValues = (random: Random): string[] => [
    '',
    random.string(random.int(1, 64), PRINTABLE),
    random.string(random.int(1000, 4000), ALPHANUMERIC),
    Buffer.from(random.unicode(8))
      .toString('latin1')
      .replace(/[^\t\x20-\x7e\x80-\xff]/g, '') || 'x',
    String(Date.now() + random.int(-1e9, 1e9)),
    String(random.int(0, 2 ** 31)),
    '99999999999999999999',
    demo.passphrase,
    demo.apiKey,
    restricted.apiKey,
    "' OR 1=1 --",
    '../../etc/passwd',
    '${jndi:ldap://x}',
  ];
  for (let index = 0; index < 150; index += 1) {
    const credentials = random.bool(0.8) ? demo : restricted;
    const client = new SigningClient(random.bool() ? server.url : extra.url, credentials);
    const path = client.baseUrl === extra.url ? SPOT_WRITE_ECHO.path : random.pick([INFO, SETTINGS]);
    const method = path === SPOT_WRITE_ECHO.path ? 'POST' : 'GET';
    const headers: Record<string, string | undefined> = {};
    const broken = random.int(1, 3);
    for (let count = 0; count < broken; count += 1) {
      const name = random.pick(names);
      const spelled = random.bool() ? name.toLowerCase() : name;
      headers[spelled] = random.bool(0.2) ? undefined : random.pick(hostileValues(random));
    }
    const options: SignedRequestOptions = {
      headers,
      headerCase: random.pick(['upper', 'lower', 'mixed'] as const),
    };
    if (method === 'POST') options.body = { size: '1' };
    const built = client.build(method, path, options);
    secrets.add(built.signature);
    const label = `seed ${SEED + 1} case ${index} ${method} ${path} ${JSON.stringify(headers).slice(0, 160)}`;
    const before = hashNow();
    const response = await send(built.url, built.init).catch((error: unknown) => {
      const cause = error instanceof Error ? String(error.cause ?? error) : String(error);
      throw new Error(
        `${label}: the request failed: ${cause} ${JSON.stringify(built.init.headers).slice(0, 400)}`,
      );
    });
    assertSafe(response, label);
    assert.equal(hashNow(), before, `${label}: the state changed`);
    const code = response.body?.code ?? '';
    if (code === '429') {
      // Wrong passphrases for a known key are limited before their scrypt (auth-failures.ts).
      assert.equal(response.status, 429, label);
    } else if (code !== '00000') {
      assert.ok(authCodes.has(code) || code === '40084', `${label}: unexpected ${response.text}`);
      assert.equal(response.status, 400, label);
    }
  }
  assertLogsClean();
});

function randomQuery(random: Random): string {
  const parts: string[] = [];
  const count = random.int(0, 8);
  const pieces = [
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%FF',
    '+',
    '=',
    '&',
    '==',
    '%2B',
    '%26',
    '?',
    '#',
    '[]',
    '__proto__',
  ];
  for (let index = 0; index < count; index += 1) {
    const key = random.bool(0.3) ? random.pick(pieces) : random.string(random.int(0, 12), ALPHANUMERIC);
    const value = random.bool(0.4)
      ? random.pick(pieces) + random.string(random.int(0, 6), ALPHANUMERIC)
      : random.bool(0.5)
        ? encodeURIComponent(random.unicode(random.int(0, 10)).replace(/[\uD800-\uDFFF]/g, ''))
        : random.string(random.int(0, 40), ALPHANUMERIC);
    parts.push(random.bool(0.1) ? key : `${key}=${value}`);
  }
  if (random.bool(0.05)) parts.push(`long=${'x'.repeat(random.int(1000, 6000))}`);
  return parts.join(random.bool(0.9) ? '&' : '&&');
}

test('public and signed GET when the query is fuzzed never fail with a 5xx and never write', async () => {
  const random = new Random(SEED + 2);
  const client = new SigningClient(server.url, demo);
  const publicPaths = ['/api/v3/market/instruments', '/api/v2/public/time', '/api/v3/public/time'];
  for (let index = 0; index < 150; index += 1) {
    const query = random.bool(0.5)
      ? randomQuery(random)
      : `category=${random.pick(['SPOT', 'spot', 'usdt-futures', 'OPTIONS', '', '%', 'Spot%00'])}&${randomQuery(random)}`;
    const label = `seed ${SEED + 2} case ${index} query ${JSON.stringify(query.slice(0, 120))}`;
    const before = hashNow();
    let response: ApiResponse;
    if (random.bool()) {
      response = await send(`${server.url}${random.pick(publicPaths)}?${query}`);
    } else {
      const signed = await client.get(random.pick([INFO, SETTINGS]), { query });
      secrets.add(signed.signature);
      response = signed;
      if (signed.body?.code !== '00000') {
        assert.ok(['40009', '40084'].includes(signed.body?.code ?? ''), `${label}: ${signed.text}`);
      }
    }
    assertSafe(response, label);
    assert.equal(hashNow(), before, `${label}: a read changed the state`);
  }
  assertLogsClean();
});

function randomBody(random: Random): string {
  // Deep enough to be hostile, shallow enough for the echo route to send it back.
  const depth = random.int(1, 2000);
  const choices: (() => string)[] = [
    () => random.string(random.int(0, 200), PRINTABLE),
    () => random.unicode(random.int(0, 50)),
    () => '['.repeat(depth) + ']'.repeat(depth),
    () => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    () => '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
    () =>
      JSON.stringify({ coin: random.unicode(5), amount: random.string(30, '0123456789.e-+'), wallet: {} }),
    () => JSON.stringify({ mode: random.string(8, ALPHANUMERIC), kind: [1], label: null, parentUid: 1e308 }),
    () => `{"amount":${'9'.repeat(random.int(20, 400))}}`,
    () => '{"a":1,"a":2}',
    () => '\ufeff{}',
    () => JSON.stringify(Array.from({ length: random.int(0, 50) }, () => random.int(0, 9))),
    () => '',
  ];
  return random.pick(choices)();
}

test('signed POST when the body is fuzzed and the signature is wrong answers 40009 and changes nothing', async () => {
  const random = new Random(SEED + 3);
  const client = new SigningClient(extra.url, demo);
  for (let index = 0; index < 80; index += 1) {
    const body = randomBody(random);
    const label = `seed ${SEED + 3} case ${index} body ${JSON.stringify(body.slice(0, 80))}`;
    const response = await rejected(label, () =>
      client.post(SPOT_WRITE_ECHO.path, { body, secret: 'wrong' }),
    );
    assert.equal(response.body?.code, '40009', `${label}: ${response.text}`);
  }
  assertLogsClean();
});

test('signed POST when the body is fuzzed and correctly signed never fails with a 5xx', async () => {
  const random = new Random(SEED + 4);
  const client = new SigningClient(extra.url, demo);
  for (let index = 0; index < 80; index += 1) {
    const body = randomBody(random);
    const label = `seed ${SEED + 4} case ${index} body ${JSON.stringify(body.slice(0, 80))}`;
    const before = hashNow();
    const response = await client.post(SPOT_WRITE_ECHO.path, { body });
    secrets.add(response.signature);
    assertSafe(response, label);
    assert.equal(hashNow(), before, `${label}: the echo route writes nothing`);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  assertLogsClean();
});

test('operator route when the body is fuzzed without the token answers 401 and changes nothing', async () => {
  const random = new Random(SEED + 5);
  const anonymous = new OperatorClient(server.url, random.bool() ? null : 'guess');
  const routes: [string, string][] = [
    ['POST', '/admin/v1/accounts'],
    ['POST', `/admin/v1/accounts/${demo.apiKey ? server.credentials.uid : ''}/deposits`],
    ['POST', `/admin/v1/accounts/${server.credentials.uid}/withdrawals`],
    ['POST', `/admin/v1/accounts/${server.credentials.uid}/api-keys`],
    ['PUT', '/admin/v1/prices'],
    ['POST', '/admin/v1/instruments'],
    ['PATCH', '/admin/v1/instruments'],
  ];
  for (let index = 0; index < 60; index += 1) {
    const [method, path] = random.pick(routes);
    const body = randomBody(random);
    const label = `seed ${SEED + 5} case ${index} ${method} ${path}`;
    const response = await rejected(label, () => anonymous.call(method, path, body));
    assert.equal(response.status, 401, label);
  }
  assertLogsClean();
});

/** The business state: a command the engine rejects still moves its clock (state-change.test.ts). */
function hashWithoutClock(): string {
  return businessHash(state());
}

test('operator route when the body is fuzzed with the token never fails with a 5xx', async () => {
  const random = new Random(SEED + 6);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const uid = server.credentials.uid;
  const routes: [string, string][] = [
    ['POST', `/admin/v1/accounts/${uid}/deposits`],
    ['POST', `/admin/v1/accounts/${uid}/withdrawals`],
    ['POST', `/admin/v1/accounts/${uid}/api-keys`],
    ['PUT', '/admin/v1/prices'],
    ['POST', '/admin/v1/instruments'],
    ['PATCH', '/admin/v1/instruments'],
    ['POST', '/admin/v1/clock/advance'],
  ];
  for (let index = 0; index < 80; index += 1) {
    const [method, path] = random.pick(routes);
    const body = randomBody(random);
    const label = `seed ${SEED + 6} case ${index} ${method} ${path} ${JSON.stringify(body.slice(0, 80))}`;
    const before = hashWithoutClock();
    const response = await operator.call(method, path, body);
    if (path.endsWith('/api-keys') && response.body?.code === '00000') {
      const issued = response.body.data as ApiCredentials;
      secrets.add(issued.secretKey);
      secrets.add(issued.passphrase);
      continue;
    }
    assertSafe(response, label);
    if (response.body?.code !== '00000') {
      assert.equal(hashWithoutClock(), before, `${label}: a rejected request changed the state`);
    }
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  assertLogsClean();
});

test('request when the path is fuzzed answers an envelope and changes nothing', async () => {
  const random = new Random(SEED + 7);
  const prefixes = ['/api/v2/', '/api/v3/', '/admin/v1/', '/admin/v1/accounts/', '/', '//', '/api/spot/v1/'];
  for (let index = 0; index < 100; index += 1) {
    const tail = random.bool(0.5)
      ? random.string(random.int(0, 30), `${ALPHANUMERIC}/-._~%!$'()*+,;=:@`)
      : encodeURIComponent(random.unicode(random.int(1, 10)).replace(/[\uD800-\uDFFF]/g, ''));
    const path = `${random.pick(prefixes)}${tail}${random.bool(0.2) ? '/..%2F..%2Fetc' : ''}`;
    const label = `seed ${SEED + 7} case ${index} path ${JSON.stringify(path)}`;
    const authorization = random.bool() ? `Bearer ${TEST_OPERATOR_TOKEN}` : 'Bearer nope';
    const before = hashWithoutClock();
    const response = await send(`${server.url}${path}`, {
      method: random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
      headers: { authorization, 'content-type': 'application/json' },
    });
    assertSafe(response, label);
    if (response.body?.code !== '00000') assert.equal(hashWithoutClock(), before, label);
  }
  assertLogsClean();
});

test('request when the raw HTTP bytes are fuzzed answers an envelope or closes, and the server stays up', async () => {
  const random = new Random(SEED + 8);
  for (let index = 0; index < 40; index += 1) {
    const kind = random.int(0, 4);
    const request =
      kind === 0
        ? `${random.string(random.int(1, 20), PRINTABLE)}\r\n\r\n`
        : kind === 1
          ? `GET /api/v2/public/time HTTP/1.1\r\nHost: x\r\n${random.string(20, PRINTABLE)}\r\n\r\n`
          : kind === 2
            ? `GET /api/v2/public/${String.fromCharCode(random.int(0, 31))}x HTTP/1.1\r\nHost: x\r\n\r\n`
            : kind === 3
              ? `POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: ${random.int(-5, 5)}x\r\n\r\n{}`
              : `GET /api/v2/public/time HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nzz\r\n`;
    const label = `seed ${SEED + 8} case ${index} ${JSON.stringify(request.slice(0, 60))}`;
    const before = hashNow();
    const response = await sendRaw(server.url, request);
    assert.equal(hashNow(), before, label);
    if (response.status === 0) continue;
    assert.ok(response.status < 500, `${label}: ${response.head}`);
    const body = JSON.parse(response.body) as { code: unknown };
    assert.equal(typeof body.code, 'string', label);
  }
  const alive = await send(`${server.url}/api/v2/public/time`);
  assert.equal(alive.body?.code, '00000');
  assertLogsClean();
});
