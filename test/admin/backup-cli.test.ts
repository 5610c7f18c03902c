/**
 * `bourse-admin backup` and `restore` (src/admin/backup-cli.ts) around a server at its defaults
 * (price feed and liquidity provider on, real clock), on SQLite and on PostgreSQL: the demo
 * account trades through the `bitget-api` SDK, a backup is taken by the CLI as a program while
 * another account keeps placing and cancelling orders, the backup is restored elsewhere and a
 * second server starts on it. The demo account's key still signs, its balances and open
 * orders are as they were, and the backup's state equals the first server's journal replayed
 * to the backup's last record: a consistent copy, taken while the server wrote.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { RestClientV2 } from 'bitget-api';
import { runCli } from '../../src/admin/cli.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import type { Store } from '../../src/ports/store.ts';
import { REPO_ROOT } from '../support/child.ts';
import { OperatorClient } from '../support/operator.ts';
import {
  makeTempDir,
  removeDir,
  serverFor,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from '../support/server.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

/** The server's defaults: the price feed and the liquidity provider on. */
const DEFAULT_MARKET = { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' };

function sdk(server: TestServer, key: { apiKey: string; secretKey: string; passphrase: string }) {
  return new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
}

/** The demo account's spot balances and open BTCUSDT orders, as the SDK reads them. */
async function demoView(client: RestClientV2) {
  const assets = (await client.getSpotAccountAssets()).data
    .map((asset) => [asset.coin, asset.available, asset.frozen])
    .sort();
  const open = (await client.getSpotOpenOrders({ symbol: 'BTCUSDT' })).data
    .map((order) => [order.orderId, order.side, order.priceAvg, order.size, order.status])
    .sort();
  return { assets, open };
}

/** Trades on the demo account: a market buy against the liquidity provider, two resting orders. */
async function trade(client: RestClientV2): Promise<void> {
  await client.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    size: '100',
  });
  const book = (await client.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '1' })).data;
  const bid = Number(book.bids[0]?.[0]);
  const ask = Number(book.asks[0]?.[0]);
  for (const [side, price] of [
    ['buy', bid * 0.99],
    ['sell', ask * 1.01],
  ] as const) {
    await client.spotSubmitOrder({
      symbol: 'BTCUSDT',
      side,
      orderType: 'limit',
      force: 'gtc',
      price: price.toFixed(2),
      size: '0.001',
    });
  }
}

/** Another account placing and cancelling orders until stopped; how many it placed. */
function lightLoad(server: TestServer): { stop: () => Promise<number> } {
  let stopped = false;
  const running = (async () => {
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: '100000', wallet: 'spot' });
    const client = sdk(server, await operator.createApiKey(uid));
    let placed = 0;
    while (!stopped) {
      const bid = Number(
        (await client.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '1' })).data.bids[0]?.[0],
      );
      const order = await client.spotSubmitOrder({
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        force: 'gtc',
        price: (bid * 0.995).toFixed(2),
        size: '0.001',
      });
      placed += 1;
      await client.spotCancelOrder({ symbol: 'BTCUSDT', orderId: order.data.orderId });
    }
    return placed;
  })();
  return {
    stop: async () => {
      stopped = true;
      return running;
    },
  };
}

/** The state hash of the store's journal replayed from its first record up to `lastSeq`. */
async function journalStateAt(store: Store, lastSeq: number): Promise<string> {
  const exchange = new Exchange();
  for await (const record of eachRecord(store.journalAfter(0))) {
    if (record.seq > lastSeq) break;
    exchange.replay(record.command);
  }
  return stateHash(exchange.state);
}

