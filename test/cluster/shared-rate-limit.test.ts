/**
 * Rate limits shared through PostgreSQL (src/cluster/shared-rate-limit.ts): two limiters, as
 * two edges, on one database. Syncs are made by hand here (the interval is a minute), so each
 * figure follows from the calls: a limit of 10 per second.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { SharedRateLimiter } from '../../src/cluster/shared-rate-limit.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

const PATH = '/api/v2/spot/trade/unfilled-orders';
const RULE = { perSecond: 20, by: 'uid' as const };

/** Calls `allow` `times` times for uid 1; how many were let through. */
function admitted(limiter: SharedRateLimiter, times: number): number {
  let through = 0;
  for (let n = 0; n < times; n += 1) if (limiter.allow(PATH, RULE, '1', Date.now())) through += 1;
  return through;
}

/** Waits for the next second, with room for the test's calls before it ends. */
async function startOfSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
}

await postgresTests('shared rate limits', [
  {
    name: 'two edges share one budget once they have synced; unsynced, each is held to the limit alone',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      // The database is dropped after the test, whose connections it ends.
      pool.on('error', () => undefined);
      const settings = {
        pool,
        cluster: 'shared',
        config: { enabled: true, scale: 1, overrides: { [PATH]: 10 } },
        syncMs: 60_000,
        onError: (error: unknown) => assert.fail(String(error)),
      };
      const a = await SharedRateLimiter.start(settings);
      const b = await SharedRateLimiter.start(settings);
      t.after(async () => {
        a.stop();
        b.stop();
        await pool.end();
      });
      await startOfSecond();
      const second = Math.floor(Date.now() / 1_000);
      assert.equal(admitted(a, 4), 4);
      // B knows nothing of the key yet: its first request is decided on its own count (0).
      assert.equal(admitted(b, 1), 1);
      await a.sync();
      await b.sync();
      // B has learnt the total, 5: 5 more, then none.
      assert.equal(admitted(b, 8), 5);
      await b.sync();
      await a.sync();
      assert.equal(admitted(a, 3), 0, 'A has learnt B’s 6');
      assert.equal(admitted(b, 1), 0);
      assert.equal(Math.floor(Date.now() / 1_000), second, 'all within one second');
      const { rows } = await pool.query('SELECT count FROM cluster_rate_counts WHERE second = $1', [second]);
      assert.deepEqual(
        rows.map((row: { count: string }) => Number(row.count)),
        [10],
      );

      // The next second, no sync between: each edge lets the whole limit through (the bound,
      // edges × limit), and the shared row adds both once they sync.
      await startOfSecond();
      const next = Math.floor(Date.now() / 1_000);
      assert.equal(admitted(a, 12), 10);
      assert.equal(admitted(b, 12), 10);
      await a.sync();
      await b.sync();
      const [row] = (await pool.query('SELECT count FROM cluster_rate_counts WHERE second = $1', [next]))
        .rows as {
        count: string;
      }[];
      assert.equal(Number(row?.count), 20);
      assert.equal(admitted(a, 1), 0);
    },
  },
]);

test('an edge takes PostgreSQL’s clock from its quickest reading: one slow reading would shift its seconds', async () => {
  let readings = 0;
  // PostgreSQL's clock is this one; the first reading's answer comes 200 ms late, read at its end
  // (as on a loaded machine), which taken alone would put the edge's seconds 100 ms ahead.
  const pool = {
    async query(text: string) {
      if (!text.includes('clock_timestamp')) return { rows: [] };
      readings += 1;
      if (readings === 1) await new Promise((resolve) => setTimeout(resolve, 200));
      return { rows: [{ ms: String(Date.now()) }] };
    },
  } as unknown as pg.Pool;
  const limiter = await SharedRateLimiter.start({
    pool,
    cluster: 'offset',
    config: { enabled: true, scale: 1, overrides: {} },
    syncMs: 60_000,
    onError: (error: unknown) => assert.fail(String(error)),
  });
  limiter.stop();
  assert.equal(readings, 3);
  assert.ok(Math.abs(limiter.clockOffsetMs) <= 20, `offset ${limiter.clockOffsetMs} ms`);
});
