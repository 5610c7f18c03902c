/**
 * The data directory's lock: a second holder is refused with the directory and the holder's
 * pid; a released lock, or a pid file left by a process that is gone, blocks nothing.
 * (Across processes, SIGKILL included: test/e2e/start-refusals.test.ts.)
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lockDataDir } from '../../src/runtime/data-dir-lock.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

test('lockDataDir when the directory is already locked refuses naming it and the holder', (t) => {
  const dir = makeTempDir('bourse-lock-');
  t.after(() => removeDir(dir));
  const held = lockDataDir(dir);
  t.after(() => held.release());
  assert.throws(
    () => lockDataDir(dir),
    (error: Error) =>
      error.message.startsWith(
        `BOURSE_DATA_DIR ${dir} is in use by another bourse process (pid ${process.pid}, started `,
      ) && error.message.includes('Stop the other server first, or give this one its own BOURSE_DATA_DIR'),
  );
  const holder = JSON.parse(readFileSync(join(dir, 'bourse.pid'), 'utf8')) as { pid: number };
  assert.equal(holder.pid, process.pid);
  assert.equal(statSync(join(dir, 'bourse.lock')).mode & 0o777, 0o600);
});

test('lockDataDir when the lock was released takes it again and the pid file is gone', (t) => {
  const dir = makeTempDir('bourse-lock-');
  t.after(() => removeDir(dir));
  lockDataDir(dir).release();
  assert.equal(existsSync(join(dir, 'bourse.pid')), false);
  const again = lockDataDir(dir);
  again.release();
  again.release();
});

test('lockDataDir when a pid file was left behind by a process that is gone takes the lock', (t) => {
  const dir = makeTempDir('bourse-lock-');
  t.after(() => removeDir(dir));
  writeFileSync(
    join(dir, 'bourse.pid'),
    JSON.stringify({ pid: 2 ** 22 + 1, host: 'elsewhere', startedAt: 'then' }),
  );
  const held = lockDataDir(dir);
  const holder = JSON.parse(readFileSync(join(dir, 'bourse.pid'), 'utf8')) as { pid: number };
  assert.equal(holder.pid, process.pid, 'the pid file now names this process');
  held.release();
});
