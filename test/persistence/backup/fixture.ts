/**
 * Stores for backup tests: a data directory holding a SQLite store (or a PostgreSQL database)
 * filled with the trading workload's real command stream, a server key and credentials.json,
 * as a server leaves them; and what a store holds, table by table, to compare two stores.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Exchange } from '../../../src/engine/exchange.ts';
import { stateHash } from '../../../src/engine/state-hash.ts';
import { encode } from '../../../src/persistence/codec.ts';
import type { StoreAt } from '../../../src/persistence/backup/backup.ts';
import type { AnyStore } from '../../../src/persistence/open-store.ts';
import { openStore } from '../../../src/persistence/open-store.ts';
import { dumpTables } from '../../contracts/store.contract.ts';
import { tradingWorkload } from '../../contracts/store-workload.ts';
import { makeTempDir, removeDir } from '../../support/server.ts';

export const SERVER_KEY = 'ab'.repeat(32);

export function tempDir(t: TestContext, prefix: string): string {
  const dir = makeTempDir(prefix);
  t.after(() => removeDir(dir));
  return dir;
}

export interface Source {
  at: StoreAt;
  /** The store, open as a running server would have it. */
  store: AnyStore;
  /** The state hash of the live engine that wrote the store. */
  hash: string;
  lastSeq: number;
}

/** A store at `at` holding the trading workload, with a key and credentials in its data directory. */
export async function filledStore(t: TestContext, at: StoreAt, key = SERVER_KEY): Promise<Source> {
  writeFileSync(join(at.dataDir, 'server.key'), key, { mode: 0o600 });
  writeFileSync(join(at.dataDir, 'credentials.json'), '{"operatorToken":"t"}\n', { mode: 0o600 });
  const store = await openStore({ ...at, sqliteWriter: 'thread' });
  t.after(() => store.close());
  const { engine } = tradingWorkload();
  await store.append(engine.entries.slice(0, 8));
  // A snapshot mid-stream, so recovery of a copy reads a snapshot and the journal after it.
  const atEight = new Exchange();
  for (const entry of engine.entries.slice(0, 8)) atEight.replay(entry.command);
  await store.saveSnapshot({ seq: 8, timeMs: atEight.state.nowMs, body: encode(atEight.state) });
  await store.append(engine.entries.slice(8));
  return { at, store, hash: stateHash(engine.exchange.state), lastSeq: engine.entries.length };
}

/** Every table of the store at `at`, rows by primary key (the journal's and snapshots' too). */
export async function tablesAt(at: StoreAt): Promise<Record<string, unknown>> {
  const store = await openStore({ ...at, sqliteWriter: 'inline' });
  try {
    const tables: Record<string, unknown> = await dumpTables(store);
    for (const name of ['journal', 'snapshots']) {
      const text = `SELECT * FROM ${name} ORDER BY seq`;
      tables[name] = store.kind === 'sqlite' ? store.db.prepare(text).all() : await store.query(text);
    }
    return tables;
  } finally {
    await store.close();
  }
}
