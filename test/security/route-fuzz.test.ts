/**
 * Every route of the route table (src/api/routes/index.ts), public, signed and operator,
 * driven with hostile fields: prototype names (__proto__, constructor, prototype) as keys
 * and as values, huge and tiny numbers, wrong types, deep nesting, top-level arrays. The
 * fields a route reads are found first (its handler run once on recording bodies); each is
 * then made hostile in turn among plausible others, a batch mixes a valid item with a bad
 * one, and a few requests are chaos. For every request: never a 5xx, always the venue
 * envelope, and a refused request changes no business state (the engine clock moves with a
 * rejected command: businessHash leaves it out); no prototype pollution, no error or secret
 * in the log. Seeded (FUZZ_SEED); a failure names the seed, the route and the request.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiRequest, Route } from '../../src/api/request.ts';
import { allRoutes } from '../../src/api/routes/index.ts';
import { send, type ApiResponse } from '../support/http.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import {
  chaosFields,
  hostileValue,
  PLAUSIBLE,
  plausibleWith,
  PROTOTYPE_NAMES,
} from '../support/hostile-fields.ts';
import { Random } from '../support/random.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient, type ApiCredentials } from '../support/signing.ts';
import { businessHash } from '../support/state.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20260421);
const CHAOS_CASES = 4;
const PROTOTYPE_BODY = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';

/**
 * The field names `route` reads, found by running its handler once in-process on bodies and
 * queries that answer every name with a plausible value and note each name asked for.
 */
async function fieldsRead(route: Route): Promise<string[]> {
  const names = new Set<string>();
  const recording = (asText: boolean) =>
    new Proxy(
      Object.fromEntries(
        Object.entries(PLAUSIBLE).map(([name, value]) => {
          const plain = value();
          return [name, asText && typeof plain !== 'string' ? JSON.stringify(plain) : plain];
        }),
      ),
      {
        get(target, key, receiver) {
          if (typeof key === 'string') names.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
  const state = server.services.sequencer.exchange.state;
  const key = state.apiKeys.get(credentials.apiKey);
  const account = state.accounts.get(uid);
  if (!key || !account) throw new Error('the fuzzing account is missing');
  const bodies = route.method === 'GET' ? [undefined] : [recording(false), [recording(false)]];
  for (const body of bodies) {
    const request: ApiRequest = {
      method: route.method,
      path: route.path,
      query: recording(true) as Record<string, string>,
      body,
      ip: '127.0.0.1',
      headers: {},
      caller: { account, key },
    };
    try {
      await route.handler(request, { uid, recordId: '100000000000000001' });
    } catch {
      // Refusals are expected: only the names asked for matter here.
    }
  }
  return [...names].filter((name) => /^[A-Za-z]+$/.test(name) && name !== 'toJSON' && name !== 'then');
}

/** Requests for one route: each field it reads made hostile in turn, batches, and chaos. */
function casesFor(
  route: Route,
  names: readonly string[],
  random: Random,
): { fields: unknown; chaos: boolean }[] {
  const cases: { fields: unknown; chaos: boolean }[] = [];
  names.forEach((name, index) => {
    const plain = PLAUSIBLE[name]?.();
    const prototypeName = PROTOTYPE_NAMES[index % 3] ?? '__proto__';
    const named = Array.isArray(plain) ? [...(plain as unknown[]), prototypeName] : prototypeName;
    cases.push({ fields: plausibleWith({ [name]: named }), chaos: false });
    cases.push({ fields: plausibleWith({ [name]: hostileValue(random) }), chaos: false });
  });
  if (route.method !== 'GET') {
    const item = () => plausibleWith({});
    cases.push({ fields: [item(), hostileValue(random), plausibleWith({ clientOid: {} })], chaos: false });
    const list = [item(), random.pick([42, null, 'x', [], { clientOid: true }])];
    cases.push({ fields: plausibleWith({ orderList: list, orderIdList: list }), chaos: false });
  }
  for (let count = 0; count < CHAOS_CASES; count += 1)
    cases.push({ fields: chaosFields(random), chaos: true });
  return cases;
}

function queryText(fields: unknown): string {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return '';
  return Object.entries(fields)
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      return `${encodeURIComponent(name)}=${encodeURIComponent(text.slice(0, 2000))}`;
    })
    .join('&');
}

let server: TestServer;
let operator: OperatorClient;
let signer: SigningClient;
let credentials: ApiCredentials;
let uid = '';
const secrets = new Set<string>();

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const made = await accountWithKey(operator, {
    funds: [
      ['USDT', '100000'],
      ['BTC', '2'],
    ],
  });
  uid = made.uid;
  await operator.deposit(uid, { coin: 'USDT', amount: '100000', wallet: 'usdt_futures' });
  credentials = made.key;
  signer = new SigningClient(server.url, made.key);
  secrets.add(made.key.secretKey).add(made.key.passphrase).add(TEST_OPERATOR_TOKEN);
});

