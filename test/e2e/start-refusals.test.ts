/**
 * Starts that must not happen, refused with a message naming the setting and what to do,
 * and leaving nothing half-made: a port in use on a first start, a data directory another
 * server holds (and not one a SIGKILLed server left behind), a server key that does not
 * match the store. Spawned as a user runs it, with the market at its defaults.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnServer } from '../support/child.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

const MARKET_DEFAULTS = { marketDefaults: true };

function start(env: Record<string, string>) {
  return spawnServer(env, 20_000, MARKET_DEFAULTS);
}

async function signedInfoCode(url: string, dataDir: string): Promise<string | undefined> {
  const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Record<
    string,
    string
  >;
  const info = await new SigningClient(url, {
    apiKey: credentials.apiKey ?? '',
    secretKey: credentials.secretKey ?? '',
    passphrase: credentials.passphrase ?? '',
  }).get('/api/v2/spot/account/info');
  return info.body?.code;
}

test(
  'first start when the port is in use makes nothing, and the next start prints the demo credentials',
  { timeout: 60_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-port-');
    t.after(() => removeDir(dataDir));
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const address = squatter.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await assert.rejects(
        start({ BOURSE_DATA_DIR: dataDir, PORT: String(port) }),
        new RegExp(`PORT ${port} on 127\\.0\\.0\\.1 is in use by another process`),
      );
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    assert.deepEqual(
      readdirSync(dataDir).filter((name) => name !== 'bourse.lock'),
      [],
      'no store, server key or credentials were made',
    );
    const next = await start({ BOURSE_DATA_DIR: dataDir });
    try {
      assert.match(next.stdout(), /^\s+secretKey\s+\S+/m, next.stdout());
      assert.equal(await signedInfoCode(next.url, dataDir), '00000');
    } finally {
      await next.kill('SIGTERM');
    }
  },
);

test(
  'second server when the data directory is in use is refused naming the directory and the process',
  { timeout: 90_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-lock-');
    t.after(() => removeDir(dataDir));
    const first = await start({ BOURSE_DATA_DIR: dataDir });
    let firstKilled = false;
    t.after(async () => {
      if (!firstKilled) await first.kill('SIGKILL');
    });
    const escaped = dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await assert.rejects(
      start({ BOURSE_DATA_DIR: dataDir }),
      new RegExp(`BOURSE_DATA_DIR ${escaped} is in use by another bourse process \\(pid ${first.serverPid}`),
    );
    assert.equal(await signedInfoCode(first.url, dataDir), '00000', 'the first server is untouched');
    await first.kill('SIGKILL');
    firstKilled = true;
    assert.ok(existsSync(join(dataDir, 'bourse.pid')), 'a SIGKILLed server leaves its pid file behind');
    const after = await start({ BOURSE_DATA_DIR: dataDir });
    try {
      assert.equal(await signedInfoCode(after.url, dataDir), '00000', 'a stale lock does not block a start');
    } finally {
      await after.kill('SIGTERM');
    }
  },
);

test(
  'start when the server key does not match the store is refused saying how to recover',
  { timeout: 90_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-key-');
    t.after(() => removeDir(dataDir));
    const first = await start({ BOURSE_DATA_DIR: dataDir });
    await first.kill('SIGTERM');
    const keyFile = join(dataDir, 'server.key');
    const key = readFileSync(keyFile, 'utf8').trim();
    await assert.rejects(
      start({ BOURSE_DATA_DIR: dataDir, BOURSE_SERVER_KEY: 'ab'.repeat(32) }),
      /BOURSE_SERVER_KEY does not match the store: SQLite .* holds 1 API key secret sealed under another server key\. Set BOURSE_SERVER_KEY to the key the store was created with, or unset it/,
    );
    rmSync(keyFile);
    await assert.rejects(
      start({ BOURSE_DATA_DIR: dataDir }),
      /server\.key is missing and SQLite .* holds 1 API key secret sealed under another server key: copy the server\.key/,
    );
    assert.ok(!existsSync(keyFile), 'a refused start writes no new server.key');
    writeFileSync(keyFile, key, { mode: 0o600 });
    const restored = await start({ BOURSE_DATA_DIR: dataDir, BOURSE_SERVER_KEY: key });
    try {
      assert.equal(await signedInfoCode(restored.url, dataDir), '00000');
    } finally {
      await restored.kill('SIGTERM');
    }
  },
);
