/**
 * The operator's view of an account's activity (docs/operator.md): accounts listed and
 * filtered, an account's orders (open, closed, all, paged), fills, positions and balances,
 * after real trades placed through the venue API.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OperatorClient } from '../support/operator.ts';
import { data, mixOrder, type Row } from '../support/scenario.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

let server: TestServer;
let operator: OperatorClient;
/** A trader with a filled, a partly filled-then-cancelled and an open spot order, and a long position. */
let buyer: { uid: string; client: SigningClient };
let seller: { uid: string; client: SigningClient };

interface Page {
  list: Row[];
  cursor: string | null;
}

const get = async <T>(path: string): Promise<T> => data<T>(await operator.call('GET', path));

async function trader(): Promise<{ uid: string; client: SigningClient }> {
  const { uid } = await operator.createAccount({ label: 'activity' });
  await operator.deposit(uid, { coin: 'USDT', amount: '100000' });
  await operator.deposit(uid, { coin: 'BTC', amount: '1' });
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'usdt_futures' });
  return { uid, client: new SigningClient(server.url, await operator.createApiKey(uid)) };
}

const spot = (client: SigningClient, side: string, price: string, size: string) =>
  client
    .post('/api/v2/spot/trade/place-order', {
      body: { symbol: 'BTCUSDT', side, orderType: 'limit', force: 'gtc', price, size },
    })
    .then((response) => data<{ orderId: string }>(response).orderId);

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  buyer = await trader();
  seller = await trader();
  await spot(buyer.client, 'buy', '59000', '0.01');
  await spot(seller.client, 'sell', '59000', '0.01');
  const partly = await spot(buyer.client, 'buy', '58900', '0.02');
  await spot(seller.client, 'sell', '58900', '0.005');
  data(
    await buyer.client.post('/api/v2/spot/trade/cancel-order', {
      body: { symbol: 'BTCUSDT', orderId: partly },
    }),
  );
  await spot(buyer.client, 'buy', '58000', '0.001');
  data(
    await seller.client.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side: 'sell', price: '60000', size: '0.1' }),
    }),
  );
  data(
    await buyer.client.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side: 'buy', price: '60000', size: '0.1' }),
    }),
  );
});

after(() => server.close());

test('list accounts when filtered by label, kind and mode returns the matches in uid order, paged', async () => {
  const page1 = await get<Page>('/admin/v1/accounts?label=activity&limit=1');
  assert.deepEqual(
    page1.list.map((row) => row.uid),
    [buyer.uid],
  );
  assert.equal(page1.cursor, buyer.uid);
  const page2 = await get<Page>(`/admin/v1/accounts?label=activity&limit=1&cursor=${page1.cursor}`);
  assert.deepEqual([page2.list.map((row) => row.uid), page2.cursor], [[seller.uid], null]);
  assert.deepEqual(page2.list[0], {
    uid: seller.uid,
    kind: 'main',
    parentUid: null,
    mode: 'classic',
    label: 'activity',
    status: 'normal',
    createdTime: page2.list[0]?.createdTime,
  });
  const { uid: unified } = await operator.createAccount({ mode: 'unified', label: 'u' });
  const { uid: sub } = await operator.createAccount({ kind: 'sub', parentUid: unified });
  assert.deepEqual(
    (await get<Page>('/admin/v1/accounts?mode=UNIFIED')).list.map((row) => row.uid),
    [unified],
  );
  assert.deepEqual(
    (await get<Page>(`/admin/v1/accounts?kind=sub&parentUid=${unified}`)).list.map((row) => row.uid),
    [sub],
  );
  const all = await get<Page>('/admin/v1/accounts?limit=500');
  const uids = all.list.map((row) => String(row.uid));
  assert.deepEqual(uids, [...uids].sort(), 'uid order');
  assert.ok(uids.includes(server.credentials.uid));
});

test('account orders when listed by status return open ones from the engine and closed ones from history, newest first', async () => {
  const open = await get<Page>(`/admin/v1/accounts/${buyer.uid}/orders?status=open&category=spot`);
  assert.deepEqual(
    open.list.map((row) => [row.price, row.status]),
    [['58000', 'live']],
  );
  const closed = await get<Page>(`/admin/v1/accounts/${buyer.uid}/orders?status=closed&symbol=btcusdt`);
  assert.deepEqual(
    closed.list.map((row) => [row.category, row.price, row.cumExecQty, row.status]),
    [
      ['USDT-FUTURES', '60000', '0.1', 'filled'],
      ['SPOT', '58900', '0.005', 'cancelled'],
      ['SPOT', '59000', '0.01', 'filled'],
    ],
  );
  const first = await get<Page>(`/admin/v1/accounts/${buyer.uid}/orders?limit=2`);
  assert.equal(first.list.length, 2);
  const rest = await get<Page>(`/admin/v1/accounts/${buyer.uid}/orders?limit=2&cursor=${first.cursor}`);
  const ids = [...first.list, ...rest.list].map((row) => String(row.orderId));
  assert.equal(ids.length, 4, 'every order once');
  assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
  assert.equal(rest.cursor, null);
  assert.match(String(first.list[0]?.createdTime), /^\d{13}$/);
});

