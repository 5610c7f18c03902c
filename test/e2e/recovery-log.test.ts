/**
 * Recovery is not silent: a start that replays the journal logs that it does (how many
 * entries, then progress while it lasts) and a line when it is done, and the banner's store
 * line says what was replayed even with BOURSE_LOG=off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnServer } from '../support/child.ts';
import { OperatorClient } from '../support/operator.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const TOKEN = 'recovery-log-operator-token';

function logRecords(stdout: string): Record<string, unknown>[] {
  return stdout.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

test(
  'start when the journal has entries after the snapshot logs the replay and prints what it replayed',
  { timeout: 90_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-recovery-log-');
    t.after(() => removeDir(dataDir));
    const env = {
      BOURSE_DATA_DIR: dataDir,
      BOURSE_OPERATOR_TOKEN: TOKEN,
      BOURSE_RATE_LIMITS: 'off',
      BOURSE_SNAPSHOT_EVERY: '0',
    };
    const first = await spawnServer(env, 20_000, { marketDefaults: true });
    const operator = new OperatorClient(first.url, TOKEN);
    const { uid } = await operator.createAccount();
    for (let index = 0; index < 50; index += 1) await operator.deposit(uid, { coin: 'USDT', amount: '1' });
    // SIGKILL: no snapshot at shutdown, so the next start replays the whole journal.
    await first.kill('SIGKILL');

    const logged = await spawnServer({ ...env, BOURSE_LOG: 'info' }, 30_000, { marketDefaults: true });
    await logged.kill('SIGKILL');
    const records = logRecords(logged.stdout());
    const starting = records.find((record) => record.message === 'recovering the store');
    const done = records.find((record) => record.message === 'store recovered');
    assert.ok(starting && done, logged.stdout());
    assert.ok(Number(starting.total) >= 52, `entries to replay: ${String(starting.total)}`);
    assert.equal(done.replayed, starting.total);
    assert.equal(typeof done.entriesPerSecond, 'number');
    assert.match(
      logged.stdout(),
      new RegExp(`store .*\\(recovered: ${String(done.replayed)} journal entries replayed in`),
    );

    const quiet = await spawnServer({ ...env, BOURSE_LOG: 'off' }, 30_000, { marketDefaults: true });
    try {
      assert.deepEqual(logRecords(quiet.stdout()), [], 'BOURSE_LOG=off logs nothing');
      assert.match(
        quiet.stdout(),
        /^\s+store\s+SQLite .*\(recovered: \d+ journal entries replayed in \d+\.\d s\)$/m,
      );
    } finally {
      await quiet.kill('SIGTERM');
    }
  },
);
