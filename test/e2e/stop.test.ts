/**
 * Stopping as a supervisor or a terminal does it: SIGTERM or SIGINT to the `npm start`
 * process (npm runs the script through sh). The server stops accepting, answers or refuses
 * (503, 40015) what is in flight, flushes the journal, prints one line and exits 0, and no
 * node process is left serving. Every write it acknowledged is in the store afterwards.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { spawnServer, type ChildServer } from '../support/child.ts';
import type { FundingView } from '../support/operator.ts';
import { OperatorClient } from '../support/operator.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const TOKEN = 'stop-test-operator-token';
const STOPPED_LINE =
  /^bourse stopped on (SIGTERM|SIGINT): \d+ requests in flight answered, \d+ refused while stopping, journal flushed at seq \d+$/gm;

function startNpm(dataDir: string): Promise<ChildServer> {
  const env = {
    BOURSE_DATA_DIR: dataDir,
    BOURSE_OPERATOR_TOKEN: TOKEN,
    BOURSE_RATE_LIMITS: 'off',
    PORT: '0',
  };
  return spawnServer(env, 30_000, { npm: true, marketDefaults: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server's process is gone (a bounded wait: the exit of npm follows node's). */
async function assertGone(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 50 && isRunning(pid); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(isRunning(pid), false, `node (pid ${pid}) is still running`);
}

interface Outcomes {
  acknowledged: string[];
  refused: number;
  unexpected: string[];
}

/** Deposits from `workers` loops until the server stops answering; SIGTERM to npm after `signalAfter` acks. */
async function depositUntilStopped(server: ChildServer, uid: string, signalAfter: number): Promise<Outcomes> {
  const operator = new OperatorClient(server.url, TOKEN);
  const outcomes: Outcomes = { acknowledged: [], refused: 0, unexpected: [] };
  let signalled = false;
  const worker = async () => {
    for (let step = 0; step < 100_000; step += 1) {
      let response;
      try {
        response = await operator.call<FundingView>('POST', `/admin/v1/accounts/${uid}/deposits`, {
          coin: 'USDT',
          amount: '1',
        });
      } catch (error) {
        if (signalled) return; // the connection was closed or refused: the server has stopped
        throw error;
      }
      if (response.status === 200 && response.body?.code === '00000')
        outcomes.acknowledged.push(response.body.data.id);
      else if (response.status === 503 && response.body?.code === '40015') outcomes.refused += 1;
      else outcomes.unexpected.push(`${response.status} ${response.text}`);
      if (!signalled && outcomes.acknowledged.length >= signalAfter) {
        signalled = true;
        server.process.kill('SIGTERM');
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, () => worker()));
  return outcomes;
}

test(
  'npm start when sent SIGTERM under load answers or refuses each request, flushes the journal and exits 0',
  { timeout: 90_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-stop-');
    t.after(() => removeDir(dataDir));
    const server = await startNpm(dataDir);
    t.after(() => (isRunning(server.serverPid) ? process.kill(server.serverPid, 'SIGKILL') : undefined));
    const { uid } = await new OperatorClient(server.url, TOKEN).createAccount();
    const outcomes = await depositUntilStopped(server, uid, 200);
    const exit = await server.exited;
    assert.equal(exit.code, 0, `npm exit: ${JSON.stringify(exit)} ${server.stderr()}`);
    await assertGone(server.serverPid);
    assert.deepEqual(outcomes.unexpected, [], 'every request was answered 00000 or refused with 40015');
    assert.equal(server.stdout().match(STOPPED_LINE)?.length, 1, server.stdout());
    assert.match(server.stdout(), /bourse stopped on SIGTERM/);
    const store = openSqliteStore(join(dataDir, 'bourse.db'));
    try {
      const stored = new Set((await store.fundingRecords(uid, 1_000_000)).map((record) => record.recordId));
      const missing = outcomes.acknowledged.filter((id) => !stored.has(id));
      assert.deepEqual(missing, [], 'every acknowledged deposit is in the store');
      t.diagnostic(
        `${outcomes.acknowledged.length} acknowledged, ${outcomes.refused} refused while stopping`,
      );
    } finally {
      await store.close();
    }
  },
);

test('npm start when sent SIGINT stops the server and exits 0', { timeout: 60_000 }, async (t) => {
  const dataDir = makeTempDir('bourse-stop-');
  t.after(() => removeDir(dataDir));
  const server = await startNpm(dataDir);
  t.after(() => (isRunning(server.serverPid) ? process.kill(server.serverPid, 'SIGKILL') : undefined));
  const exit = await server.kill('SIGINT');
  assert.equal(exit.code, 0, `npm exit: ${JSON.stringify(exit)} ${server.stderr()}`);
  await assertGone(server.serverPid);
  assert.equal(server.stdout().match(STOPPED_LINE)?.length, 1, server.stdout());
  assert.match(server.stdout(), /bourse stopped on SIGINT/);
});
