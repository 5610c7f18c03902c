/**
 * `npm start` as a user sees it: the first start prints the base URL, the demo credentials
 * and the operator token and writes them to credentials.json; a second start prints no
 * secret and says where they are. The data directory is created 0700 and its files are
 * 0600, also where an older start left them readable by others; SIGTERM shuts down cleanly.
 */
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnServer } from '../support/child.ts';
import { publicGet } from '../support/http.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

function printed(stdout: string, label: string): string {
  const match = new RegExp(`^\\s+${label}\\s+(\\S+)`, 'm').exec(stdout);
  assert.ok(match?.[1], `${label} not printed:\n${stdout}`);
  return match[1];
}

function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

function readCredentials(dataDir: string): Record<string, string> {
  return JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Record<string, string>;
}

async function signedInfoCode(url: string, credentials: Record<string, string>): Promise<string | undefined> {
  const info = await new SigningClient(url, {
    apiKey: credentials.apiKey ?? '',
    secretKey: credentials.secretKey ?? '',
    passphrase: credentials.passphrase ?? '',
  }).get('/api/v2/spot/account/info');
  return info.body?.code;
}

test(
  'npm start when the data directory is new prints the credentials once and keeps them private',
  { timeout: 60_000 },
  async (t) => {
    const parent = makeTempDir('bourse-start-');
    t.after(() => removeDir(parent));
    const dataDir = join(parent, 'data');
    const first = await spawnServer({ BOURSE_DATA_DIR: dataDir }, 20_000, { marketDefaults: true });
    let credentials: Record<string, string>;
    try {
      const stdout = first.stdout();
      assert.match(stdout, new RegExp(`bourse is listening on ${first.url.replace(/\./g, '\\.')}`));
      credentials = readCredentials(dataDir);
      assert.equal(printed(stdout, 'apiKey'), credentials.apiKey);
      assert.equal(printed(stdout, 'secretKey'), credentials.secretKey);
      assert.equal(printed(stdout, 'passphrase'), credentials.passphrase);
      assert.equal(printed(stdout, 'operator token'), credentials.operatorToken);
      assert.equal(credentials.baseUrl, first.url);
      assert.equal(modeOf(dataDir), 0o700, 'the data directory is created 0700');
      for (const file of ['credentials.json', 'server.key', 'bourse.db', 'bourse.db-wal']) {
        assert.equal(modeOf(join(dataDir, file)), 0o600, `${file} is 0600`);
      }
      const time = await publicGet(first.url, '/api/v2/public/time');
      assert.equal(time.body?.code, '00000');
      assert.equal(await signedInfoCode(first.url, credentials), '00000');
    } finally {
      const exit = await first.kill('SIGTERM');
      assert.equal(exit.code, 0, `clean exit on SIGTERM: ${first.stderr()}`);
    }
    // As an older bourse left them: readable by group and others.
    chmodSync(join(dataDir, 'credentials.json'), 0o644);
    chmodSync(join(dataDir, 'bourse.db'), 0o644);
    const second = await spawnServer({ BOURSE_DATA_DIR: dataDir }, 20_000, { marketDefaults: true });
    try {
      const stdout = second.stdout();
      for (const secret of [credentials.secretKey, credentials.passphrase, credentials.operatorToken]) {
        assert.ok(secret && !stdout.includes(secret), `a secret printed again:\n${stdout}`);
      }
      assert.equal(printed(stdout, 'credentials'), join(dataDir, 'credentials.json'));
      assert.match(stdout, new RegExp(`demo account\\s+uid ${credentials.uid}`));
      assert.equal(modeOf(join(dataDir, 'credentials.json')), 0o600, 'credentials.json is made 0600 again');
      assert.equal(modeOf(join(dataDir, 'bourse.db')), 0o600, 'bourse.db is made 0600 again');
      assert.deepEqual(readCredentials(dataDir), { ...credentials, baseUrl: second.url });
      assert.equal(await signedInfoCode(second.url, credentials), '00000');
    } finally {
      await second.kill('SIGTERM');
    }
  },
);

test('npm start when a setting is invalid stops with a message naming it', { timeout: 30_000 }, async (t) => {
  const dataDir = makeTempDir('bourse-start-');
  t.after(() => removeDir(dataDir));
  await assert.rejects(
    spawnServer({ BOURSE_DATA_DIR: dataDir, BOURSE_CLOCK: 'sundial' }),
    /BOURSE_CLOCK must be real or simulated/,
  );
});
