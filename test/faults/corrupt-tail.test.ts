/**
 * A corrupted or truncated last journal record: detected on start, the tail refused with a
 * message naming the record, never replayed. SQLite through `npm start`'s entry point (the
 * operator sees the message and a non-zero exit), PostgreSQL through startServer.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { spawnServer } from '../support/child.ts';
import { OperatorClient } from '../support/operator.ts';
import { makeTempDir, removeDir, startTestServer, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

const TRUNCATE_LAST =
  'UPDATE journal SET body = substr(body, 1, length(body) - 5) WHERE seq = (SELECT MAX(seq) FROM journal)';

/** Some acknowledged writes, then a clean stop; returns the last journal seq. */
async function writeSome(env: Record<string, string>, dataDir: string): Promise<number> {
  const server = await startTestServer({ dataDir, env: { BOURSE_SEED_DEMO: 'false', ...env } });
  try {
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    const { uid } = await operator.createAccount();
    for (let index = 0; index < 5; index += 1) await operator.deposit(uid, { coin: 'USDT', amount: '1' });
    return server.services.sequencer.lastSeq;
  } finally {
    await server.stop();
  }
}

test(
  'start when the last SQLite journal record is truncated refuses with a clear message',
  { timeout: 30_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-corrupt-');
    t.after(() => removeDir(dataDir));
    const last = await writeSome({}, dataDir);
    const db = new Database(join(dataDir, 'bourse.db'));
    db.exec(TRUNCATE_LAST);
    db.close();
    const started = spawnServer({
      BOURSE_DATA_DIR: dataDir,
      BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      BOURSE_SEED_DEMO: 'false',
    });
    await assert.rejects(started, (error: Error) => {
      assert.match(error.message, /server exited \(1\) before listening/);
      assert.match(
        error.message,
        new RegExp(
          `bourse failed to start: journal record ${last} fails its checksum .*refusing to replay it`,
        ),
      );
      return true;
    });
  },
);

await postgresTests('corrupt journal fault tests', [
  {
    name: 'start when the last PostgreSQL journal record is corrupted refuses with a clear message',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const dataDir = makeTempDir('bourse-corrupt-');
      t.after(() => removeDir(dataDir));
      const env = { BOURSE_DATABASE_URL: database.url };
      const last = await writeSome(env, dataDir);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(TRUNCATE_LAST);
      await client.end();
      await assert.rejects(
        startTestServer({ dataDir, env: { BOURSE_SEED_DEMO: 'false', ...env } }),
        new RegExp(`journal record ${last} fails its checksum`),
      );
    },
  },
]);
