/**
 * Sequencer.replace (the operator's reset): what was submitted before becomes durable first,
 * commands during it are refused with SERVICE_RESETTING, the new engine takes over at the new
 * journal's last sequence number, and a store that fails leaves memory equal to what the store
 * holds (the old state, or the new one if the commit happened after all).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Command } from '../../src/domain/commands.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import type { JournalEntry, Store } from '../../src/ports/store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { Sequencer } from '../../src/runtime/sequencer.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

let time = Date.UTC(2026, 10, 1);
const createAccount = (label: string): Command => ({
  type: 'CreateAccount',
  timeMs: (time += 1),
  kind: 'main',
  parentUid: null,
  mode: 'classic',
  label,
});

/** A new engine and the journal that built it: `count` accounts labelled `fresh`. */
function staged(count: number): { exchange: Exchange; entries: JournalEntry[] } {
  const exchange = new Exchange();
  const entries: JournalEntry[] = [];
  for (let seq = 1; seq <= count; seq += 1) {
    const command = createAccount('fresh');
    entries.push({ seq, command, events: exchange.execute(command).events });
  }
  return { exchange, entries };
}

type ReplaceAll = Store['replaceAll'];

function setUp(t: TestContext, replaceAll?: (inner: Store) => ReplaceAll) {
  const dir = makeTempDir('bourse-replace-');
  const inner = openSqliteStore(join(dir, 'bourse.db'), { writer: 'thread' });
  const store: Store = { ...inner, replaceAll: replaceAll ? replaceAll(inner) : inner.replaceAll };
  const sequencer = new Sequencer(new Exchange(), 0, store, {
    snapshotEvery: 0,
    retryMs: { first: 5, longest: 20 },
  });
  t.after(async () => {
    sequencer.stop();
    await inner.close();
    removeDir(dir);
  });
  return { sequencer, inner };
}

const labels = (sequencer: Sequencer) =>
  [...sequencer.exchange.state.accounts.values()].map((account) => account.label);

test('replace when commands are in flight makes them durable first, refuses new ones and hands over to the new engine', async (t) => {
  let journalBefore = -1;
  const { sequencer, inner } = setUp(t, (store) => async (entries) => {
    journalBefore = await store.lastSeq();
    await store.replaceAll(entries);
  });
  const before = [sequencer.submit(createAccount('old')), sequencer.submit(createAccount('old'))];
  const next = staged(3);
  const replacing = sequencer.replace(next.exchange, next.entries);
  const during = await sequencer.submit(createAccount('during'));
  assert.equal(during.ok ? 'OK' : during.code, 'SERVICE_RESETTING');
  assert.deepEqual(
    (await Promise.all(before)).map((outcome) => outcome.ok),
    [true, true],
  );
  assert.deepEqual(await replacing, { ok: true, value: null });
  assert.equal(journalBefore, 2, 'the commands before the replace were durable when it wrote');
  assert.equal(sequencer.lastSeq, 3);
  assert.deepEqual(labels(sequencer), ['fresh', 'fresh', 'fresh']);
  const after = await sequencer.submit<{ uid: string }>(createAccount('after'));
  assert.ok(after.ok);
  assert.equal(after.value.uid, '1000000004', 'uids go on from the new engine');
  assert.equal(await inner.lastSeq(), 4);
  const recovered = await recover(inner);
  assert.equal(stateHash(recovered.exchange.state), stateHash(sequencer.exchange.state));
});

test('replace when the store fails keeps the old state in memory and in the store', async (t) => {
  const { sequencer, inner } = setUp(t, () => () => Promise.reject(new Error('disk full')));
  assert.ok((await sequencer.submit(createAccount('old'))).ok);
  const hash = stateHash(sequencer.exchange.state);
  const next = staged(2);
  const outcome = await sequencer.replace(next.exchange, next.entries);
  assert.equal(outcome.ok ? 'OK' : outcome.code, 'STORE_UNAVAILABLE');
  assert.equal(stateHash(sequencer.exchange.state), hash);
  assert.equal(sequencer.lastSeq, 1);
  assert.ok((await sequencer.submit(createAccount('after'))).ok, 'commands are taken again');
  assert.deepEqual(labels(sequencer), ['old', 'after']);
  assert.equal(await inner.lastSeq(), 2);
});

test('replace when the store commits but reports a failure follows the store to the new state', async (t) => {
  const { sequencer } = setUp(t, (store) => async (entries) => {
    await store.replaceAll(entries);
    throw new Error('connection lost during COMMIT');
  });
  assert.ok((await sequencer.submit(createAccount('old'))).ok);
  const next = staged(2);
  assert.deepEqual(await sequencer.replace(next.exchange, next.entries), { ok: true, value: null });
  assert.deepEqual(labels(sequencer), ['fresh', 'fresh']);
  assert.equal(sequencer.lastSeq, 2);
});

test('replace when one is already running refuses the second', async (t) => {
  const { sequencer } = setUp(t);
  const first = staged(1);
  const second = staged(1);
  const running = sequencer.replace(first.exchange, first.entries);
  const refused = await sequencer.replace(second.exchange, second.entries);
  assert.equal(refused.ok ? 'OK' : refused.code, 'SERVICE_RESETTING');
  assert.ok((await running).ok);
});
