/**
 * The sequencer against a store whose appends can be held in flight or made to fail: one
 * append at a time and in order, answers only after durability, STORE_UNAVAILABLE for a
 * failed batch and everything queued behind it, and service resuming by itself once the
 * store is back. The store underneath is a real SQLite store.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Command } from '../../src/domain/commands.ts';
import { parseMoney } from '../../src/domain/money.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import type { JournalEntry, Store } from '../../src/ports/store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { Projector } from '../../src/runtime/projector.ts';
import { Sequencer, type SequencerOptions } from '../../src/runtime/sequencer.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const T0 = Date.UTC(2026, 10, 1);

/** A store whose appends can be held (`hold`) or failed (`down`), recording each batch. */
class FaultyStore {
  down = false;
  held: (() => void) | null = null;
  hold = false;
  inFlight = 0;
  maxInFlight = 0;
  batches: number[][] = [];
  readonly store: Store;

  constructor(readonly inner: Store) {
    const fault = () => {
      if (this.down) throw new Error('store is down');
    };
    this.store = {
      ...inner,
      latestSnapshot: async () => (fault(), inner.latestSnapshot()),
      journalAfter: (seq) => {
        fault();
        return inner.journalAfter(seq);
      },
      lastSeq: async () => (fault(), inner.lastSeq()),
      saveSnapshot: async (snapshot) => (fault(), inner.saveSnapshot(snapshot)),
      append: (entries) => this.append(entries),
    };
  }

  private async append(entries: readonly JournalEntry[]): Promise<void> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.hold) await new Promise<void>((resolve) => (this.held = resolve));
      if (this.down) throw new Error('store is down');
      this.batches.push(entries.map((entry) => entry.seq));
      await this.inner.append(entries);
    } finally {
      this.inFlight -= 1;
    }
  }

  release(): void {
    const held = this.held;
    this.held = null;
    held?.();
  }
}

function setUp(t: TestContext, snapshotEvery = 0, options: Partial<SequencerOptions> = {}) {
  const dir = makeTempDir('bourse-sequencer-');
  const inner = openSqliteStore(join(dir, 'bourse.db'));
  t.after(async () => {
    await inner.close();
    removeDir(dir);
  });
  const faulty = new FaultyStore(inner);
  const sequencer = new Sequencer(new Exchange(), 0, faulty.store, {
    snapshotEvery,
    retryMs: { first: 5, longest: 20 },
    ...options,
  });
  t.after(() => sequencer.stop());
  return { faulty, sequencer, inner };
}

let time = T0;
const createAccount = (): Command => ({
  type: 'CreateAccount',
  timeMs: (time += 1),
  kind: 'main',
  parentUid: null,
  mode: 'classic',
  label: '',
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let step = 0; step < 500 && !condition(); step += 1) await new Promise((r) => setTimeout(r, 5));
  assert.ok(condition(), `timed out waiting for ${what}`);
}

test('submit when an append is in flight queues later commands as the next batch', async (t) => {
  const { faulty, sequencer } = setUp(t);
  faulty.hold = true;
  const first = sequencer.submit(createAccount());
  await until(() => faulty.held !== null, 'the first append');
  const later = [sequencer.submit(createAccount())];
  await nextTurn();
  later.push(sequencer.submit(createAccount()), sequencer.submit(createAccount()));
  await nextTurn();
  assert.equal(faulty.inFlight, 1, 'no second append while the first is in flight');
  let answered = false;
  void first.then(() => (answered = true));
  await nextTurn();
  assert.equal(answered, false, 'no answer before its append returns');
  faulty.hold = false;
  faulty.release();
  assert.equal((await first).ok, true);
  const outcomes = await Promise.all(later);
  assert.ok(outcomes.every((outcome) => outcome.ok));
  assert.deepEqual(faulty.batches, [[1], [2, 3, 4]], 'the queued commands formed one batch, in order');
  assert.equal(faulty.maxInFlight, 1);
});

