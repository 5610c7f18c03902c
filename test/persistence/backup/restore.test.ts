/**
 * restoreBackup (src/persistence/backup/restore.ts) on SQLite: a backup restores into an empty
 * data directory with every table, key and credential as they were; and what it refuses
 * before writing anything (a damaged backup, one of a newer bourse, a target a server has
 * open, a target that holds data or another key unless told to replace it).
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { takeBackup } from '../../../src/persistence/backup/backup.ts';
import { restoreBackup } from '../../../src/persistence/backup/restore.ts';
import { openStore } from '../../../src/persistence/open-store.ts';
import { recover } from '../../../src/runtime/recovery.ts';
import { stateHash } from '../../../src/engine/state-hash.ts';
import { filledStore, SERVER_KEY, tablesAt, tempDir } from './fixture.ts';

const sqliteAt = (dataDir: string) => ({ dataDir, databaseUrl: undefined });

/** A backup of a filled SQLite store; the source, and the backup's directory. */
async function sqliteBackup(t: TestContext) {
  const source = await filledStore(t, sqliteAt(tempDir(t, 'bourse-source-')));
  const dir = join(tempDir(t, 'bourse-backups-'), 'backup');
  await takeBackup(source.at, dir, { serverKeyInEnvironment: false });
  return { source, dir };
}

test('restoreBackup when the target is empty restores every table, the key and the credentials', async (t) => {
  const { source, dir } = await sqliteBackup(t);
  const target = sqliteAt(join(tempDir(t, 'bourse-target-'), 'data'));
  const report = await restoreBackup(dir, target, { replace: false });
  assert.equal(report.lastSeq, source.lastSeq);
  assert.equal(report.stateHash, source.hash);
  assert.deepEqual(await tablesAt(target), await tablesAt(source.at));
  assert.equal(readFileSync(join(target.dataDir, 'server.key'), 'utf8'), SERVER_KEY);
  assert.equal(
    readFileSync(join(target.dataDir, 'credentials.json'), 'utf8'),
    readFileSync(join(source.at.dataDir, 'credentials.json'), 'utf8'),
  );
});

test('restoreBackup when a file of the backup is damaged refuses and writes nothing', async (t) => {
  const { dir } = await sqliteBackup(t);
  appendFileSync(join(dir, 'bourse.db'), 'x');
  const target = sqliteAt(join(tempDir(t, 'bourse-target-'), 'data'));
  await assert.rejects(restoreBackup(dir, target, { replace: false }), /bourse\.db does not match/);
  assert.equal(existsSync(target.dataDir), false, 'not even the data directory was made');
});

test('restoreBackup when the backup was taken by a newer bourse refuses', async (t) => {
  const { dir } = await sqliteBackup(t);
  const manifestFile = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { schemaVersions: number[] };
  manifest.schemaVersions.push(999_999);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const target = sqliteAt(tempDir(t, 'bourse-target-'));
  await assert.rejects(restoreBackup(dir, target, { replace: false }), /newer version/);
});

test('restoreBackup when the target store holds data refuses, and replaces it when told', async (t) => {
  const { source, dir } = await sqliteBackup(t);
  const target = sqliteAt(tempDir(t, 'bourse-target-'));
  const other = await filledStore(t, target, 'cd'.repeat(32));
  // The target's own server has stopped; its store was written, its WAL may hold pages.
  await other.store.close();
  await assert.rejects(restoreBackup(dir, target, { replace: false }), /is not empty.*--force/);
  const report = await restoreBackup(dir, target, { replace: true });
  assert.equal(report.stateHash, source.hash);
  assert.deepEqual(await tablesAt(target), await tablesAt(source.at));
  assert.equal(readFileSync(join(target.dataDir, 'server.key'), 'utf8'), SERVER_KEY);
});

test('restoreBackup when a server has the target store open refuses, even when told to replace', async (t) => {
  const { dir } = await sqliteBackup(t);
  const target = sqliteAt(tempDir(t, 'bourse-target-'));
  await filledStore(t, target);
  await assert.rejects(restoreBackup(dir, target, { replace: true }), /open in another process/);
});

test('restoreBackup when the target has another server key refuses without replace', async (t) => {
  const { source, dir } = await sqliteBackup(t);
  const target = sqliteAt(tempDir(t, 'bourse-target-'));
  writeFileSync(join(target.dataDir, 'server.key'), 'cd'.repeat(32));
  await assert.rejects(restoreBackup(dir, target, { replace: false }), /server\.key differs/);
  await restoreBackup(dir, target, { replace: true });
  assert.equal(readFileSync(join(target.dataDir, 'server.key'), 'utf8'), SERVER_KEY);
  const store = await openStore({ ...target, sqliteWriter: 'inline' });
  t.after(() => store.close());
  assert.equal(stateHash((await recover(store)).exchange.state), source.hash);
});
