/**
 * Configuration errors as a user meets them: the message names the variable and what to do,
 * rather than `unable to open database file`, `listen EACCES` or `getaddrinfo ENOTFOUND`.
 * A test running as root runs the server as `nobody` where permissions matter (root may
 * write anywhere and bind any port).
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnServer, type SpawnOptions } from '../support/child.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const NOBODY = 65534;

/** Runs the server as an unprivileged user: this one, or nobody when the tests run as root. */
function unprivileged(): SpawnOptions {
  return process.getuid?.() === 0
    ? { marketDefaults: true, uid: NOBODY, gid: NOBODY }
    : { marketDefaults: true };
}

/** A directory an unprivileged server may enter (a temporary directory is 0700). */
function openParent(t: { after(fn: () => void): void }): string {
  const parent = makeTempDir('bourse-config-');
  t.after(() => removeDir(parent));
  chmodSync(parent, 0o755);
  return parent;
}

test('start when HOST does not resolve names HOST and what to set', { timeout: 30_000 }, async (t) => {
  const dataDir = makeTempDir('bourse-config-');
  t.after(() => removeDir(dataDir));
  await assert.rejects(
    spawnServer({ BOURSE_DATA_DIR: dataDir, HOST: 'no-such-host.invalid' }, 20_000, { marketDefaults: true }),
    /HOST no-such-host\.invalid does not resolve to an address \(getaddrinfo E[A-Z_]+\): set HOST to an address of this machine/,
  );
  assert.ok(!existsSync(join(dataDir, 'bourse.db')), 'nothing was made');
});

test(
  'start when BOURSE_RATE_LIMITS names an unknown path refuses it naming the path',
  { timeout: 30_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-config-');
    t.after(() => removeDir(dataDir));
    const limits = JSON.stringify({ '/api/v2/spot/account/info': 5, '/api/v2/spot/acount/info': 5 });
    await assert.rejects(
      spawnServer({ BOURSE_DATA_DIR: dataDir, BOURSE_RATE_LIMITS: limits }, 20_000, { marketDefaults: true }),
      /BOURSE_RATE_LIMITS: \/api\/v2\/spot\/acount\/info is not a path bourse limits/,
    );
  },
);

test(
  'start when the data directory is not writable names BOURSE_DATA_DIR and the user',
  { timeout: 30_000 },
  async (t) => {
    const dataDir = join(openParent(t), 'data');
    mkdirSync(dataDir, { mode: 0o555 });
    chmodSync(dataDir, 0o555);
    await assert.rejects(
      spawnServer({ BOURSE_DATA_DIR: dataDir }, 20_000, unprivileged()),
      new RegExp(
        `BOURSE_DATA_DIR ${dataDir} is not writable \\(permission denied, EACCES\\): give uid \\d+ .*write access to it`,
      ),
    );
  },
);

test(
  'start when the store in the data directory belongs to another user names BOURSE_DATA_DIR and the file',
  { timeout: 30_000 },
  async (t) => {
    const options = unprivileged();
    const dataDir = join(openParent(t), 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    // A store made by another user (root here, or a file this user cannot write).
    writeFileSync(join(dataDir, 'bourse.db'), '', { mode: 0o444 });
    chmodSync(join(dataDir, 'bourse.db'), 0o444);
    if (options.uid !== undefined) chownSync(dataDir, options.uid, options.gid ?? options.uid);
    await assert.rejects(
      spawnServer({ BOURSE_DATA_DIR: dataDir }, 20_000, options),
      new RegExp(
        `BOURSE_DATA_DIR ${dataDir}: bourse\\.db is not writable \\(permission denied, EACCES\\): give uid \\d+ .*ownership`,
      ),
    );
  },
);

test(
  'start when PORT is below 1024 and unprivileged names PORT and what to set',
  { timeout: 30_000 },
  async (t) => {
    const setting = '/proc/sys/net/ipv4/ip_unprivileged_port_start';
    const lowest = existsSync(setting) ? Number(readFileSync(setting, 'utf8').trim()) : 0;
    if (!(lowest > 80)) {
      t.skip(`this system may let any user bind port 80 (${setting}: ${lowest || 'absent'})`);
      return;
    }
    const dataDir = join(openParent(t), 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const options = unprivileged();
    if (options.uid !== undefined) chownSync(dataDir, options.uid, options.gid ?? options.uid);
    await assert.rejects(
      spawnServer({ BOURSE_DATA_DIR: dataDir, PORT: '80' }, 20_000, options),
      /PORT 80 needs privileges on this system \(EACCES: ports below 1024 are reserved\): set PORT to 1024 or above/,
    );
  },
);