test('pendingCommands and onAppended when appends are in flight and settle report the queue and each append', async (t) => {
  const appended: [commands: number, ok: boolean][] = [];
  const { faulty, sequencer } = setUp(t, 0, {
    onAppended: (commands, durationMs, ok) => {
      assert.ok(durationMs >= 0);
      appended.push([commands, ok]);
    },
  });
  faulty.hold = true;
  const first = sequencer.submit(createAccount());
  await until(() => faulty.held !== null, 'the first append');
  const later = [sequencer.submit(createAccount()), sequencer.submit(createAccount())];
  assert.deepEqual([sequencer.pendingCommands, sequencer.appendsInFlight], [3, 1]);
  faulty.hold = false;
  faulty.release();
  await Promise.all([first, ...later]);
  assert.deepEqual([sequencer.pendingCommands, sequencer.appendsInFlight], [0, 0]);
  assert.deepEqual(appended, [
    [1, true],
    [2, true],
  ]);
  faulty.down = true;
  assert.deepEqual(await sequencer.submit(createAccount()), { ok: false, code: 'STORE_UNAVAILABLE' });
  assert.deepEqual(appended.at(-1), [1, false]);
  assert.equal(sequencer.pendingCommands, 0);
  faulty.down = false;
  await until(() => !sequencer.unavailable, 'the rebuild');
});

test('submit when the append fails answers STORE_UNAVAILABLE for it and for what queued behind it', async (t) => {
  const { faulty, sequencer, inner } = setUp(t);
  assert.equal((await sequencer.submit(createAccount())).ok, true);
  faulty.hold = true;
  const failed = sequencer.submit(createAccount());
  await until(() => faulty.held !== null, 'the append');
  const queued = sequencer.submit(createAccount());
  faulty.down = true;
  faulty.hold = false;
  faulty.release();
  assert.deepEqual(await failed, { ok: false, code: 'STORE_UNAVAILABLE' });
  assert.deepEqual(await queued, { ok: false, code: 'STORE_UNAVAILABLE' });
  assert.deepEqual(await sequencer.submit(createAccount()), { ok: false, code: 'STORE_UNAVAILABLE' });
  assert.equal(sequencer.unavailable, true);
  faulty.down = false;
  await until(() => !sequencer.unavailable, 'the rebuild');
  assert.equal(sequencer.exchange.state.accounts.size, 1, 'nothing unacknowledged stayed in memory');
  assert.equal((await sequencer.submit(createAccount())).ok, true, 'service resumed by itself');
  assert.equal(stateHash((await recover(inner)).exchange.state), stateHash(sequencer.exchange.state));
});

test('submit when the store is down for a while refuses at once and resumes when it returns', async (t) => {
  const { faulty, sequencer } = setUp(t);
  assert.equal((await sequencer.submit(createAccount())).ok, true);
  faulty.down = true;
  assert.equal((await sequencer.submit(createAccount())).ok, false);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(await sequencer.submit(createAccount()), { ok: false, code: 'STORE_UNAVAILABLE' });
  }
  faulty.down = false;
  await until(() => !sequencer.unavailable, 'the rebuild');
  assert.equal((await sequencer.submit(createAccount())).ok, true);
  assert.equal(sequencer.exchange.state.accounts.size, 2);
  assert.equal(sequencer.lastSeq, 2);
});

test('snapshot when commands keep arriving is taken at a batch boundary and recovers exactly', async (t) => {
  const { sequencer, inner } = setUp(t, 10);
  const pending: Promise<unknown>[] = [];
  for (let turn = 0; turn < 30; turn += 1) {
    pending.push(sequencer.submit(createAccount()), sequencer.submit(createAccount()));
    await nextTurn();
  }
  await Promise.all(pending);
  await sequencer.drain();
  const snapshot = await inner.latestSnapshot();
  assert.ok(snapshot && snapshot.seq >= 10, 'a snapshot was written under load');
  const recovered = await recover(inner);
  assert.equal(recovered.seq, 60);
  assert.equal(recovered.replayed, 60 - (snapshot?.seq ?? 0));
  assert.equal(stateHash(recovered.exchange.state), stateHash(sequencer.exchange.state));
});

