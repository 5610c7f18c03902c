/** The store contract (store.contract.ts) on SQLite: a fresh file per test. */
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { brokerageContract } from './brokerage.contract.ts';
import { storeContract, type StoreHarness } from './store.contract.ts';

const harness: StoreHarness = {
  kind: 'sqlite',
  async location(t) {
    const dir = makeTempDir('bourse-store-');
    t.after(() => removeDir(dir));
    const file = join(dir, 'bourse.db');
    return {
      open: async () => openSqliteStore(file),
      openForPlans: async () => openSqliteStore(file),
      async exec(sql) {
        const db = new Database(file);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      },
    };
  },
};

for (const { name, options, body } of [...storeContract(harness), ...brokerageContract(harness)]) {
  test(name, options ?? {}, body);
}