test('account fills when listed return both sides of each trade, filterable by order', async () => {
  const fills = await get<Page>(`/admin/v1/accounts/${buyer.uid}/fills`);
  assert.deepEqual(
    fills.list.map((row) => [row.category, row.execPrice, row.execQty, row.side]),
    [
      ['USDT-FUTURES', '60000', '0.1', 'buy'],
      ['SPOT', '58900', '0.005', 'buy'],
      ['SPOT', '59000', '0.01', 'buy'],
    ],
  );
  const orderId = String(fills.list[1]?.orderId);
  const one = await get<Page>(`/admin/v1/accounts/${buyer.uid}/fills?orderId=${orderId}&category=SPOT`);
  assert.deepEqual(
    one.list.map((row) => row.orderId),
    [orderId],
  );
  const sellerFills = await get<Page>(`/admin/v1/accounts/${seller.uid}/fills?category=USDT-FUTURES`);
  assert.deepEqual(
    sellerFills.list.map((row) => row.side),
    ['sell'],
  );
});

test('account positions and balances when read show the open position and every wallet', async () => {
  const positions = await get<Row[]>(`/admin/v1/accounts/${buyer.uid}/positions`);
  assert.deepEqual(
    positions.map((row) => [row.category, row.symbol, row.posSide, row.total, row.avgPrice]),
    [['USDT-FUTURES', 'BTCUSDT', 'long', '0.1', '60000']],
  );
  assert.deepEqual(await get(`/admin/v1/accounts/${buyer.uid}/positions?category=COIN-FUTURES`), []);
  const balances = await get<Row[]>(`/admin/v1/accounts/${buyer.uid}/balances?wallet=spot&coin=btc`);
  // 1 BTC + 0.015 bought, less the 0.1% fee taken in the coin bought.
  assert.deepEqual(balances, [
    {
      wallet: 'spot',
      coin: 'BTC',
      available: '1.014985',
      frozen: '0',
      borrowed: '0',
      interest: '0',
      margin: '0',
    },
  ]);
  const wallets = (await get<Row[]>(`/admin/v1/accounts/${buyer.uid}/balances`)).map(
    (row) => `${String(row.wallet)}/${String(row.coin)}`,
  );
  assert.deepEqual(wallets, ['spot/BTC', 'spot/USDT', 'usdt_futures/USDT']);
});

test('account activity routes when the uid or a parameter is bad answer the venue code', async () => {
  const cases: [string, string, string][] = [
    ['/admin/v1/accounts/42/orders', '40034', 'Parameter uid does not exist'],
    ['/admin/v1/accounts/42/fills', '40034', 'Parameter uid does not exist'],
    ['/admin/v1/accounts/42/positions', '40034', 'Parameter uid does not exist'],
    ['/admin/v1/accounts/42/balances', '40034', 'Parameter uid does not exist'],
    [`/admin/v1/accounts/${buyer.uid}/orders?status=pending`, '40020', 'Parameter status error'],
    [`/admin/v1/accounts/${buyer.uid}/orders?category=FX`, '40020', 'Parameter category error'],
    [`/admin/v1/accounts/${buyer.uid}/orders?cursor=abc`, '40020', 'Parameter cursor error'],
    [`/admin/v1/accounts/${buyer.uid}/orders?limit=-1`, '40020', 'Parameter limit error'],
    [`/admin/v1/accounts/${buyer.uid}/fills?orderId=x`, '40020', 'Parameter orderId error'],
    [`/admin/v1/accounts/${buyer.uid}/positions?category=SPOT`, '40020', 'Parameter category error'],
    ['/admin/v1/accounts?kind=robot', '40020', 'Parameter kind error'],
    ['/admin/v1/accounts?cursor=x1', '40020', 'Parameter cursor error'],
  ];
  for (const [path, code, msg] of cases) {
    const response = await operator.call('GET', path);
    assert.deepEqual([response.status, response.body?.code, response.body?.msg], [400, code, msg], path);
  }
});
