/**
 * The data directory: created 0700, an existing one left as it is, and one that is a file
 * refused naming BOURSE_DATA_DIR. (Unwritable: test/e2e/start-config-errors.test.ts, which
 * runs the server as an unprivileged user.)
 */
import assert from 'node:assert/strict';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { prepareDataDir } from '../../src/startup/data-dir.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

test('prepareDataDir when the directory is missing creates it and its parents 0700', (t) => {
  const parent = makeTempDir('bourse-data-dir-');
  t.after(() => removeDir(parent));
  const dir = join(parent, 'a', 'data');
  prepareDataDir(dir);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
});

test('prepareDataDir when the directory exists keeps its mode', (t) => {
  const dir = makeTempDir('bourse-data-dir-');
  t.after(() => removeDir(dir));
  chmodSync(dir, 0o750);
  prepareDataDir(dir);
  assert.equal(statSync(dir).mode & 0o777, 0o750);
});

test('prepareDataDir when the path is a file names BOURSE_DATA_DIR', (t) => {
  const parent = makeTempDir('bourse-data-dir-');
  t.after(() => removeDir(parent));
  const file = join(parent, 'file');
  writeFileSync(file, '');
  assert.throws(
    () => prepareDataDir(file),
    /^Error: BOURSE_DATA_DIR .*file cannot be created \(it exists and is not a directory, EEXIST\)/,
  );
  assert.throws(
    () => prepareDataDir(join(file, 'data')),
    /BOURSE_DATA_DIR .* cannot be created \(a part of the path is a file, not a directory, ENOTDIR\)/,
  );
});
