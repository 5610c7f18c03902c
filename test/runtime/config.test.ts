/** Settings from the environment: defaults, each variable, and a message naming a bad one. */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';

test('loadConfig when the environment is empty gives the documented defaults', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.equal(config.dataDir, resolve('./data'));
  assert.equal(config.clock, 'real');
  assert.equal(config.log, 'info');
  assert.equal(config.operatorToken, undefined);
  assert.equal(config.serverKeyHex, undefined);
  assert.equal(config.enforceAccountMode, false);
  assert.equal(config.positionMode, 'hedge_mode', "the venue's default for a new futures account");
  assert.equal(config.trustProxy, false);
  assert.equal(config.seedDemo, true);
  assert.equal(config.snapshotEvery, 100_000);
  assert.deepEqual(config.journalRetention, { snapshots: 2, journalAgeMs: 0 });
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.projection, 'behind', 'SQLite: read models written behind the journal');
  assert.deepEqual(config.rateLimits, { enabled: true, scale: 1, overrides: {} });
  assert.deepEqual(config.metrics, { enabled: true, token: undefined });
});

test('loadConfig when every variable is set reads each one', () => {
  const config = loadConfig({
    HOST: '0.0.0.0',
    PORT: '9000',
    BOURSE_DATA_DIR: '/tmp/bourse-x',
    BOURSE_CLOCK: 'simulated',
    BOURSE_LOG: 'off',
    BOURSE_OPERATOR_TOKEN: 'token',
    BOURSE_SERVER_KEY: 'ab'.repeat(32),
    BOURSE_ENFORCE_ACCOUNT_MODE: 'yes',
    BOURSE_POSITION_MODE: 'one_way_mode',
    BOURSE_TRUST_PROXY: '1',
    BOURSE_SEED_DEMO: 'off',
    BOURSE_SNAPSHOT_EVERY: '0',
    BOURSE_RATE_LIMITS: 'off',
    BOURSE_DATABASE_URL: 'postgres://user@localhost/bourse',
  });
  assert.deepEqual(
    [config.host, config.port, config.dataDir, config.clock, config.log, config.operatorToken],
    ['0.0.0.0', 9000, '/tmp/bourse-x', 'simulated', 'off', 'token'],
  );
  assert.equal(config.serverKeyHex, 'ab'.repeat(32));
  assert.deepEqual(
    [config.enforceAccountMode, config.trustProxy, config.seedDemo, config.snapshotEvery],
    [true, true, false, 0],
  );
  assert.equal(config.rateLimits.enabled, false);
  assert.equal(config.positionMode, 'one_way_mode');
  assert.equal(config.databaseUrl, 'postgres://user@localhost/bourse');
});

test('loadConfig when BOURSE_PROJECTION is unset writes behind on SQLite and inline on PostgreSQL, and a set value wins on either', () => {
  const postgres = { BOURSE_DATABASE_URL: 'postgres://user@localhost/bourse' };
  assert.equal(loadConfig({}).projection, 'behind');
  assert.equal(loadConfig(postgres).projection, 'inline');
  assert.equal(loadConfig({ ...postgres, BOURSE_PROJECTION: '' }).projection, 'inline');
  assert.equal(loadConfig({ ...postgres, BOURSE_PROJECTION: 'behind' }).projection, 'behind');
  assert.equal(loadConfig({ BOURSE_PROJECTION: 'inline' }).projection, 'inline');
  assert.throws(() => loadConfig({ BOURSE_PROJECTION: 'later' }), /BOURSE_PROJECTION/);
});

test('loadConfig when BOURSE_PROJECTION_MAX_LAG is unset bounds the projector at 128 entries, and reads a whole number from 1', () => {
  assert.equal(loadConfig({}).projectionMaxLagEntries, 128);
  assert.equal(loadConfig({ BOURSE_PROJECTION_MAX_LAG: '2048' }).projectionMaxLagEntries, 2048);
  assert.throws(() => loadConfig({ BOURSE_PROJECTION_MAX_LAG: '-1' }), /BOURSE_PROJECTION_MAX_LAG/);
  assert.throws(
    () => loadConfig({ BOURSE_PROJECTION_MAX_LAG: '0' }),
    /BOURSE_PROJECTION_MAX_LAG must be at least 1/,
  );
  assert.throws(() => loadConfig({ BOURSE_PROJECTION_MAX_LAG: 'many' }), /BOURSE_PROJECTION_MAX_LAG/);
});

test('loadConfig when BOURSE_PROJECTION_GATHER_MS is unset gathers 30 ms, and reads a whole number, 0 not gathering', () => {
  assert.equal(loadConfig({}).projectionGatherMs, 30);
  assert.equal(loadConfig({ BOURSE_PROJECTION_GATHER_MS: '0' }).projectionGatherMs, 0);
  assert.equal(loadConfig({ BOURSE_PROJECTION_GATHER_MS: '250' }).projectionGatherMs, 250);
  assert.throws(() => loadConfig({ BOURSE_PROJECTION_GATHER_MS: '-5' }), /BOURSE_PROJECTION_GATHER_MS/);
  assert.throws(() => loadConfig({ BOURSE_PROJECTION_GATHER_MS: 'soon' }), /BOURSE_PROJECTION_GATHER_MS/);
  assert.throws(
    () => loadConfig({ BOURSE_PROJECTION_GATHER_MS: '60001' }),
    /BOURSE_PROJECTION_GATHER_MS must be at most 60000/,
  );
});

test('loadConfig when a value is invalid stops with a message naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ BOURSE_CLOCK: 'sundial' }, /BOURSE_CLOCK/],
    [{ BOURSE_LOG: 'debug' }, /BOURSE_LOG/],
    [{ BOURSE_METRICS: 'maybe' }, /BOURSE_METRICS/],
    [{ BOURSE_SERVER_KEY: 'abc' }, /BOURSE_SERVER_KEY/],
    [{ BOURSE_ENFORCE_ACCOUNT_MODE: 'maybe' }, /BOURSE_ENFORCE_ACCOUNT_MODE/],
    [{ BOURSE_TRUST_PROXY: '2' }, /BOURSE_TRUST_PROXY/],
    [{ BOURSE_POSITION_MODE: 'hedge' }, /BOURSE_POSITION_MODE/],
    [{ BOURSE_SEED_DEMO: 'sure' }, /BOURSE_SEED_DEMO/],
    [{ BOURSE_SNAPSHOT_EVERY: '-1' }, /BOURSE_SNAPSHOT_EVERY/],
    [{ BOURSE_RATE_LIMITS: '{' }, /BOURSE_RATE_LIMITS/],
    [{ BOURSE_DATABASE_URL: 'mysql://x' }, /BOURSE_DATABASE_URL/],
  ];
  for (const [env, message] of cases) assert.throws(() => loadConfig(env), message, JSON.stringify(env));
});
