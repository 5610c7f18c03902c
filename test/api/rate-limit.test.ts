/**
 * Rate limits: over the limit the venue answers HTTP 429 {"code":"429","msg":"Too Many
 * Requests"}; public routes count per IP, signed routes per UID; BOURSE_RATE_LIMITS turns
 * them off, scales them or overrides single paths.
 *
 * Windows are fixed seconds, so a burst may straddle two: the assertions allow for that
 * (at most twice the limit succeeds) instead of waiting for a second boundary.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRateLimitPaths, parseRateLimitConfig } from '../../src/api/rate-limit.ts';
import { rateLimitedPaths } from '../../src/startup/route-paths.ts';
import { loadConfig } from '../../src/config.ts';
import { startExtraApp } from '../support/app.ts';
import { publicGet, send, type ApiResponse } from '../support/http.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

const TIME = '/api/v2/public/time';
const INFO = '/api/v2/spot/account/info';

function count(responses: ApiResponse[]): { ok: number; limited: number } {
  let ok = 0;
  let limited = 0;
  for (const response of responses) {
    if (response.body?.code === '00000') ok += 1;
    else {
      assert.equal(response.status, 429, response.text);
      assert.equal(response.body?.code, '429');
      assert.equal(response.body?.msg, 'Too Many Requests');
      assert.equal(response.body?.data, null);
      assert.equal(typeof response.body?.requestTime, 'number');
      limited += 1;
    }
  }
  return { ok, limited };
}

test('public GET when an IP goes over the configured limit answers 429 with the venue envelope', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: JSON.stringify({ [TIME]: 3 }) } });
  const responses = await Promise.all(Array.from({ length: 20 }, () => publicGet(server.url, TIME)));
  const { ok, limited } = count(responses);
  assert.ok(ok >= 3 && ok <= 6, `${ok} allowed`);
  assert.equal(ok + limited, 20);
});

test('public GET when one IP is over the limit still answers another IP', async (t) => {
  const server = await serverFor(t);
  const rateLimits = parseRateLimitConfig(JSON.stringify({ [TIME]: 2 }));
  const edge = await startExtraApp(server, [], { trustProxy: true, rateLimits });
  t.after(() => edge.close());
  const from = (ip: string) => send(`${edge.url}${TIME}`, { headers: { 'x-forwarded-for': ip } });
  const first = count(await Promise.all(Array.from({ length: 10 }, () => from('10.0.0.1'))));
  assert.ok(first.limited >= 6, `${first.limited} limited`);
  const other = await from('10.0.0.2');
  assert.equal(other.body?.code, '00000', other.text);
});

test('public GET when limits are scaled allows proportionally more', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: 'x0.25' } });
  // /api/v2/public/time allows 20 per second; a quarter is 5.
  const { ok, limited } = count(
    await Promise.all(Array.from({ length: 30 }, () => publicGet(server.url, TIME))),
  );
  assert.ok(ok >= 5 && ok <= 10, `${ok} allowed`);
  assert.ok(limited >= 20);
});

test('public GET when limits are off never answers 429', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: 'off' } });
  const { limited } = count(await Promise.all(Array.from({ length: 60 }, () => publicGet(server.url, TIME))));
  assert.equal(limited, 0);
});

test('signed GET when a UID goes over its limit answers 429 and another UID is still served', async (t) => {
  // The account-information route allows one request per second per UID (spec, Limits).
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: '' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const first = new SigningClient(server.url, (await accountWithKey(operator)).key);
  const second = new SigningClient(server.url, (await accountWithKey(operator)).key);
  const { ok, limited } = count(await Promise.all(Array.from({ length: 6 }, () => first.get(INFO))));
  assert.ok(ok >= 1 && ok <= 2, `${ok} allowed`);
  assert.ok(limited >= 4);
  const other = await second.get(INFO);
  assert.equal(other.body?.code, '00000', other.text);
});

test('signed GET when the UID has two keys counts both against one limit', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: '' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid, key } = await accountWithKey(operator);
  const otherKey = await operator.createApiKey(uid);
  const clients = [new SigningClient(server.url, key), new SigningClient(server.url, otherKey)];
  const responses = await Promise.all(Array.from({ length: 6 }, (_, index) => clients[index % 2]!.get(INFO)));
  const { ok } = count(responses);
  assert.ok(ok <= 2, `${ok} allowed`);
});

test('signed GET when authentication fails is answered with the auth code and not counted', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: '' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const client = new SigningClient(server.url, (await accountWithKey(operator)).key);
  for (let index = 0; index < 5; index += 1) {
    const response = await client.get(INFO, { secret: 'wrong' });
    assert.equal(response.body?.code, '40009', response.text);
  }
  const good = await client.get(INFO);
  assert.equal(good.body?.code, '00000', good.text);
});

test('operator API when called in a burst is not rate limited', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: '' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const responses = await Promise.all(
    Array.from({ length: 40 }, () => operator.call('GET', '/admin/v1/clock')),
  );
  assert.ok(responses.every((response) => response.body?.code === '00000'));
});

test('loadConfig when BOURSE_RATE_LIMITS is off, a factor or path overrides parses it', () => {
  assert.equal(loadConfig({ BOURSE_RATE_LIMITS: 'off' }).rateLimits.enabled, false);
  assert.equal(loadConfig({ BOURSE_RATE_LIMITS: 'x10' }).rateLimits.scale, 10);
  assert.deepEqual(loadConfig({ BOURSE_RATE_LIMITS: '{"/api/v2/public/time":5}' }).rateLimits, {
    enabled: true,
    scale: 1,
    overrides: { '/api/v2/public/time': 5 },
  });
  assert.deepEqual(loadConfig({}).rateLimits, { enabled: true, scale: 1, overrides: {} });
});

test('loadConfig when BOURSE_RATE_LIMITS is malformed stops with a message naming it', () => {
  for (const text of ['{', '[1,2]', 'null', 'fast', '{"/a":-1}', '{"/a":"5"}', 'x']) {
    assert.throws(() => loadConfig({ BOURSE_RATE_LIMITS: text }), /BOURSE_RATE_LIMITS/, text);
  }
});

test('rate limit overrides when a path is unknown or has no limit are refused naming the path', () => {
  const limited = rateLimitedPaths();
  assert.ok(limited.has(INFO) && limited.has('/api/v2/public/time'), 'the route table lists limited paths');
  const known = parseRateLimitConfig(JSON.stringify({ [INFO]: 5 }));
  assert.doesNotThrow(() => checkRateLimitPaths(known, limited));
  for (const path of ['/api/v2/spot/acount/info', `${INFO}?coin=BTC`, '/admin/v1/clock']) {
    const config = parseRateLimitConfig(JSON.stringify({ [INFO]: 5, [path]: 5 }));
    assert.throws(
      () => checkRateLimitPaths(config, limited),
      (error: Error) => error.message.startsWith(`BOURSE_RATE_LIMITS: ${path} is not a path bourse limits`),
      path,
    );
  }
  assert.throws(() => parseRateLimitConfig('{"__proto__":5}'), /BOURSE_RATE_LIMITS: __proto__ is not a path/);
});
