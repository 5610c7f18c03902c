/**
 * Failed passphrase checks are limited per key and per IP before the scrypt they would cost:
 * over the limit a request is answered 429 at once. A verified passphrase is remembered, so
 * the honest path pays the scrypt once and is never limited afterwards.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthFailures } from '../../../src/api/auth/auth-failures.ts';
import { accountWithKey, OperatorClient } from '../../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient, type ApiCredentials } from '../../support/signing.ts';
import { WsTestClient } from '../ws/ws-client.ts';

const INFO = '/api/v2/spot/account/info';

function from(ip: string) {
  return { headers: { 'x-forwarded-for': ip } };
}

async function codes(client: SigningClient, ip: string, count: number): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: count }, () => client.get(INFO, from(ip))));
  return answers.map((answer) => String(answer.body?.code));
}

/** `count` requests at once to `url`, each with a passphrase of its own (none of them right). */
async function guesses(url: string, key: ApiCredentials, ip: string, count: number): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      new SigningClient(url, { ...key, passphrase: `wrong-${ip}-${n}` }).get(INFO, from(ip)),
    ),
  );
  return answers.map((answer) => String(answer.body?.code));
}

function tally(list: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of list) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

test('AuthFailures when checks fail counts them per key and per IP, and a success gives its check back', () => {
  const failures = new AuthFailures({ perKey: 2, perIp: 3, windowMs: 60_000 });
  assert.equal(failures.admit('k1', 'ip1', 0), true);
  assert.equal(failures.admit('k1', 'ip1', 0), true);
  assert.equal(failures.admit('k1', 'ip1', 0), false, 'the key is at its limit');
  assert.equal(failures.admit('k2', 'ip1', 0), true);
  assert.equal(failures.admit('k3', 'ip1', 0), false, 'the IP is at its limit');
  failures.succeeded('k2', 'ip1');
  assert.equal(failures.admit('k3', 'ip1', 0), true, 'a right passphrase does not count');
  assert.equal(failures.admit('k1', 'ip2', 59_999), false);
  assert.equal(failures.admit('k1', 'ip2', 60_000), true, 'a new window starts afresh');
  assert.equal(new AuthFailures({ perKey: 0, perIp: 0, windowMs: 60_000 }).admit('k', 'ip', 0), true);
});

test('signed requests when a known key is sent with wrong passphrases are limited before the scrypt', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_TRUST_PROXY: 'true' } });
  const { apiKey, secretKey, passphrase } = server.credentials;
  const key = { apiKey, secretKey, passphrase };
  // Sent at once: the checks in flight count, not only the ones that have finished.
  assert.deepEqual(tally(await guesses(server.url, key, '10.0.0.1', 25)), { '40012': 10, '429': 15 });
  assert.deepEqual(
    tally(await guesses(server.url, key, '10.0.0.2', 3)),
    { '429': 3 },
    'the key is limited from any IP',
  );
  // The same wrong passphrase sent again and again at once is one check: one failure counted.
  const repeated = new SigningClient(server.url, { ...key, passphrase: 'wrong-again' });
  const fresh = await serverFor(t, { env: { BOURSE_TRUST_PROXY: 'true' } });
  const freshRepeated = new SigningClient(fresh.url, {
    apiKey: fresh.credentials.apiKey,
    secretKey: fresh.credentials.secretKey,
    passphrase: 'wrong-again',
  });
  assert.deepEqual(tally(await codes(freshRepeated, '10.0.1.1', 25)), { '40012': 25 });
  assert.equal(
    (await new SigningClient(fresh.url, fresh.credentials).get(INFO, from('10.0.1.2'))).body?.code,
    '00000',
    'one failure counted: the owner is still let in',
  );
  assert.equal((await repeated.get(INFO, from('10.0.0.4'))).body?.code, '429');

  const honest = new SigningClient(server.url, { apiKey, secretKey, passphrase });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const other = (await accountWithKey(operator)).key as ApiCredentials;
  const otherClient = new SigningClient(server.url, other);
  assert.equal((await otherClient.get(INFO, from('10.0.0.9'))).body?.code, '00000', 'another key is served');
  assert.equal(
    (await honest.get(INFO, from('10.0.0.3'))).body?.code,
    '429',
    'an unverified passphrase waits',
  );
});

test('signed requests when a client opens many connections and signs on each at once all pass: one check is made', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_TRUST_PROXY: 'true' } });
  const client = new SigningClient(server.url, server.credentials);
  // More than the per-key limit (10) on checks in progress: they wait for the first check.
  assert.deepEqual(tally(await codes(client, '10.0.2.1', 32)), { '00000': 32 });
});

test('signed requests when one IP fails with many keys are limited per IP; a verified passphrase still passes', async (t) => {
  const server = await serverFor(t, {
    env: {
      BOURSE_TRUST_PROXY: 'true',
      BOURSE_AUTH_FAILURES_PER_KEY: '100',
      BOURSE_AUTH_FAILURES_PER_IP: '4',
    },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { apiKey, secretKey, passphrase } = server.credentials;
  const honest = new SigningClient(server.url, { apiKey, secretKey, passphrase });
  assert.equal((await honest.get(INFO, from('10.0.0.5'))).body?.code, '00000');
  const victim = (await accountWithKey(operator)).key as ApiCredentials;
  assert.deepEqual(tally(await guesses(server.url, victim, '10.0.0.5', 6)), { '40012': 4, '429': 2 });
  assert.equal(
    (await honest.get(INFO, from('10.0.0.5'))).body?.code,
    '00000',
    'a passphrase verified before needs no check, so the IP limit does not stop it',
  );
  assert.equal((await new SigningClient(server.url, victim).get(INFO, from('10.0.0.6'))).body?.code, '00000');
});

test('WebSocket login when its key has failed too often answers 30006 without checking the passphrase', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_AUTH_FAILURES_PER_KEY: '2' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(operator);
  const answers: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const client = await WsTestClient.open(server.url, '/v2/ws/private', t);
    answers.push(Number((await client.login({ ...key, passphrase: 'wrong-passphrase' })).code));
  }
  assert.deepEqual(answers, [30012, 30012, 30006]);
});
