/**
 * v3 trading routes check the key's permission against every category they act on: the
 * categories named in the body or query, and, when a request names none, the category of
 * each order it acts on (cancel, modify, order-info) or lists (unfilled-orders, fills).
 * One key of each permission drives every trading route against a SPOT, a MARGIN and a
 * USDT-FUTURES order of the same account; a refusal is 25620 and changes nothing.
 */
import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { data, type Row } from '../../support/scenario.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

const CATEGORIES = ['SPOT', 'MARGIN', 'USDT-FUTURES'] as const;
type TradeCategory = (typeof CATEGORIES)[number];

/** What each perm name may write and read (docs/security.md). */
const KEYS: Record<string, { write: TradeCategory[]; read: TradeCategory[] }> = {
  spot_trade: { write: ['SPOT'], read: ['SPOT'] },
  margin_trade: { write: ['MARGIN'], read: ['MARGIN'] },
  contract_trade: { write: ['USDT-FUTURES'], read: ['USDT-FUTURES'] },
  read: { write: [], read: ['SPOT', 'MARGIN', 'USDT-FUTURES'] },
  transfer: { write: [], read: [] },
};

let server: TestServer;
let full: SigningClient;
const clients = new Map<string, SigningClient>();
/** An order of each category that filled (so fills and history exist in each). */
const filled = new Map<TradeCategory, string>();

const buy = (category: TradeCategory, clientOid: string, price = '50000') => ({
  category,
  symbol: 'BTCUSDT',
  side: 'buy',
  orderType: 'limit',
  qty: '0.01',
  price,
  clientOid,
});

