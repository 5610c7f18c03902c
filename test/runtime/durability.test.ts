/**
 * Durability: the real server, as a child process, takes a concurrent stream of operator
 * writes; it is SIGKILLed in the middle of the stream and restarted on the same data
 * directory; every write it acknowledged must be there (records by id, accounts by uid, and
 * the balances they add up to). Also recovery from a snapshot plus the journal after it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { spawnServer, type ChildServer } from '../support/child.ts';
import { OperatorClient, type FundingView } from '../support/operator.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const TOKEN = 'durability-operator-token';
const MINOR = 10n ** 8n;

function baseEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    BOURSE_DATA_DIR: dataDir,
    BOURSE_OPERATOR_TOKEN: TOKEN,
    BOURSE_RATE_LIMITS: 'off',
    BOURSE_SEED_DEMO: 'false',
    ...extra,
  };
}

function minor(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * MINOR + BigInt(fraction.padEnd(8, '0'));
}

interface Acknowledged {
  deposits: FundingView[];
  withdrawals: FundingView[];
  accounts: string[];
}

/**
 * Runs `workers` concurrent loops of writes until `stopAfter` acknowledgements, then kills
 * the server with SIGKILL while requests are still in flight. Only answers received before
 * the kill count as acknowledged.
 */
async function writeUntilKilled(
  server: ChildServer,
  uids: string[],
  stopAfter: number,
): Promise<Acknowledged> {
  const operator = new OperatorClient(server.url, TOKEN);
  const acknowledged: Acknowledged = { deposits: [], withdrawals: [], accounts: [] };
  let killed = false;
  let count = 0;
  let killing: Promise<unknown> | null = null;
  const worker = async (index: number) => {
    for (let step = 0; !killed && step < 10_000; step += 1) {
      const uid = uids[(index + step) % uids.length] ?? '';
      const amount = `${(step % 97) + 1}.${String(index).padStart(2, '0')}000001`;
      try {
        if (step % 11 === 5) {
          const { uid: created } = await operator.createAccount({ label: `w${index}s${step}` });
          if (!killed) acknowledged.accounts.push(created);
        } else if (step % 7 === 3) {
          const receipt = await operator.withdraw(uid, { coin: 'USDT', amount: '0.5' });
          if (!killed) acknowledged.withdrawals.push(receipt);
        } else {
          const receipt = await operator.deposit(uid, { coin: 'USDT', amount });
          if (!killed) acknowledged.deposits.push(receipt);
        }
        count += 1;
      } catch {
        if (killed) return;
        throw new Error('a write failed before the kill');
      }
      if (count >= stopAfter && !killing) {
        // Kill while the other workers' requests are in flight.
        killing = server.kill('SIGKILL').then(() => (killed = true));
        killed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, index) => worker(index)));
  await killing;
  return acknowledged;
}

async function fundedAccounts(server: ChildServer, count: number): Promise<string[]> {
  const operator = new OperatorClient(server.url, TOKEN);
  const uids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: '1000' });
    uids.push(uid);
  }
  return uids;
}