/** A sequencer over a SQLite store whose writes run in the writer thread (appends queued). */
function setUpThreaded(t: TestContext, wrap: (inner: Store) => Store = (inner) => inner) {
  const dir = makeTempDir('bourse-sequencer-thread-');
  const inner = openSqliteStore(join(dir, 'bourse.db'), { writer: 'thread' });
  t.after(async () => {
    await inner.close();
    removeDir(dir);
  });
  let inFlight = 0;
  let maxInFlight = 0;
  const wrapped = wrap(inner);
  const store: Store = {
    ...wrapped,
    append: async (entries) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await wrapped.append(entries);
      } finally {
        inFlight -= 1;
      }
    },
  };
  const sequencer = new Sequencer(new Exchange(), 0, store, {
    snapshotEvery: 0,
    retryMs: { first: 5, longest: 20 },
    groupCommands: 4,
  });
  t.after(() => sequencer.stop());
  return { sequencer, inner, maxInFlight: () => maxInFlight };
}

test('submit when the store queues appends hands over each group mid-turn, several in flight, answered in order', async (t) => {
  const { sequencer, inner, maxInFlight } = setUpThreaded(t);
  assert.equal(inner.appendsInFlight, 4);
  const answered: number[] = [];
  const outcomes = Array.from({ length: 40 }, (_, index) =>
    sequencer.submit(createAccount()).then((outcome) => {
      answered.push(index);
      return outcome;
    }),
  );
  assert.ok((await Promise.all(outcomes)).every((outcome) => outcome.ok));
  assert.deepEqual(
    answered,
    [...answered].sort((a, b) => a - b),
    'answers in submission order',
  );
  assert.ok(maxInFlight() > 1, `appends in flight at once: ${maxInFlight()}`);
  assert.equal(await inner.lastSeq(), 40);
  assert.equal(stateHash((await recover(inner)).exchange.state), stateHash(sequencer.exchange.state));
});

test('submit when a queued append fails refuses the appends behind it unwritten, then resumes', async (t) => {
  let calls = 0;
  // The third append is made to fail inside the writer thread (its first sequence number is
  // taken already), while later appends are queued behind it.
  const { sequencer, inner } = setUpThreaded(t, (inner) => ({
    ...inner,
    append: (entries) => {
      calls += 1;
      return inner.append(calls === 3 ? entries.map((entry) => ({ ...entry, seq: 1 })) : entries);
    },
  }));
  const outcomes = await Promise.all(Array.from({ length: 40 }, () => sequencer.submit(createAccount())));
  const firstFailed = outcomes.findIndex((outcome) => !outcome.ok);
  // Appends queued together in the thread commit as one (all or none), so the groups before
  // the failed one may have failed with it: what was acknowledged is whole groups of four.
  assert.ok(firstFailed >= 0 && firstFailed <= 8 && firstFailed % 4 === 0, `acknowledged ${firstFailed}`);
  assert.ok(
    outcomes.slice(firstFailed).every((outcome) => !outcome.ok && outcome.code === 'STORE_UNAVAILABLE'),
    'the failed group and everything after it answered STORE_UNAVAILABLE',
  );
  await until(() => !sequencer.unavailable, 'the rebuild');
  assert.equal(await inner.lastSeq(), firstFailed, 'nothing after the failed append was written: no gap');
  assert.equal(
    sequencer.exchange.state.accounts.size,
    firstFailed,
    'memory holds exactly what was acknowledged',
  );
  assert.equal((await sequencer.submit(createAccount())).ok, true, 'service resumed by itself');
  assert.equal(await inner.lastSeq(), firstFailed + 1);
  assert.equal(stateHash((await recover(inner)).exchange.state), stateHash(sequencer.exchange.state));
});

/**
 * A SQLite store whose appends queue in order, as the writer thread does, each waiting for
 * its gate (`gates`, opened by the test); `batches` records the sequence numbers of each.
 */
function gatedStore(
  t: TestContext,
  name: string,
  settings: Pick<Store, 'appendsInFlight' | 'partialGroupsBeside'>,
): { store: Store; inner: Store; batches: number[][]; gates: (() => void)[] } {
  const dir = makeTempDir(`bourse-sequencer-${name}-`);
  const inner = openSqliteStore(join(dir, 'bourse.db'));
  t.after(async () => {
    await inner.close();
    removeDir(dir);
  });
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  let chain: Promise<void> = Promise.resolve();
  const store: Store = {
    ...inner,
    ...settings,
    append: (entries) => {
      batches.push(entries.map((entry) => entry.seq));
      const gate = new Promise<void>((resolve) => gates.push(resolve));
      const appended = chain.then(() => gate).then(() => inner.append(entries));
      chain = appended;
      return appended;
    },
  };
  return { store, inner, batches, gates };
}

