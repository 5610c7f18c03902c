/**
 * GET /health, /ready and /metrics: readiness through startup, a rebuild of the engine after
 * a failed append and a store that does not answer (fakes, then a real server on SQLite and
 * on PostgreSQL behind a proxy that cuts it off); who may read /metrics; both HTTP layers
 * counted; BOURSE_METRICS=off.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import {
  metricsRefusal,
  parseMetricsSettings,
  Readiness,
  type ReadinessSources,
} from '../../src/api/health-routes.ts';
import type { SqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { startTcpProxy } from '../faults/tcp-proxy.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { send } from '../support/http.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const readyStatus = async (url: string) => {
  const response = await send(`${url}/ready`);
  return { status: response.status, body: JSON.parse(response.text) as { status: string } };
};

/** The value of one sample line of /metrics, or undefined when it is absent. */
async function scrape(url: string, series: string): Promise<number | undefined> {
  const text = (await send(`${url}/metrics`)).text;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function readinessWith(overrides: Partial<ReadinessSources> = {}) {
  const sequencer = { unavailable: false };
  let reads = 0;
  const store = {
    lastSeq: async () => {
      reads += 1;
      return 7;
    },
  };
  const readiness = new Readiness({ sequencer, store, ...overrides });
  return { readiness, sequencer, reads: () => reads };
}

test('Readiness status when startup has not finished is starting, then ready, then stopping', async () => {
  const { readiness } = readinessWith();
  assert.equal(await readiness.status(), 'starting');
  readiness.started();
  assert.equal(await readiness.status(), 'ready');
  readiness.stopping();
  assert.equal(await readiness.status(), 'stopping');
  readiness.started();
  assert.equal(await readiness.status(), 'stopping', 'a stopping server does not become ready again');
});

test('Readiness status when the engine is rebuilding is recovering, and ready once it is done', async () => {
  const { readiness, sequencer } = readinessWith();
  readiness.started();
  sequencer.unavailable = true;
  assert.equal(await readiness.status(), 'recovering');
  sequencer.unavailable = false;
  assert.equal(await readiness.status(), 'ready');
});

test('Readiness status when the store fails or does not answer in time is store_unreachable', async () => {
  const failing = readinessWith({
    store: { lastSeq: () => Promise.reject(new Error('connection refused')) },
  });
  failing.readiness.started();
  assert.equal(await failing.readiness.status(), 'store_unreachable');

  let reads = 0;
  const hanging = readinessWith({
    store: {
      lastSeq: () => {
        reads += 1;
        return new Promise<number>(() => undefined);
      },
    },
    storeTimeoutMs: 20,
  });
  hanging.readiness.started();
  const statuses = await Promise.all([hanging.readiness.status(), hanging.readiness.status()]);
  assert.deepEqual(statuses, ['store_unreachable', 'store_unreachable']);
  assert.equal(await hanging.readiness.status(), 'store_unreachable');
  assert.equal(reads, 1, 'no second read while the first one hangs');
});

test('metricsRefusal when no token is set serves loopback clients only', () => {
  assert.equal(metricsRefusal(undefined, undefined, '127.0.0.1'), null);
  assert.equal(metricsRefusal(undefined, undefined, '::1'), null);
  assert.equal(metricsRefusal(undefined, undefined, '10.1.2.3')?.status, 403);
  assert.equal(metricsRefusal(undefined, 'Bearer anything', '2001:db8::1')?.status, 403);
});

test('metricsRefusal when a token is set serves that bearer token only, from anywhere', () => {
  const token = 'scrape-token-0123456789';
  assert.equal(metricsRefusal(token, `Bearer ${token}`, '10.1.2.3'), null);
  assert.equal(metricsRefusal(token, undefined, '127.0.0.1')?.status, 401);
  assert.equal(metricsRefusal(token, `Bearer ${token}x`, '127.0.0.1')?.status, 401);
  assert.equal(metricsRefusal(token, token, '127.0.0.1')?.status, 401);
});

test('parseMetricsSettings when values are given reads them, and names the variable when one is bad', () => {
  assert.deepEqual(parseMetricsSettings({}), { enabled: true, token: undefined });
  assert.deepEqual(parseMetricsSettings({ BOURSE_METRICS: 'off', BOURSE_METRICS_TOKEN: 'abc' }), {
    enabled: false,
    token: 'abc',
  });
  assert.throws(() => parseMetricsSettings({ BOURSE_METRICS: 'yes' }), /BOURSE_METRICS must be on or off/);
  assert.throws(() => parseMetricsSettings({ BOURSE_METRICS_TOKEN: 'a b' }), /BOURSE_METRICS_TOKEN/);
});

test('GET /health and /ready when the server has started answer 200 with small JSON', async (t) => {
  const server = await serverFor(t);
  const health = await send(`${server.url}/health`);
  assert.equal(health.status, 200);
  assert.equal(health.headers.get('content-type'), 'application/json');
  assert.deepEqual(JSON.parse(health.text), { status: 'ok' });
  assert.deepEqual(await readyStatus(server.url), { status: 200, body: { status: 'ready' } });
});

test('GET /ready when the engine rebuilds after a failed append answers 503 until it has recovered', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  const store = server.services.store as SqliteStore;
  // The rebuild starts with `resume`: held here, the engine stays in recovery until released.
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const resume = store.resume?.bind(store);
  store.resume = async () => {
    await held;
    await resume?.();
  };
  // The disk "fills up" (SQLITE_FULL, as in test/faults/store-outage.test.ts): appends fail.
  await store.pragma(`max_page_count = ${Number(store.db.pragma('page_count', { simple: true }))}`);
  const { sequencer } = server.services;
  for (let attempt = 0; attempt < 5_000 && !sequencer.unavailable; attempt += 1) {
    await operator.call('POST', `/admin/v1/accounts/${uid}/deposits`, { coin: 'USDT', amount: '1' });
  }
  assert.ok(sequencer.unavailable, 'an append failed and the engine is rebuilding');
  assert.deepEqual(await readyStatus(server.url), { status: 503, body: { status: 'recovering' } });
  assert.equal(await scrape(server.url, 'bourse_engine_rebuilding'), 1);
  assert.ok(((await scrape(server.url, 'bourse_journal_append_failures_total')) ?? 0) >= 1);
  assert.equal((await send(`${server.url}/health`)).status, 200, 'alive all along');

  await store.pragma('max_page_count = 1073741823');
  release();
  await until(async () => (await readyStatus(server.url)).status === 200, '/ready to answer 200');
  assert.equal(await scrape(server.url, 'bourse_engine_rebuilding'), 0);
  assert.equal((await operator.deposit(uid, { coin: 'USDT', amount: '1' })).coin, 'USDT', 'writes resumed');
});