async function roundTrip(t: TestContext, urls: { source?: string; target?: string } = {}): Promise<void> {
  const source = await serverFor(t, {
    env: { ...DEFAULT_MARKET, ...(urls.source ? { BOURSE_DATABASE_URL: urls.source } : {}) },
  });
  await source.market.liquidity.requote();
  const demo = sdk(source, source.credentials);
  await trade(demo);
  const expected = await demoView(demo);
  assert.equal(expected.open.length, 2);

  const load = lightLoad(source);
  const backupDir = join(makeTempDir('bourse-backups-'), 'backup');
  t.after(() => removeDir(join(backupDir, '..')));
  const backup = await promisify(execFile)(
    process.execPath,
    ['bin/bourse-admin.mjs', 'backup', backupDir, '--data-dir', source.dataDir],
    { cwd: REPO_ROOT, env: { ...process.env, BOURSE_DATABASE_URL: urls.source ?? '' } },
  );
  const placedDuringBackup = await load.stop();
  const taken = JSON.parse(backup.stdout) as { lastSeq: number; stateHash: string; serverKey: string };
  assert.equal(taken.serverKey, 'file');
  assert.ok(placedDuringBackup > 0, 'the other account traded while the backup ran');
  assert.equal(await journalStateAt(source.services.store, taken.lastSeq), taken.stateHash);

  const dataDir = join(makeTempDir('bourse-restored-'), 'data');
  // The restored server stops before its data directory goes (hooks run in the order added).
  const started: { restored?: TestServer } = {};
  t.after(async () => {
    await started.restored?.stop();
    removeDir(join(dataDir, '..'));
  });
  let output = '';
  const args = ['restore', backupDir, '--data-dir', dataDir];
  const code = await runCli(
    urls.target ? [...args, '--database-url', urls.target] : args,
    {},
    {
      stdout: (text) => (output += text),
      stderr: (text) => (output += text),
    },
  );
  assert.equal(code, 0, output);
  assert.equal((JSON.parse(output) as { stateHash: string }).stateHash, taken.stateHash);

  const restored = await serverFor(t, {
    dataDir,
    env: { ...DEFAULT_MARKET, ...(urls.target ? { BOURSE_DATABASE_URL: urls.target } : {}) },
  });
  started.restored = restored;
  assert.deepEqual(await demoView(sdk(restored, source.credentials)), expected);
}

test(
  'bourse-admin backup and restore when a default SQLite server trades restore every balance, order and key',
  { timeout: 120_000 },
  async (t) => {
    await roundTrip(t);
  },
);

test(
  'bourse-admin restore when the target is in use or not empty refuses with exit 1',
  { timeout: 60_000 },
  async (t) => {
    const server = await serverFor(t, { env: DEFAULT_MARKET });
    const backupDir = join(makeTempDir('bourse-backups-'), 'backup');
    t.after(() => removeDir(join(backupDir, '..')));
    const run = async (args: string[]) => {
      let stderr = '';
      const code = await runCli(args, {}, { stdout: () => undefined, stderr: (text) => (stderr += text) });
      return { code, stderr };
    };
    assert.equal((await run(['backup', backupDir, '--data-dir', server.dataDir])).code, 0);
    const inUse = await run(['restore', backupDir, '--data-dir', server.dataDir, '--force']);
    assert.deepEqual([inUse.code, /open in another process/.test(inUse.stderr)], [1, true], inUse.stderr);
    await server.stop();
    const full = await run(['restore', backupDir, '--data-dir', server.dataDir]);
    assert.deepEqual([full.code, /not empty.*--force/.test(full.stderr)], [1, true], full.stderr);
    assert.equal((await run(['restore', backupDir, '--data-dir', server.dataDir, '--force'])).code, 0);
    assert.equal((await run(['restore'])).code, 2);
    assert.equal((await run(['backup', backupDir, '--force'])).code, 2);
  },
);

await postgresTests('backup CLI tests', [
  {
    name: 'bourse-admin backup and restore when a default PostgreSQL server trades restore every balance, order and key',
    options: { timeout: 120_000 },
    async body(t) {
      await roundTrip(t, { source: (await databaseFor(t)).url, target: (await databaseFor(t)).url });
    },
  },
]);
