/**
 * The cluster's lease and fencing on a real PostgreSQL (src/cluster/lease.ts,
 * persistence/postgres/batch-write.ts `Fence`): one holder at a time, epochs one up per
 * change of holder, a crashed holder's lease taken at once (its session's advisory lock is
 * gone), a stalled one's after its time, and the store refusing, whole, any append carrying
 * an epoch that is no longer the lease's. The follower (journal-follower.ts) ends on the
 * state a recovery of the same journal builds.
 */
import assert from 'node:assert/strict';
import pg from 'pg';
import { JournalFollower } from '../../src/cluster/journal-follower.ts';
import { Lease, leaseHolder } from '../../src/cluster/lease.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import type { Fence } from '../../src/persistence/postgres/batch-write.ts';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { tradingWorkload } from '../contracts/store-workload.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

const NAME = 'lease-test';

function leaseOf(url: string, holder: string, ttlMs: number): Promise<Lease> {
  return Lease.open({ url, name: NAME, holder, advertiseUrl: `http://${holder}`, ttlMs });
}

async function journalCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM journal');
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

await postgresTests('cluster lease tests', [
  {
    name: 'one holder at a time; a crashed holder (session gone) is replaced at once by the next epoch',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const first = await leaseOf(database.url, 'first', 60_000);
      const second = await leaseOf(database.url, 'second', 60_000);
      t.after(() => Promise.all([first.release(), second.release()]));
      assert.equal(await first.tryTake(), 1);
      assert.equal(await second.tryTake(), null, 'the lease is live for a minute: not taken');
      // The first holder's process dies: PostgreSQL ends its session and drops its advisory lock.
      // Its errors are expected (the database is dropped with FORCE after the test).
      const admin = new pg.Pool({ connectionString: database.url, max: 1 });
      admin.on('error', () => undefined);
      t.after(() => admin.end());
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'first' AND datname = current_database()`,
      );
      const startedMs = performance.now();
      let epoch: number | null = null;
      for (let attempt = 0; attempt < 50 && epoch === null; attempt += 1) {
        epoch = await second.tryTake();
        if (epoch === null) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(epoch, 2, 'taken with the next epoch');
      assert.ok(performance.now() - startedMs < 1_000, 'without waiting for the minute-long lease');
      const holder = await leaseHolder(admin, NAME);
      assert.deepEqual(holder, { epoch: 2, holder: 'second', url: 'http://second', live: true });
    },
  },
  {
    name: 'a stalled leader: its expired lease is taken, its appends are refused whole, the new leader writes',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { engine } = tradingWorkload();
      const entries = engine.entries;
      assert.ok(entries.length >= 6);
      const old = await leaseOf(database.url, 'old', 400);
      const fresh = await leaseOf(database.url, 'new', 60_000);
      t.after(() => Promise.all([old.release(), fresh.release()]));
      let oldFence: Fence = { name: NAME, epoch: 0 };
      const oldStore = await openPostgresStore(database.url, { fence: () => oldFence });
      t.after(() => oldStore.close());
      // Epoch 0 is no lease's: before leading, nothing is written.
      await assert.rejects(oldStore.append(entries.slice(0, 2)), /division by zero/);
      await oldStore.resume?.();
      oldFence = { name: NAME, epoch: (await old.tryTake()) ?? -1 };
      assert.equal(oldFence.epoch, 1);
      await oldStore.append(entries.slice(0, 2));
      assert.equal(await journalCount(database.url), 2);
      // The old leader stalls (no renewal): after 400 ms its lease has expired.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await fresh.tryTake(), 2, 'the expired lease is taken');
      const newStore = await openPostgresStore(database.url, { fence: () => ({ name: NAME, epoch: 2 }) });
      t.after(() => newStore.close());
      // The old leader wakes and appends: refused, nothing of it written.
      await assert.rejects(oldStore.append(entries.slice(2, 4)), /division by zero/);
      assert.equal(await journalCount(database.url), 2);
      await newStore.append(entries.slice(2, 4));
      assert.equal(
        await journalCount(database.url),
        4,
        'the new leader writes after the last committed entry',
      );
      await oldStore.resume?.();
      await assert.rejects(oldStore.append(entries.slice(4, 6)), /division by zero|duplicate key/);
      assert.equal(await journalCount(database.url), 4, 'no old-leader entry after the new leader’s first');
    },
  },
  {
    name: 'a follower replays what is committed after it started and ends on the recovered state',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { engine } = tradingWorkload();
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const half = Math.floor(engine.entries.length / 2);
      await store.append(engine.entries.slice(0, half));
      const follower = await JournalFollower.start(store);
      assert.equal(follower.seq, half);
      await store.append(engine.entries.slice(half));
      assert.equal(await follower.catchUp(), engine.entries.length - half);
      assert.equal(follower.seq, engine.entries.length);
      const recovered = await recover(store);
      assert.equal(stateHash(follower.recovered.exchange.state), stateHash(recovered.exchange.state));
      assert.equal(stateHash(follower.recovered.exchange.state), stateHash(engine.exchange.state));
      // Entries it followed are kept with their events (a takeover republishes them).
      const kept = follower.entriesAfter(half);
      assert.equal(kept.length, engine.entries.length - half);
      assert.deepEqual(
        kept.map((entry) => entry.events.length),
        engine.entries.slice(half).map((entry) => entry.events.length),
      );
    },
  },
  {
    name: 'a follower whose journal was replaced (the operator’s reset) starts over from the store',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { engine } = tradingWorkload();
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const half = Math.floor(engine.entries.length / 2);
      await store.append(engine.entries.slice(0, half));
      const follower = await JournalFollower.start(store);
      // Another journal as long as this one, equal to it but for the record the follower is at
      // (one millisecond later): reading on from there would mix the two journals.
      const other = engine.entries.map((entry) =>
        entry.seq === half
          ? { ...entry, command: { ...entry.command, timeMs: entry.command.timeMs + 1 } }
          : entry,
      );
      await store.replaceAll(other);
      await follower.catchUp();
      assert.equal(follower.seq, other.length);
      assert.equal(
        stateHash(follower.recovered.exchange.state),
        stateHash((await recover(store)).exchange.state),
      );
      // And a shorter one: nothing after the follower's record, which is gone.
      await store.replaceAll(engine.entries.slice(0, 3));
      await follower.catchUp();
      assert.equal(follower.seq, 3);
      assert.equal(
        stateHash(follower.recovered.exchange.state),
        stateHash((await recover(store)).exchange.state),
      );
    },
  },
]);
