/**
 * A first start's seed is stored in one step: after it the store holds every instrument and the
 * demo account, and when the step fails (the store refuses it, or credentials.json cannot be
 * written) the store holds nothing, so the next start seeds again from the top.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Exchange } from '../../src/engine/exchange.ts';
import { defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import type { Store } from '../../src/ports/store.ts';
import { realClock } from '../../src/runtime/clocks.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { Sequencer } from '../../src/runtime/sequencer.ts';
import { SecretBox } from '../../src/security/secrets.ts';
import { seedFirstStartAtomically, type FirstStartSeed } from '../../src/startup/first-start.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

function setUp(t: TestContext, refuseReplace = false) {
  const dir = makeTempDir('bourse-first-start-');
  const store = openSqliteStore(join(dir, 'bourse.db'));
  t.after(async () => {
    await store.close();
    removeDir(dir);
  });
  const seen: Store = refuseReplace
    ? Object.assign(Object.create(store) as Store, {
        replaceAll: () => Promise.reject(new Error('disk full')),
      })
    : store;
  const sequencer = new Sequencer(new Exchange(), 0, seen, { snapshotEvery: 0 });
  t.after(() => sequencer.stop());
  const seed: FirstStartSeed = {
    sequencer,
    clock: realClock(),
    clockStartMs: Date.now(),
    box: new SecretBox(randomBytes(32)),
    demo: { positionMode: 'one_way_mode' },
  };
  return { store, sequencer, seed };
}

test('a first start stores the instruments and the demo account in one step', async (t) => {
  const { store, sequencer, seed } = setUp(t);
  const demo = await seedFirstStartAtomically(seed, (key) => Promise.resolve(key));
  assert.ok(demo, 'the demo key reaches the credentials');
  const recovered = await recover(store);
  assert.equal(recovered.seq, sequencer.lastSeq);
  const state = recovered.exchange.state;
  assert.equal(state.instruments.size, defaultCatalogue().length);
  assert.ok(state.accounts.has(demo.uid), 'the demo account is stored with the instruments');
});

test('a first start whose store refuses the seed leaves the store empty and says so', async (t) => {
  const { store, seed } = setUp(t, true);
  await assert.rejects(
    seedFirstStartAtomically(seed, (key) => Promise.resolve(key)),
    /first start: the seed was not stored/,
  );
  assert.equal((await recover(store)).seq, 0, 'nothing half-seeded: the next start seeds again');
});

test('a first start whose credentials cannot be written stores nothing', async (t) => {
  const { store, seed } = setUp(t);
  await assert.rejects(
    seedFirstStartAtomically(seed, () => Promise.reject(new Error('EACCES credentials.json'))),
    /EACCES/,
  );
  assert.equal((await recover(store)).seq, 0);
});
