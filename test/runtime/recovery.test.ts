/**
 * Recovery reports its progress (a start line with how many entries it will replay, lines
 * while replaying, a last line with what it replayed) and stops between pages when its start
 * is abandoned.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Exchange } from '../../src/engine/exchange.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { recover, type RecoveryProgress } from '../../src/runtime/recovery.ts';
import { Sequencer } from '../../src/runtime/sequencer.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const T0 = Date.UTC(2026, 10, 1);

/** A SQLite store holding `count` journal entries (accounts created), no snapshot. */
async function storeWithEntries(t: TestContext, count: number) {
  const dir = makeTempDir('bourse-recovery-');
  const store = openSqliteStore(join(dir, 'bourse.db'));
  t.after(async () => {
    await store.close();
    removeDir(dir);
  });
  const sequencer = new Sequencer(new Exchange(), 0, store, { snapshotEvery: 0 });
  const submitted = Array.from({ length: count }, (_, index) =>
    sequencer.submit({
      type: 'CreateAccount',
      timeMs: T0 + index,
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: '',
    }),
  );
  await Promise.all(submitted);
  await sequencer.drain();
  sequencer.stop();
  return store;
}

test('recover when asked for progress reports the start, each page and the end', async (t) => {
  const store = await storeWithEntries(t, 5_000);
  const reports: RecoveryProgress[] = [];
  const recovered = await recover(store, {
    onProgress: (progress) => reports.push(progress),
    progressEveryMs: 0,
  });
  assert.equal(recovered.replayed, 5_000);
  assert.deepEqual(
    reports.map((report) => report.phase),
    ['start', 'replaying', 'replaying', 'done'],
    'one line per page of 4,096 entries between the first and the last',
  );
  assert.deepEqual(
    reports.map((report) => report.replayed),
    [0, 4_096, 5_000, 5_000],
  );
  assert.ok(reports.every((report) => report.total === 5_000));
  const [, page] = reports;
  assert.ok(page && page.entriesPerSecond > 0 && page.remainingMs !== null && page.remainingMs >= 0);
});

test('recover when its start is abandoned stops with the reason', async (t) => {
  const store = await storeWithEntries(t, 10);
  const abandon = new AbortController();
  abandon.abort(new Error('stopped on SIGINT while starting'));
  await assert.rejects(recover(store, { signal: abandon.signal }), /stopped on SIGINT while starting/);
});
