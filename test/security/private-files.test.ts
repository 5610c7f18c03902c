/**
 * Private files are 0600 whatever the umask and whatever mode an older file had, and are
 * replaced whole (no temporary file is left behind).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createPrivateFile, tightenToPrivate, writePrivateFile } from '../../src/security/private-files.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

test('writePrivateFile when the file exists with other bits replaces it with mode 0600', (t) => {
  const dir = makeTempDir('bourse-private-');
  t.after(() => removeDir(dir));
  const file = join(dir, 'credentials.json');
  writeFileSync(file, 'old', { mode: 0o644 });
  writePrivateFile(file, 'new');
  assert.equal(readFileSync(file, 'utf8'), 'new');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir), ['credentials.json']);
});

test('createPrivateFile and tightenToPrivate when files are new or readable by others make them 0600', (t) => {
  const dir = makeTempDir('bourse-private-');
  t.after(() => removeDir(dir));
  const made = join(dir, 'bourse.db');
  createPrivateFile(made);
  assert.equal(statSync(made).mode & 0o777, 0o600);
  const old = join(dir, 'bourse.db-wal');
  writeFileSync(old, '', { mode: 0o644 });
  tightenToPrivate(old);
  assert.equal(statSync(old).mode & 0o777, 0o600);
  tightenToPrivate(join(dir, 'absent'));
});