test('submit when appends are in flight hands over a full group at once and lets a partial one grow until they return', async (t) => {
  const { store, inner, batches, gates } = gatedStore(t, 'groups', { appendsInFlight: 4 });
  const sequencer = new Sequencer(new Exchange(), 0, store, { snapshotEvery: 0, groupCommands: 4 });
  t.after(() => sequencer.stop());

  const first = sequencer.submit(createAccount());
  await nextTurn();
  assert.deepEqual(batches, [[1]], 'a partial group goes at the end of its turn when nothing is in flight');
  const partial = [sequencer.submit(createAccount())];
  await nextTurn();
  partial.push(sequencer.submit(createAccount()));
  await nextTurn();
  assert.deepEqual(batches, [[1]], 'a partial group waits while an append is in flight');
  const full = Array.from({ length: 2 }, () => sequencer.submit(createAccount()));
  assert.deepEqual(batches, [[1], [2, 3, 4, 5]], 'a full group goes at once, beside the one in flight');
  for (const open of gates.splice(0)) open();
  await Promise.all([first, ...partial, ...full]);
  assert.equal(await inner.lastSeq(), 5);
  assert.equal(stateHash((await recover(inner)).exchange.state), stateHash(sequencer.exchange.state));
});

test('submit when the store takes partial groups beside appends in flight hands each over at the end of its turn, up to that many', async (t) => {
  const { store, inner, batches, gates } = gatedStore(t, 'partial', {
    appendsInFlight: 3,
    partialGroupsBeside: 2,
  });
  const sequencer = new Sequencer(new Exchange(), 0, store, { snapshotEvery: 0, groupCommands: 4 });
  t.after(() => sequencer.stop());

  const submitted = [sequencer.submit(createAccount())];
  await nextTurn();
  submitted.push(sequencer.submit(createAccount()), sequencer.submit(createAccount()));
  await nextTurn();
  assert.deepEqual(batches, [[1], [2, 3]], 'a partial group goes beside the append in flight');
  submitted.push(sequencer.submit(createAccount()));
  await nextTurn();
  assert.deepEqual(batches, [[1], [2, 3]], 'with two in flight a partial group waits');
  submitted.push(sequencer.submit(createAccount()), sequencer.submit(createAccount()));
  submitted.push(sequencer.submit(createAccount()));
  assert.deepEqual(batches, [[1], [2, 3], [4, 5, 6, 7]], 'a full group still goes beside them');
  submitted.push(sequencer.submit(createAccount()));
  await nextTurn();
  assert.equal(batches.length, 3, 'and a partial one after it waits');
  gates.shift()?.();
  await submitted[0];
  await nextTurn();
  assert.equal(batches.length, 3, 'still two in flight: it waits');
  gates.shift()?.();
  await submitted[1];
  await until(() => batches.length === 4, 'the waiting group handed over once one fewer was in flight');
  assert.deepEqual(batches[3], [8]);
  for (const open of gates.splice(0)) open();
  await Promise.all(submitted);
  assert.equal(await inner.lastSeq(), 8);
  assert.equal(stateHash((await recover(inner)).exchange.state), stateHash(sequencer.exchange.state));
});

