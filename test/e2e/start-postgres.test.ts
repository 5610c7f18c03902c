/**
 * One server per PostgreSQL database: a second server with its own data directory but the
 * same BOURSE_DATABASE_URL is refused, naming the database and the process holding it; once
 * that process is gone (SIGKILL) the lock goes with its session. A data directory without
 * the store's server.key is refused too, until given the key.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnServer } from '../support/child.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

const OPTIONS = { marketDefaults: true };

await postgresTests('PostgreSQL start tests', [
  {
    name: 'second server when another holds the PostgreSQL database is refused naming it and the process',
    options: { timeout: 120_000 },
    async body(t) {
      const database = await databaseFor(t);
      const firstDir = makeTempDir('bourse-pg-lock-');
      const secondDir = makeTempDir('bourse-pg-lock-');
      t.after(() => removeDir(firstDir));
      t.after(() => removeDir(secondDir));
      const url = database.url;
      const first = await spawnServer(
        { BOURSE_DATA_DIR: firstDir, BOURSE_DATABASE_URL: url },
        30_000,
        OPTIONS,
      );
      let killed = false;
      t.after(async () => {
        if (!killed) await first.kill('SIGKILL');
      });
      await assert.rejects(
        spawnServer({ BOURSE_DATA_DIR: secondDir, BOURSE_DATABASE_URL: url }, 30_000, OPTIONS),
        new RegExp(
          `the PostgreSQL database 127\\.0\\.0\\.1:5432/${database.name} \\(BOURSE_DATABASE_URL\\) is in use by ` +
            `"bourse pid ${first.serverPid} on [^"]+" \\(PostgreSQL backend pid \\d+`,
        ),
      );
      await first.kill('SIGKILL');
      killed = true;
      await assert.rejects(
        spawnServer({ BOURSE_DATA_DIR: secondDir, BOURSE_DATABASE_URL: url }, 30_000, OPTIONS),
        /server\.key is missing and PostgreSQL .* holds 1 API key secret sealed under another server key/,
      );
      const key = readFileSync(join(firstDir, 'server.key'), 'utf8').trim();
      const env = { BOURSE_DATA_DIR: secondDir, BOURSE_DATABASE_URL: url, BOURSE_SERVER_KEY: key };
      const second = await spawnServer(env, 30_000, OPTIONS);
      try {
        const credentials = JSON.parse(readFileSync(join(firstDir, 'credentials.json'), 'utf8')) as Record<
          string,
          string
        >;
        const info = await new SigningClient(second.url, {
          apiKey: credentials.apiKey ?? '',
          secretKey: credentials.secretKey ?? '',
          passphrase: credentials.passphrase ?? '',
        }).get('/api/v2/spot/account/info');
        assert.equal(info.body?.code, '00000', info.text);
      } finally {
        await second.kill('SIGTERM');
      }
    },
  },
]);
