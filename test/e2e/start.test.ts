/**
 * `npm start` as a user sees it: the first start prints the base URL, the demo credentials
 * and the operator token and writes them to credentials.json (0600); a second start prints
 * the same credentials; SIGTERM shuts down cleanly.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
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

test(
  'npm start when the data directory is new prints the credentials it stored',
  { timeout: 30_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-start-');
    t.after(() => removeDir(dataDir));
    const first = await spawnServer({ BOURSE_DATA_DIR: dataDir });
    let credentials: Record<string, string>;
    try {
      const stdout = first.stdout();
      assert.match(stdout, new RegExp(`bourse is listening on ${first.url.replace(/\./g, '\\.')}`));
      credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as Record<
        string,
        string
      >;
      assert.equal(statSync(join(dataDir, 'credentials.json')).mode & 0o777, 0o600);
      assert.equal(printed(stdout, 'apiKey'), credentials.apiKey);
      assert.equal(printed(stdout, 'secretKey'), credentials.secretKey);
      assert.equal(printed(stdout, 'passphrase'), credentials.passphrase);
      assert.equal(printed(stdout, 'operator token'), credentials.operatorToken);
      assert.equal(credentials.baseUrl, first.url);
      const time = await publicGet(first.url, '/api/v2/public/time');
      assert.equal(time.body?.code, '00000');
      const info = await new SigningClient(first.url, {
        apiKey: credentials.apiKey ?? '',
        secretKey: credentials.secretKey ?? '',
        passphrase: credentials.passphrase ?? '',
      }).get('/api/v2/spot/account/info');
      assert.equal(info.body?.code, '00000', info.text);
    } finally {
      const exit = await first.kill('SIGTERM');
      assert.equal(exit.code, 0, `clean exit on SIGTERM: ${first.stderr()}`);
    }
    const second = await spawnServer({ BOURSE_DATA_DIR: dataDir });
    try {
      const stdout = second.stdout();
      assert.equal(printed(stdout, 'apiKey'), credentials.apiKey);
      assert.equal(printed(stdout, 'operator token'), credentials.operatorToken);
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
