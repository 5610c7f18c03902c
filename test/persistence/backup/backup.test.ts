/**
 * takeBackup (src/persistence/backup/backup.ts) on SQLite, with the store open as a running
 * server has it: what goes into the backup, and that it recovers to the live state. The
 * PostgreSQL side is in postgres-backup.test.ts; backup and restore against a running server
 * in test/admin/backup-cli.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { takeBackup } from '../../../src/persistence/backup/backup.ts';
import { readManifest } from '../../../src/persistence/backup/manifest.ts';
import { filledStore, SERVER_KEY, tempDir } from './fixture.ts';

test('takeBackup when the SQLite store is open copies it with the key and credentials, recovering to the live state', async (t) => {
  const source = await filledStore(t, { dataDir: tempDir(t, 'bourse-source-'), databaseUrl: undefined });
  const dir = join(tempDir(t, 'bourse-backups-'), 'first');
  const manifest = await takeBackup(source.at, dir, { serverKeyInEnvironment: false });
  assert.equal(manifest.store, 'sqlite');
  assert.equal(manifest.lastSeq, source.lastSeq);
  assert.equal(manifest.snapshotSeq, 8);
  assert.equal(manifest.stateHash, source.hash);
  assert.equal(manifest.rows.journal, source.lastSeq - 8 + 1, 'the journal from the snapshot on');
  assert.deepEqual(Object.keys(manifest.files).sort(), ['bourse.db', 'credentials.json', 'server.key']);
  assert.equal(readFileSync(join(dir, 'server.key'), 'utf8'), SERVER_KEY);
  assert.equal(statSync(join(dir, 'bourse.db')).mode & 0o777, 0o600);
  assert.equal(existsSync(join(dir, 'bourse.db-wal')), false, 'a single file, nothing beside it');
  assert.deepEqual(await readManifest(dir), manifest, 'the manifest checks out against the files');
});

test('takeBackup when BOURSE_SERVER_KEY holds the key leaves the key out and says so', async (t) => {
  const source = await filledStore(t, { dataDir: tempDir(t, 'bourse-source-'), databaseUrl: undefined });
  const dir = join(tempDir(t, 'bourse-backups-'), 'first');
  const manifest = await takeBackup(source.at, dir, { serverKeyInEnvironment: true });
  assert.equal(manifest.serverKey, 'environment');
  assert.equal(existsSync(join(dir, 'server.key')), false);
});

test('takeBackup when the directory is not empty refuses and leaves it as it is', async (t) => {
  const source = await filledStore(t, { dataDir: tempDir(t, 'bourse-source-'), databaseUrl: undefined });
  const dir = join(tempDir(t, 'bourse-backups-'), 'used');
  mkdirSync(dir);
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  await assert.rejects(takeBackup(source.at, dir, { serverKeyInEnvironment: false }), /is not empty/);
  assert.equal(existsSync(join(dir, 'manifest.json')), false);
});

test('takeBackup when the data directory has no store says where it looked', async (t) => {
  const dataDir = tempDir(t, 'bourse-empty-');
  const dir = join(tempDir(t, 'bourse-backups-'), 'first');
  await assert.rejects(
    takeBackup({ dataDir, databaseUrl: undefined }, dir, { serverKeyInEnvironment: false }),
    new RegExp(`no SQLite store at ${join(dataDir, 'bourse.db')}`),
  );
});