test('GET /metrics when the client is not on loopback answers 403 without a token', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_TRUST_PROXY: 'true' } });
  const remote = await send(`${server.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
  assert.equal(remote.status, 403);
  assert.match(remote.text, /BOURSE_METRICS_TOKEN/);
  assert.equal((await send(`${server.url}/metrics`)).status, 200, 'loopback is served');
});

test('GET /metrics when BOURSE_METRICS_TOKEN is set answers that bearer token and no other', async (t) => {
  const token = 'scrape-0123456789abcdef';
  const server = await serverFor(t, { env: { BOURSE_METRICS_TOKEN: token } });
  const withToken = (value: string) => send(`${server.url}/metrics`, { headers: { authorization: value } });
  assert.equal((await send(`${server.url}/metrics`)).status, 401);
  assert.equal((await withToken(`Bearer ${TEST_OPERATOR_TOKEN}`)).status, 401, 'not the operator token');
  const served = await withToken(`Bearer ${token}`);
  assert.equal(served.status, 200);
  assert.match(served.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  assert.match(served.text, /^# TYPE bourse_http_requests_total counter$/m);
});

test('GET /metrics when BOURSE_METRICS=off is not served, and /health and /ready still are', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_METRICS: 'off' } });
  const metrics = await send(`${server.url}/metrics`);
  assert.equal(metrics.status, 404);
  assert.equal(metrics.body?.code, '40404');
  assert.equal((await send(`${server.url}/health`)).status, 200);
  assert.equal((await readyStatus(server.url)).status, 200);
});

/** A GET through node:http (Connection: close makes the fast path hand the connection over). */
function getThroughNodeHttp(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers: { connection: 'close' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test('request counters when requests come through the fast path and through node:http count both', async (t) => {
  const server = await serverFor(t);
  assert.ok(server.httpFastPath, 'the fast path is on by default');
  const series =
    'bourse_http_requests_total{method="GET",route="/api/v2/public/time",status="200",code="00000"}';
  assert.equal((await send(`${server.url}/api/v2/public/time`)).status, 200);
  assert.equal(await getThroughNodeHttp(`${server.url}/api/v2/public/time`), 200);
  assert.equal(await scrape(server.url, series), 2);
  for (const path of ['/no/such/path-1', '/no/such/path-2', '/api/v2/public/time/extra']) {
    await send(`${server.url}${path}`);
  }
  await getThroughNodeHttp(`${server.url}/another/unknown`);
  const text = (await send(`${server.url}/metrics`)).text;
  assert.doesNotMatch(text, /path-1|path-2|extra|another/, 'no label value from a raw path');
  assert.equal(
    await scrape(
      server.url,
      'bourse_http_requests_total{method="GET",route="unmatched",status="404",code="40404"}',
    ),
    4,
  );
});

await postgresTests('readiness on PostgreSQL', [
  {
    name: 'GET /ready when PostgreSQL is cut off answers 503 store_unreachable, then 200 once it is back',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const target = new URL(database.url);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      t.after(() => proxy.close());
      const viaProxy = new URL(database.url);
      viaProxy.port = String(proxy.port);
      const server = await serverFor(t, { env: { BOURSE_DATABASE_URL: viaProxy.toString() } });
      assert.equal((await readyStatus(server.url)).status, 200);
      proxy.cut();
      const cut = await readyStatus(server.url);
      assert.equal(cut.status, 503);
      assert.equal(cut.body.status, 'store_unreachable');
      assert.equal((await send(`${server.url}/health`)).status, 200, 'alive all along');
      proxy.restore();
      await until(async () => (await readyStatus(server.url)).status === 200, '/ready to answer 200');
    },
  },
]);
