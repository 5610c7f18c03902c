/**
 * Read-your-writes with projections written behind the journal (docs/persistence.md): on a
 * server with the price feed and liquidity provider on and projections behind (SQLite's
 * default; set on PostgreSQL, whose default is inline), many
 * `bitget-api` clients at once place orders and read them back right after each answer, by
 * id and by clientOid, with the fills and bills the trade made: every read sees what its
 * caller was acknowledged. On SQLite and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN } from '../support/server.ts';

const CLIENTS = 12;
const ROUNDS = 8;

async function trader(url: string, operator: OperatorClient): Promise<RestClientV2> {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '1000000', wallet: 'spot' });
  await operator.deposit(uid, { coin: 'BTC', amount: '10', wallet: 'spot' });
  const key = await operator.createApiKey(uid);
  return new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: url,
  });
}

/** One client's rounds: a resting sell and a crossing buy, each read back at once. */
async function roundsOf(client: RestClientV2, name: string): Promise<number> {
  let reads = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const [ticker] = (await client.getSpotTicker({ symbol: 'BTCUSDT' })).data;
    const ask = Number(ticker?.askPr ?? ticker?.lastPr);
    assert.ok(ask > 0, 'the feed gives a price');
    // A sell 5% above the ask rests; a buy 1% above it crosses the best ask (the liquidity
    // provider's, or another client's resting sell).
    const restingOid = `${name}-rest-${round}`;
    const resting = await client.spotSubmitOrder({
      symbol: 'BTCUSDT',
      side: 'sell',
      orderType: 'limit',
      force: 'gtc',
      price: (ask * 1.05).toFixed(2),
      size: '0.001',
      clientOid: restingOid,
    });
    const restingId = resting.data.orderId;
    const byId = (await client.getSpotOrder({ orderId: restingId })).data;
    assert.equal(byId[0]?.clientOid, restingOid, `${restingOid} read back by id right after its answer`);
    const crossingOid = `${name}-cross-${round}`;
    const crossing = await client.spotSubmitOrder({
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      price: (ask * 1.01).toFixed(2),
      size: '0.001',
      clientOid: crossingOid,
    });
    const byOid = (await client.getSpotOrder({ clientOid: crossingOid })).data;
    assert.equal(byOid[0]?.orderId, crossing.data.orderId, `${crossingOid} read back by clientOid`);
    assert.ok(Number(byOid[0]?.baseVolume) > 0, `${crossingOid} traded: ${JSON.stringify(byOid[0])}`);
    const fills = (await client.getSpotFills({ symbol: 'BTCUSDT', orderId: crossing.data.orderId })).data;
    assert.ok(fills.length > 0, `${crossingOid}'s fills read right after its answer`);
    // Every round bought BTC: at least one BTC bill per round, besides the deposit's.
    const bills = (await client.getSpotAccountBills({ coin: 'BTC', limit: '100' })).data;
    assert.ok(bills.length >= round + 2, `${bills.length} BTC bills after round ${round}`);
    reads += 4;
  }
  return reads;
}

/**
 * Waits (at most 10 s) until the liquidity provider's first quotes rest on BTCUSDT: the
 * rounds price off the best ask, and on a slower start (PostgreSQL) the first rounds could
 * otherwise find the book still empty (an empty askPr).
 */
async function liquidityQuoted(client: RestClientV2): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [ticker] = (await client.getSpotTicker({ symbol: 'BTCUSDT' })).data;
    if (Number(ticker?.askPr || 0) > 0) return;
    assert.ok(Date.now() < deadline, 'the liquidity provider quotes BTCUSDT within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readYourWrites(t: TestContext, databaseUrl: string | undefined): Promise<void> {
  const server = await startTestServer({
    env: {
      BOURSE_FEED: DEFAULT_FEED,
      BOURSE_LIQUIDITY: 'on',
      BOURSE_POSITION_MODE: undefined,
      BOURSE_PROJECTION: 'behind',
      ...(databaseUrl ? { BOURSE_DATABASE_URL: databaseUrl } : {}),
    },
  });
  t.after(() => server.close());
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const clients: RestClientV2[] = [];
  for (let index = 0; index < CLIENTS; index += 1) clients.push(await trader(server.url, operator));
  await liquidityQuoted(clients[0] as RestClientV2);
  const reads = await Promise.all(clients.map((client, index) => roundsOf(client, `ryw${index}`)));
  assert.equal(
    reads.reduce((sum, count) => sum + count, 0),
    CLIENTS * ROUNDS * 4,
  );
}

test(
  'history reads when many clients read right after their answers see every acknowledged write (sqlite)',
  { timeout: 120_000 },
  (t) => readYourWrites(t, undefined),
);

await postgresTests('read-your-writes tests', [
  {
    name: 'history reads when many clients read right after their answers see every acknowledged write (postgres)',
    options: { timeout: 120_000 },
    body: async (t) => readYourWrites(t, (await databaseFor(t)).url),
  },
]);