after(() => server.close());

function pathOf(route: Route, random: Random, chaos: boolean): string {
  const parameters = [uid, ...PROTOTYPE_NAMES, '9'.repeat(30), '-1', '100000000000000001'];
  return route.path
    .split('/')
    .map((part) => (part.startsWith(':') ? encodeURIComponent(chaos ? random.pick(parameters) : uid) : part))
    .join('/');
}

async function call(
  route: Route,
  fields: unknown,
  path: string,
  random: Random,
): Promise<{ response: ApiResponse; label: string }> {
  const withBody = route.method !== 'GET';
  const body = withBody ? (random.bool(0.05) ? PROTOTYPE_BODY : JSON.stringify(fields)) : '';
  const query = withBody ? '' : queryText(fields);
  const label = `seed ${SEED} ${route.method} ${path}?${query.slice(0, 200)} ${body.slice(0, 300)}`;
  if (route.auth === 'signed') {
    const response = await signer.request(route.method, path, { query, ...(withBody ? { body } : {}) });
    secrets.add(response.signature);
    return { response, label };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (route.auth === 'operator') headers.authorization = `Bearer ${TEST_OPERATOR_TOKEN}`;
  const url = `${server.url}${path}${query ? `?${query}` : ''}`;
  const response = await send(url, { method: route.method, headers, ...(withBody ? { body } : {}) });
  return { response, label };
}

function assertSafe(response: ApiResponse, label: string): void {
  assert.ok(response.status < 500, `${label}: status ${response.status} ${response.text.slice(0, 300)}`);
  assert.ok(response.body, `${label}: not JSON: ${response.text.slice(0, 200)}`);
  assert.equal(typeof response.body.code, 'string', `${label}: code`);
  assert.equal(typeof response.body.msg, 'string', `${label}: msg`);
  assert.ok(!/\n\s+at |node:internal|\.ts:\d+/.test(response.text), `${label}: stack trace`);
}

test('every route when driven with hostile fields never answers 5xx and a refusal changes nothing', async () => {
  const random = new Random(SEED);
  const routes = allRoutes(server.services);
  assert.ok(routes.length > 100, 'the route table is enumerated');
  const codes = new Map<string, number>();
  for (const route of routes) {
    for (const { fields, chaos } of casesFor(route, await fieldsRead(route), random)) {
      const before = businessHash(server.services.sequencer.exchange.state);
      const { response, label } = await call(route, fields, pathOf(route, random, chaos), random);
      assertSafe(response, label);
      const code = response.body?.code ?? '';
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (code !== '00000') {
        const after = businessHash(server.services.sequencer.exchange.state);
        assert.equal(after, before, `${label}: refused, yet changed`);
      }
    }
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  for (const line of server.logs) {
    assert.ok(!line.includes('unhandled error') && !line.includes('engine error'), line.slice(0, 300));
    for (const secret of secrets)
      assert.ok(!line.includes(secret), `a log line leaks a secret: ${line.slice(0, 120)}`);
  }
  assert.ok((codes.get('00000') ?? 0) > 0, `some requests succeed: ${JSON.stringify([...codes])}`);
});
