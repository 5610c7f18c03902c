/** The store contract (store.contract.ts) on SQLite, with writes in the writer thread and inline: a fresh file per test. */
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import type { WriterMode } from '../../src/persistence/sqlite/sqlite-writer.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { billPairsContract } from './bill-pairs.contract.ts';
import { brokerageContract } from './brokerage.contract.ts';
import { marketStatsContract } from './market-stats.contract.ts';
import { projectorContract } from './projector.contract.ts';
import { replaceAllContract } from './replace-all.contract.ts';
import { retentionContract } from './retention.contract.ts';
import { storeContract, type StoreHarness } from './store.contract.ts';
import { walletContract } from './wallet.contract.ts';

const harness = (writer: WriterMode): StoreHarness => ({
  kind: writer === 'thread' ? 'sqlite' : 'sqlite, inline writer',
  async location(t) {
    const dir = makeTempDir('bourse-store-');
    t.after(() => removeDir(dir));
    const file = join(dir, 'bourse.db');
    return {
      open: async (options = {}) => openSqliteStore(file, { writer, ...options }),
      openForPlans: async () => openSqliteStore(file, { writer }),
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
});

for (const writer of ['thread', 'inline'] as const) {
  const tests = [
    ...storeContract(harness(writer)),
    ...billPairsContract(harness(writer)),
    ...brokerageContract(harness(writer)),
    ...marketStatsContract(harness(writer)),
    ...walletContract(harness(writer)),
    ...replaceAllContract(harness(writer)),
    ...retentionContract(harness(writer)),
    ...projectorContract(harness(writer)),
  ];
  for (const { name, options, body } of tests) test(name, options ?? {}, body);
}