before(async () => {
  server = await startTestServer({ env: { BOURSE_SEED_DEMO: 'false' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount({ mode: 'unified' });
  await operator.deposit(uid, { coin: 'USDT', amount: '1000000' });
  full = new SigningClient(server.url, await operator.createApiKey(uid));
  for (const name of Object.keys(KEYS)) {
    clients.set(
      name,
      new SigningClient(server.url, await operator.createApiKey(uid, { permissions: [name] })),
    );
  }
  const maker = await operator.createAccount({ mode: 'unified' });
  await operator.deposit(maker.uid, { coin: 'USDT', amount: '1000000' });
  await operator.deposit(maker.uid, { coin: 'BTC', amount: '10' });
  const makerClient = new SigningClient(server.url, await operator.createApiKey(maker.uid));
  for (const category of CATEGORIES) {
    data(
      await makerClient.post('/api/v3/trade/place-order', {
        body: { ...buy(category, `m-${category}`, '60000'), side: 'sell' },
      }),
    );
    const placed = data<{ orderId: string }>(
      await full.post('/api/v3/trade/place-order', { body: buy(category, `f-${category}`, '60000') }),
    );
    filled.set(category, placed.orderId);
  }
});

after(() => server.close());

function client(name: string): SigningClient {
  const found = clients.get(name);
  if (!found) throw new Error(name);
  return found;
}

let serial = 0;
/** A resting order of `category` placed with the full key. */
async function openOrder(category: TradeCategory): Promise<string> {
  serial += 1;
  const placed = data<{ orderId: string }>(
    await full.post('/api/v3/trade/place-order', { body: buy(category, `o${serial}`) }),
  );
  return placed.orderId;
}

async function openIds(): Promise<Set<string>> {
  const open = data<{ list: { orderId: string }[] }>(await full.get('/api/v3/trade/unfilled-orders'));
  return new Set(open.list.map((order) => order.orderId));
}

async function orderPrice(orderId: string): Promise<string> {
  return data<{ price: string }>(await full.get('/api/v3/trade/order-info', { query: { orderId } })).price;
}

function assertDenied(
  response: { body: { code: string; data: unknown } | null; text: string },
  label: string,
) {
  assert.deepEqual([response.body?.code, response.body?.data], ['25620', null], `${label}: ${response.text}`);
}

function assertAllowed(response: { body: { code: string } | null; text: string }, label: string) {
  assert.equal(response.body?.code, '00000', `${label}: ${response.text}`);
}

for (const [name, may] of Object.entries(KEYS)) {
  for (const category of CATEGORIES) {
    const writes = may.write.includes(category);
    const reads = may.read.includes(category);
    const label = `${name} on ${category}`;

    test(`v3 place-order and place-batch when the key is ${label} ${writes ? 'place' : 'answer 25620'}`, async () => {
      const before = await openIds();
      const single = await client(name).post('/api/v3/trade/place-order', {
        body: buy(category, `p${++serial}`),
      });
      const batch = await client(name).post('/api/v3/trade/place-batch', {
        body: [buy(category, `b${++serial}`)],
      });
      // The reported bypass: a first item the key may trade, the order in another category.
      const smuggled = await client(name).post('/api/v3/trade/place-batch', {
        body: [{ category: 'SPOT' }, buy(category, `s${++serial}`)],
      });
      if (writes) {
        assertAllowed(single, label);
        assert.equal(data<Row[]>(batch)[0]?.code, undefined, `${label}: ${batch.text}`);
      } else {
        assertDenied(single, label);
        assertDenied(batch, label);
      }
      if (!writes || !may.write.includes('SPOT')) assertDenied(smuggled, `${label} smuggled`);
      const added = [...(await openIds())].filter((id) => !before.has(id));
      const smuggledPlaced = writes && may.write.includes('SPOT') ? 1 : 0;
      assert.equal(added.length, writes ? 2 + smuggledPlaced : 0, label);
    });

    test(`v3 cancel-order and modify-order by orderId alone when the key is ${label} ${writes ? 'act' : 'answer 25620'}`, async () => {
      const orderId = await openOrder(category);
      const modified = await client(name).post('/api/v3/trade/modify-order', {
        body: { orderId, price: '49000' },
      });
      if (writes) assertAllowed(modified, label);
      else assertDenied(modified, label);
      assert.equal(await orderPrice(orderId), writes ? '49000' : '50000', label);
      const cancelled = await client(name).post('/api/v3/trade/cancel-order', { body: { orderId } });
      if (writes) assertAllowed(cancelled, label);
      else assertDenied(cancelled, label);
      assert.equal((await openIds()).has(orderId), !writes, label);
    });

    test(`v3 cancel-batch without category when the key is ${label} ${writes ? 'cancels' : 'answers the item 25620'}`, async () => {
      const orderId = await openOrder(category);
      const response = await client(name).post('/api/v3/trade/cancel-batch', { body: [{ orderId }] });
      if (!may.write.length) {
        // A key with no trading permission at all is refused whole.
        assertDenied(response, label);
      } else {
        const [item] = data<Row[]>(response);
        assert.equal(item?.code, writes ? undefined : '25620', `${label}: ${response.text}`);
      }
      assert.equal((await openIds()).has(orderId), !writes, label);
      const named = await client(name).post('/api/v3/trade/cancel-batch', { body: [{ orderId, category }] });
      if (!writes) {
        const refused = named.body?.code === '25620' || data<Row[]>(named)[0]?.code === '25620';
        assert.ok(refused, `${label} named: ${named.text}`);
      }
      if (!writes) await full.post('/api/v3/trade/cancel-order', { body: { orderId } });
    });

    test(`v3 cancel-symbol-order when the key is ${label} ${writes ? 'cancels' : 'answers 25620'}`, async () => {
      const orderId = await openOrder(category);
      const response = await client(name).post('/api/v3/trade/cancel-symbol-order', {
        body: { category, symbol: 'BTCUSDT' },
      });
      if (writes) assertAllowed(response, label);
      else assertDenied(response, label);
      assert.equal((await openIds()).has(orderId), !writes, label);
      if (!writes) await full.post('/api/v3/trade/cancel-order', { body: { orderId } });
    });

    test(`v3 order reads when the key is ${label} ${reads ? 'answer' : 'answer 25620 or leave the order out'}`, async () => {
      const orderId = await openOrder(category);
      const info = await client(name).get('/api/v3/trade/order-info', { query: { orderId } });
      if (reads) assert.equal(data<Row>(info).orderId, orderId, label);
      else assertDenied(info, label);
      for (const path of [
        '/api/v3/trade/unfilled-orders',
        '/api/v3/trade/history-orders',
        '/api/v3/trade/fills',
      ]) {
        const named = await client(name).get(path, { query: { category } });
        if (reads) assertAllowed(named, `${label} ${path}`);
        else assertDenied(named, `${label} ${path}`);
      }
      if (may.read.length > 0) {
        const unfilled = data<{ list: Row[] }>(await client(name).get('/api/v3/trade/unfilled-orders'));
        assert.equal(
          unfilled.list.some((order) => order.orderId === orderId),
          reads,
          `${label} unfilled-orders without category`,
        );
        assert.ok(
          unfilled.list.every((order) => may.read.includes(order.category as TradeCategory)),
          `${label}: ${JSON.stringify(unfilled.list.map((order) => order.category))}`,
        );
        const fills = data<{ list: Row[] }>(await client(name).get('/api/v3/trade/fills'));
        assert.equal(
          fills.list.some((fill) => fill.orderId === filled.get(category)),
          reads,
          `${label} fills without category`,
        );
        assert.ok(
          fills.list.every((fill) => may.read.includes(fill.category as TradeCategory)),
          `${label}: ${JSON.stringify(fills.list.map((fill) => fill.category))}`,
        );
      } else {
        assertDenied(await client(name).get('/api/v3/trade/unfilled-orders'), `${label} unfilled-orders`);
        assertDenied(await client(name).get('/api/v3/trade/fills'), `${label} fills`);
      }
      await full.post('/api/v3/trade/cancel-order', { body: { orderId } });
    });
  }
}
