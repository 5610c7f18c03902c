/** BOURSE_ROLE and the cluster's settings (src/cluster/cluster-config.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseClusterConfig } from '../../src/cluster/cluster-config.ts';

const DB = 'postgres://postgres@127.0.0.1:5432/bourse';
const KEY = 'ab'.repeat(32);

test('cluster settings: unset or single is the single process; engine and edge get their defaults', () => {
  assert.equal(parseClusterConfig({}, undefined, undefined), null);
  assert.equal(parseClusterConfig({ BOURSE_ROLE: 'single' }, DB, KEY), null);
  assert.deepEqual(parseClusterConfig({ BOURSE_ROLE: 'engine' }, DB, KEY), {
    role: 'engine',
    name: 'bourse',
    leaseMs: 1_500,
    followEveryMs: 100,
    natsUrl: undefined,
    advertiseUrl: undefined,
    readWaitMs: 1_000,
    rateSyncMs: 25,
  });
  const edge = parseClusterConfig(
    {
      BOURSE_ROLE: 'edge',
      BOURSE_CLUSTER_NAME: 'east-1',
      BOURSE_FOLLOW_EVERY_MS: '50',
      BOURSE_EDGE_READ_WAIT_MS: '250',
      BOURSE_EDGE_RATE_SYNC_MS: '10',
    },
    DB,
    KEY,
  );
  assert.equal(edge?.role, 'edge');
  assert.equal(edge?.name, 'east-1');
  assert.equal(edge?.followEveryMs, 50);
  assert.equal(edge?.readWaitMs, 250);
  assert.equal(edge?.rateSyncMs, 10);
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'edge', BOURSE_EDGE_RATE_SYNC_MS: '1' }, DB, KEY),
    /BOURSE_EDGE_RATE_SYNC_MS must be an integer of at least 5/,
  );
});

test('cluster settings: what a role needs, and bad values, are refused naming the variable', () => {
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'leader' }, DB, KEY),
    /BOURSE_ROLE must be single, engine or edge/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'engine' }, undefined, KEY),
    /needs BOURSE_DATABASE_URL/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'edge' }, undefined, undefined),
    /needs BOURSE_DATABASE_URL/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'engine' }, DB, undefined),
    /needs BOURSE_SERVER_KEY/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'engine', BOURSE_CLUSTER_NAME: 'a b' }, DB, KEY),
    /BOURSE_CLUSTER_NAME/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'engine', BOURSE_NATS_URL: 'http://x' }, DB, KEY),
    /BOURSE_NATS_URL/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'engine', BOURSE_LEASE_MS: '100' }, DB, KEY),
    /BOURSE_LEASE_MS/,
  );
  assert.throws(
    () => parseClusterConfig({ BOURSE_ROLE: 'engine', BOURSE_FOLLOW_EVERY_MS: 'soon' }, DB, KEY),
    /BOURSE_FOLLOW_EVERY_MS/,
  );
});