/** Instruments and prices, two funded accounts and a BTCUSDT perpetual position between them. */
function fundedPosition(timeMs: number): Command[] {
  const commands: Command[] = [];
  for (const instrument of defaultCatalogue()) {
    commands.push({ type: 'AddInstrument', timeMs, instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
    const { category, symbol } = instrument;
    if (indexPrice) commands.push({ type: 'SetIndexPrice', timeMs, category, symbol, indexPrice });
  }
  for (const uid of ['1000000001', '1000000002']) {
    commands.push(
      { type: 'CreateAccount', timeMs, kind: 'main', parentUid: null, mode: 'classic', label: '' },
      {
        type: 'Deposit',
        timeMs,
        uid,
        coin: 'USDT',
        amount: parseMoney('10000') ?? 0n,
        wallet: 'usdt_futures',
        subType: 'onchain',
      },
    );
  }
  const order = (side: 'buy' | 'sell') => ({
    symbol: 'BTCUSDT',
    side,
    orderType: 'limit' as const,
    timeInForce: 'gtc' as const,
    stpMode: 'none' as const,
    quantity: '0.1',
    price: '60000',
  });
  commands.push(
    { type: 'PlaceOrders', timeMs, uid: '1000000001', category: 'USDT-FUTURES', items: [order('sell')] },
    { type: 'PlaceOrders', timeMs, uid: '1000000002', category: 'USDT-FUTURES', items: [order('buy')] },
    { type: 'SetFundingRate', timeMs, category: 'USDT-FUTURES', symbol: 'BTCUSDT', rate: '0.001' },
  );
  return commands;
}

test('submit when a command throws after the clock jobs ran leaves the state as before it and loses no bill', async (t) => {
  const { sequencer, inner } = setUp(t);
  for (const command of fundedPosition(T0 + 60_000)) {
    const outcome = await sequencer.submit(command);
    assert.equal(outcome.ok, true, `${command.type}: ${outcome.ok ? '' : outcome.code}`);
  }
  const before = stateHash(sequencer.exchange.state);
  const fundingTimeMs = T0 + 8 * 60 * 60 * 1000;
  // A command past the funding time that throws inside the engine, after funding settled.
  const accounts = sequencer.exchange.state.accounts;
  const realGet = accounts.get.bind(accounts);
  accounts.get = (uid: string) => {
    if (uid === '999') throw new Error('injected engine fault');
    return realGet(uid);
  };
  const thrown = await sequencer.submit({
    type: 'Deposit',
    timeMs: fundingTimeMs + 1,
    uid: '999',
    coin: 'USDT',
    amount: 1n,
    wallet: 'spot',
    subType: 'onchain',
  });
  assert.deepEqual(thrown, { ok: false, code: 'SYSTEM_ERROR' });
  assert.equal(stateHash(sequencer.exchange.state), before, 'the state is exactly as before the command');
  // The next command runs the funding settlement, journaled with its bills.
  assert.equal((await sequencer.submit({ ...createAccount(), timeMs: fundingTimeMs + 2 })).ok, true);
  await sequencer.drain();
  const fundingBills = await inner.bills({
    uid: '1000000002',
    wallets: ['usdt_futures'],
    businessTypes: ['contract_settle_fee'],
    limit: 10,
  });
  assert.equal(fundingBills.length, 1, 'the funding bill was written');
  assert.deepEqual(conservationImbalances(sequencer.exchange.state), []);
  assert.equal(stateHash((await recover(inner)).exchange.state), stateHash(sequencer.exchange.state));
});

test('snapshot at a stop when the projector cannot write gives up at its first failure, saving nothing', async (t) => {
  const dir = makeTempDir('bourse-sequencer-');
  const inner = openSqliteStore(join(dir, 'bourse.db'));
  t.after(async () => {
    await inner.close();
    removeDir(dir);
  });
  const failures: unknown[] = [];
  // A store outage that outlasts the stop (the data directory gone, the database down).
  const projector = new Projector({ project: () => Promise.reject(new Error('disk gone')) }, 0, {
    retryMs: { first: 2_000, longest: 2_000 },
    onError: (error) => failures.push(error),
  });
  t.after(() => projector.stop());
  const storeErrors: string[] = [];
  const sequencer = new Sequencer(new Exchange(), 0, inner, {
    snapshotEvery: 0,
    projector,
    onStoreError: (error) => storeErrors.push(String(error)),
  });
  assert.equal((await sequencer.submit(createAccount())).ok, true, 'acknowledged on the journal alone');
  const startedMs = Date.now();
  await sequencer.snapshot();
  // Before: up to 10 s in the drain and 60 s in the snapshot's wait, the store retried meanwhile.
  assert.ok(Date.now() - startedMs < 1_500, `the stop's snapshot took ${Date.now() - startedMs} ms`);
  assert.equal(failures.length, 1);
  assert.match(storeErrors.join('\n'), /snapshot at 1 given up: the projector is at 0/);
  assert.equal(await inner.latestSnapshot(), null, 'no snapshot ahead of the projector');
  assert.equal(await inner.lastSeq(), 1, 'the journal holds the acknowledged command');
});