/** Checks every acknowledged write after a restart; returns how many funding records are durable. */
async function assertAllPresent(
  dataDir: string,
  uids: string[],
  acknowledged: Acknowledged,
): Promise<number> {
  let durable = 0;
  const restarted = await spawnServer(baseEnv(dataDir));
  try {
    const operator = new OperatorClient(restarted.url, TOKEN);
    for (const uid of acknowledged.accounts) {
      assert.equal((await operator.getAccount(uid)).uid, uid, `acknowledged account ${uid} is missing`);
    }
    const balances = new Map<string, bigint>();
    for (const uid of uids) {
      const view = await operator.getAccount(uid);
      balances.set(uid, minor(view.wallets.spot?.USDT?.available ?? '0'));
    }
    await restarted.kill('SIGTERM');
    // The journal's records, read straight from the store once the server is down.
    const store = openSqliteStore(join(dataDir, 'bourse.db'));
    try {
      for (const uid of uids) {
        const records = await store.fundingRecords(uid, 1_000_000);
        durable += records.length;
        const ids = new Set(records.map((record) => record.recordId));
        for (const receipt of [...acknowledged.deposits, ...acknowledged.withdrawals]) {
          if (receipt.uid === uid)
            assert.ok(ids.has(receipt.id), `acknowledged ${receipt.type} ${receipt.id} is missing`);
        }
        const total = records.reduce(
          (sum, record) => sum + (record.direction === 'deposit' ? record.amount : -record.amount),
          0n,
        );
        assert.equal(balances.get(uid), total, `balance of ${uid} equals its durable records`);
        const acknowledgedTotal = [...acknowledged.deposits, ...acknowledged.withdrawals]
          .filter((receipt) => receipt.uid === uid)
          .reduce(
            (sum, receipt) => sum + (receipt.type === 'deposit' ? 1n : -1n) * minor(receipt.amount),
            0n,
          );
        // What was acknowledged is durable; writes in flight at the kill may be there too.
        const inFlightAllowance = 8n * 100n * MINOR;
        assert.ok(total - MINOR * 1000n - acknowledgedTotal <= inFlightAllowance);
        assert.ok(total - MINOR * 1000n >= acknowledgedTotal - inFlightAllowance);
      }
    } finally {
      await store.close();
    }
  } finally {
    await restarted.kill('SIGKILL');
  }
  return durable;
}

test(
  'restart when the server was SIGKILLed mid-stream finds every acknowledged write',
  { timeout: 30_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-durability-');
    t.after(() => removeDir(dataDir));
    const server = await spawnServer(baseEnv(dataDir));
    let uids: string[];
    let acknowledged: Acknowledged;
    try {
      uids = await fundedAccounts(server, 4);
      acknowledged = await writeUntilKilled(server, uids, 400);
    } finally {
      await server.kill('SIGKILL');
    }
    assert.ok(acknowledged.deposits.length > 100, `${acknowledged.deposits.length} deposits acknowledged`);
    assert.ok(acknowledged.withdrawals.length > 10);
    assert.ok(acknowledged.accounts.length > 10);
    const durable = await assertAllPresent(dataDir, uids, acknowledged);
    const funding = acknowledged.deposits.length + acknowledged.withdrawals.length + uids.length;
    t.diagnostic(`${funding} funding writes acknowledged, ${durable} durable`);
  },
);

test(
  'restart when snapshots were taken mid-stream recovers from the snapshot and the journal after it',
  { timeout: 30_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-snapshot-');
    t.after(() => removeDir(dataDir));
    const env = baseEnv(dataDir, { BOURSE_SNAPSHOT_EVERY: '64' });
    const server = await spawnServer(env);
    let uids: string[];
    let acknowledged: Acknowledged;
    try {
      uids = await fundedAccounts(server, 3);
      acknowledged = await writeUntilKilled(server, uids, 300);
    } finally {
      await server.kill('SIGKILL');
    }
    const store = openSqliteStore(join(dataDir, 'bourse.db'));
    let snapshotSeq: number;
    let lastSeq: number;
    try {
      snapshotSeq = (await store.latestSnapshot())?.seq ?? 0;
      lastSeq = await store.lastSeq();
    } finally {
      await store.close();
    }
    assert.ok(snapshotSeq > 0, 'a snapshot was taken during the stream');
    assert.ok(lastSeq > snapshotSeq, 'writes followed the last snapshot');
    const restarted = await spawnServer({ ...env, BOURSE_LOG: 'info' });
    const started = restarted
      .stdout()
      .split('\n')
      .map((line) => {
        try {
          return JSON.parse(line) as { message?: string; seq?: number; replayed?: number };
        } catch {
          return {};
        }
      })
      .find((record) => record.message === 'bourse started');
    await restarted.kill('SIGTERM');
    assert.equal(started?.seq, lastSeq);
    assert.equal(
      started?.replayed,
      lastSeq - snapshotSeq,
      'only the journal after the snapshot was replayed',
    );
    const durable = await assertAllPresent(dataDir, uids, acknowledged);
    const funding = acknowledged.deposits.length + acknowledged.withdrawals.length + uids.length;
    t.diagnostic(`${funding} funding writes acknowledged, ${durable} durable`);
  },
);
