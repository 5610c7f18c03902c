/**
 * Secrets at rest (src/security/secrets.ts): an API key's secret and passphrase are shown once
 * and stored only sealed (AES-256-GCM) and hashed (scrypt). No file of the data directory but
 * credentials.json (the demo key, mode 0600) and no log line holds them in clear.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OperatorClient } from '../support/operator.ts';
import { makeTempDir, removeDir, startTestServer, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

test('issued api key when stored and used keeps its secret and passphrase out of every file and log', async (t) => {
  const dataDir = makeTempDir();
  t.after(() => removeDir(dataDir));
  const server = await startTestServer({ dataDir });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  const key = await operator.createApiKey(uid, { passphrase: 'Chosen1Passphrase' });
  const signed = await new SigningClient(server.url, key).get('/api/v2/spot/account/info');
  assert.equal(signed.body?.code, '00000', signed.text);
  await server.services.sequencer.snapshot();
  await server.stop();
  const files = readdirSync(dataDir).filter((name) => name !== 'credentials.json');
  assert.ok(files.includes('bourse.db'), files.join(' '));
  const stored = files.map((name) => readFileSync(join(dataDir, name)));
  assert.ok(
    stored.some((bytes) => bytes.includes(Buffer.from(key.apiKey))),
    'the key itself is stored in clear: the search finds what is there',
  );
  for (const name of files) {
    const bytes = readFileSync(join(dataDir, name));
    for (const secret of [key.secretKey, key.passphrase]) {
      assert.equal(bytes.includes(Buffer.from(secret)), false, `${name} holds a secret in clear`);
    }
  }
  for (const line of server.logs) {
    assert.ok(!line.includes(key.secretKey) && !line.includes(key.passphrase), line.slice(0, 120));
  }
});
