/**
 * Wallet routes over real HTTP: deposit addresses (stable, per coin and chain, credited by the
 * operator), deposit and withdrawal records (fields, paging, windows, limit bounds, codes),
 * withdrawal requests (fields, permissions, clientOid, internal transfers) and the v3 twins.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SigningClient } from '../../support/signing.ts';
import { admin, data, harness, mainAccount, refusal, type Harness, type Rows } from './broker-helpers.ts';

const WITHDRAWING = ['stow', 'stor', 'wtow', 'wtor', 'wwow'];
const DAY_MS = 24 * 60 * 60 * 1000;
const window = () => ({ startTime: String(Date.now() - DAY_MS), endTime: String(Date.now() + 60_000) });

async function unifiedAccount(h: Harness, funds: [string, string, string][] = []) {
  const { uid } = await h.operator.createAccount({ mode: 'unified' });
  for (const [wallet, coin, amount] of funds) await h.operator.deposit(uid, { coin, amount, wallet });
  const key = await h.operator.createApiKey(uid, { permissions: WITHDRAWING });
  return { uid, client: new SigningClient(h.server.url, key) };
}

test('deposit address when asked again, in another case or after a restart is the same', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h);
  const ask = (query: Record<string, string>) =>
    trader.client.get('/api/v2/spot/wallet/deposit-address', { query });
  const trc = data<Record<string, string>>(await ask({ coin: 'usdt', chain: 'trc20' }));
  assert.deepEqual(Object.keys(trc).sort(), ['address', 'chain', 'coin', 'tag', 'url']);
  assert.deepEqual([trc.coin, trc.chain, trc.tag], ['USDT', 'TRC20', '']);
  assert.match(trc.address ?? '', /^0x[0-9a-f]+$/);
  assert.deepEqual(data(await ask({ coin: 'USDT', chain: 'TRC20' })), trc);
  const erc = data<Record<string, string>>(await ask({ coin: 'USDT', chain: 'erc20' }));
  const plain = data<Record<string, string>>(await ask({ coin: 'USDT' }));
  assert.equal(plain.chain, 'USDT');
  assert.equal(new Set([trc.address, erc.address, plain.address]).size, 3);
  const other = await mainAccount(h);
  const theirs = data<Record<string, string>>(
    await other.client.get('/api/v2/spot/wallet/deposit-address', {
      query: { coin: 'USDT', chain: 'trc20' },
    }),
  );
  assert.notEqual(theirs.address, trc.address);
  assert.deepEqual(refusal(await ask({ coin: 'DOGE' })), ['40034', 'Parameter DOGE does not exist']);
  assert.deepEqual(refusal(await ask({ coin: 'USDT', chain: 'tr c20' })), ['40020', 'Parameter chain error']);
  assert.deepEqual(refusal(await ask({})), ['40019', 'Parameter coin cannot be empty']);
  await h.server.stop();
  const { startTestServer } = await import('../../support/server.ts');
  const again = await startTestServer({ dataDir: h.server.dataDir, env: { BOURSE_SEED_DEMO: 'false' } });
  t.after(() => again.close());
  const client = new SigningClient(again.url, trader.credentials);
  const after = await client.get('/api/v2/spot/wallet/deposit-address', {
    query: { coin: 'USDT', chain: 'trc20' },
  });
  assert.deepEqual(data(after), trc);
});

test('deposit address when the operator credits it lists the deposit with its chain and addresses', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h);
  const { address } = data<{ address: string }>(
    await trader.client.get('/api/v2/spot/wallet/deposit-address', { query: { coin: 'BTC', chain: 'btc' } }),
  );
  const owner = await admin<Record<string, string>>(
    h.operator,
    'GET',
    `/admin/v1/deposit-addresses/${address}`,
  );
  assert.deepEqual(owner, { address, uid: trader.uid, coin: 'BTC', chain: 'BTC', wallet: 'spot' });
  const credit = await admin<Record<string, string>>(
    h.operator,
    'POST',
    `/admin/v1/deposit-addresses/${address}/deposits`,
    { amount: '0.5', fromAddress: 'bc1-sender', txId: 'f00d', status: 'pending' },
  );
  assert.equal(credit.status, 'pending');
  const records = () =>
    trader.client
      .get('/api/v2/spot/wallet/deposit-records', { query: window() })
      .then((answer) => data<Rows>(answer));
  assert.deepEqual(await records(), [
    {
      orderId: credit.id,
      tradeId: 'f00d',
      coin: 'BTC',
      type: 'deposit',
      dest: 'on_chain',
      size: '0.5',
      status: 'pending',
      fromAddress: 'bc1-sender',
      toAddress: address,
      chain: 'BTC',
      cTime: credit.ts,
      uTime: credit.ts,
    },
  ]);
  await admin(h.operator, 'POST', `/admin/v1/funding/${credit.id}/settle`, { status: 'success' });
  const [settled] = await records();
  assert.equal(settled?.status, 'success');
  assert.equal(settled?.cTime, credit.ts);
  const assets = data<Rows>(
    await trader.client.get('/api/v2/spot/account/assets', { query: { coin: 'BTC' } }),
  );
  assert.equal(assets[0]?.available, '0.5');
  const unknown = await h.operator.call('POST', '/admin/v1/deposit-addresses/0x3132/deposits', {
    amount: '1',
  });
  assert.equal(unknown.body?.code, '40034', unknown.text);
});

test('deposit records when paged and windowed answer the venue codes and bounds', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h);
  const ids: string[] = [];
  for (const amount of ['1', '2', '3'])
    ids.push((await h.operator.deposit(trader.uid, { coin: 'USDT', amount })).id);
  const get = (query: Record<string, string>) =>
    trader.client.get('/api/v2/spot/wallet/deposit-records', { query });
  const page = data<Rows>(await get({ ...window(), limit: '2' }));
  assert.deepEqual(
    page.map((row) => row.size),
    ['3', '2'],
  );
  const next = data<Rows>(await get({ ...window(), limit: '2', idLessThan: page[1]?.orderId ?? '' }));
  assert.deepEqual(
    next.map((row) => row.size),
    ['1'],
  );
  assert.equal(data<Rows>(await get({ ...window(), limit: '500' })).length, 3);
  const one = data<Rows>(await get({ orderId: ids[1] ?? '' }));
  assert.deepEqual(
    one.map((row) => row.size),
    ['2'],
  );
  assert.deepEqual(data<Rows>(await get({ ...window(), coin: 'BTC' })), []);
  assert.deepEqual(refusal(await get({ ...window(), limit: '0' })), ['40020', 'Parameter limit error']);
  assert.deepEqual(refusal(await get({ endTime: String(Date.now()) })), [
    '40019',
    'Parameter startTime cannot be empty',
  ]);
  const now = Date.now();
  assert.deepEqual(refusal(await get({ startTime: String(now - 91 * DAY_MS), endTime: String(now) })), [
    '40017',
    'Parameter verification failed the time span exceeds 90 days',
  ]);
  assert.deepEqual(refusal(await get({ ...window(), idLessThan: 'x1' })), [
    '40020',
    'Parameter idLessThan error',
  ]);
});

test('withdrawal request when the key is read-only or lacks the withdrawal permission answers 40014', async (t) => {
  const h = await harness(t);
  const body = { coin: 'USDT', transferType: 'on_chain', address: 'TQ1x', chain: 'trc20', size: '1' };
  for (const permissions of [['read'], ['spot_trade', 'transfer']]) {
    const trader = await mainAccount(h, { permissions, funds: [['spot', 'USDT', '10']] });
    const answer = await trader.client.post('/api/v2/spot/wallet/withdrawal', { body });
    assert.deepEqual(refusal(answer), ['40014', 'Incorrect permissions, need read and write permissions']);
  }
  const reader = await mainAccount(h, { permissions: ['read'] });
  assert.deepEqual(
    data(await reader.client.get('/api/v2/spot/wallet/withdrawal-records', { query: window() })),
    [],
  );
});

test('withdrawal request when the fields are wrong answers the venue codes and freezes nothing', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { permissions: WITHDRAWING, funds: [['spot', 'USDT', '10']] });
  const base = { coin: 'USDT', transferType: 'on_chain', address: 'TQ1x', chain: 'trc20', size: '1' };
  const send = (body: Record<string, unknown>) =>
    trader.client.post('/api/v2/spot/wallet/withdrawal', { body });
  const cases: [Record<string, unknown>, [string, string]][] = [
    [{ ...base, size: '11' }, ['43012', 'Insufficient balance']],
    [{ ...base, size: '0' }, ['40020', 'Parameter size error']],
    [{ ...base, chain: undefined }, ['40019', 'Parameter chain cannot be empty']],
    [{ ...base, transferType: 'fiat' }, ['40020', 'Parameter transferType error']],
    [{ ...base, coin: 'DOGE' }, ['40034', 'Parameter DOGE does not exist']],
    [
      { ...base, transferType: 'internal_transfer', address: '999' },
      ['40034', 'Parameter address does not exist'],
    ],
    [
      { ...base, transferType: 'internal_transfer', innerToType: 'email' },
      ['40020', 'Parameter innerToType error'],
    ],
    [{ ...base, address: undefined }, ['40019', 'Parameter address cannot be empty']],
  ];
  for (const [body, expected] of cases)
    assert.deepEqual(refusal(await send(body)), expected, JSON.stringify(body));
  data(await send({ ...base, clientOid: 'once' }));
  assert.deepEqual(refusal(await send({ ...base, clientOid: 'once' })), ['43118', 'clientOrderId duplicate']);
  const assets = data<Rows>(
    await trader.client.get('/api/v2/spot/account/assets', { query: { coin: 'USDT' } }),
  );
  assert.deepEqual([assets[0]?.available, assets[0]?.frozen], ['9', '1']);
  const byOid = data<Rows>(
    await trader.client.get('/api/v2/spot/wallet/withdrawal-records', { query: { clientOid: 'once' } }),
  );
  assert.deepEqual(
    byOid.map((row) => [row.clientOid, row.type, row.fee, row.status]),
    [['once', 'withdraw', '0', 'pending']],
  );
});

test('withdrawal request when internal and settled moves the coins to the other account', async (t) => {
  const h = await harness(t);
  const sender = await mainAccount(h, { permissions: WITHDRAWING, funds: [['spot', 'USDT', '10']] });
  const receiver = await mainAccount(h);
  const { orderId } = data<{ orderId: string }>(
    await sender.client.post('/api/v2/spot/wallet/withdrawal', {
      body: { coin: 'USDT', transferType: 'internal_transfer', address: receiver.uid, size: '4' },
    }),
  );
  await admin(h.operator, 'POST', `/admin/v1/funding/${orderId}/settle`, { status: 'success' });
  const sent = data<Rows>(
    await sender.client.get('/api/v2/spot/wallet/withdrawal-records', { query: window() }),
  );
  assert.deepEqual(
    sent.map((row) => [row.dest, row.toAddress, row.status]),
    [['internal_transfer', receiver.uid, 'success']],
  );
  const got = data<Rows>(
    await receiver.client.get('/api/v2/spot/wallet/deposit-records', { query: window() }),
  );
  assert.deepEqual(
    got.map((row) => [row.dest, row.fromAddress, row.size, row.status, row.tradeId]),
    [['internal_transfer', sender.uid, '4', 'success', sent[0]?.tradeId]],
  );
  const assets = data<Rows>(
    await receiver.client.get('/api/v2/spot/account/assets', { query: { coin: 'USDT' } }),
  );
  assert.equal(assets[0]?.available, '4');
});

test('v3 records when a unified account withdraws from its funding wallet use the v3 fields and window', async (t) => {
  const h = await harness(t);
  const unified = await unifiedAccount(h, [
    ['funding', 'USDT', '50'],
    ['unified', 'USDT', '5'],
  ]);
  const withdraw = (size: string, accountType?: string) =>
    unified.client.post('/api/v3/account/withdrawal', {
      body: { coin: 'USDT', transferType: 'on_chain', address: 'TQ1x', chain: 'trc20', size, accountType },
    });
  const { orderId } = data<{ orderId: string }>(await withdraw('20'));
  data(await withdraw('3', 'uta'));
  assert.deepEqual(refusal(await withdraw('1', 'otc')), ['40020', 'Parameter accountType error']);
  assert.deepEqual(refusal(await withdraw('1', 'funding,constructor')), [
    '40020',
    'Parameter accountType error',
  ]);
  const funding = data<Rows>(await unified.client.get('/api/v3/account/funding-assets'));
  assert.deepEqual(funding, [{ coin: 'USDT', balance: '50', available: '30', frozen: '20' }]);
  const records = data<Rows>(
    await unified.client.get('/api/v3/account/withdrawal-records', { query: window() }),
  );
  assert.equal(records.length, 2);
  const first = records.find((row) => row.orderId === orderId);
  assert.deepEqual(Object.keys(first ?? {}).sort(), [
    'chain',
    'clientOid',
    'coin',
    'confirm',
    'createdTime',
    'dest',
    'fee',
    'fromAddress',
    'orderId',
    'recordId',
    'size',
    'status',
    'tag',
    'toAddress',
    'type',
    'updatedTime',
  ]);
  assert.equal(first?.recordId, `bourse-withdrawal-${orderId}`);
  const now = Date.now();
  const wide = await unified.client.get('/api/v3/account/deposit-records', {
    query: { startTime: String(now - 31 * DAY_MS), endTime: String(now) },
  });
  assert.deepEqual(refusal(wide), ['40017', 'Parameter verification failed the time span exceeds 30 days']);
  // ccxt reads its clock once per bound: 30 days and a few milliseconds is its 30-day window.
  const ccxtWindow = await unified.client.get('/api/v3/account/deposit-records', {
    query: { startTime: String(now - 30 * DAY_MS - 5), endTime: String(now) },
  });
  assert.equal(ccxtWindow.body?.code, '00000', ccxtWindow.text);
  const deposits = data<Rows>(
    await unified.client.get('/api/v3/account/deposit-records', { query: window() }),
  );
  assert.deepEqual(
    deposits.map((row) => [row.size, (row.toAddress ?? '').startsWith('0x'), row.createdTime !== undefined]),
    [
      ['5', true, true],
      ['50', true, true],
    ],
  );
  const address = data<Record<string, string>>(
    await unified.client.get('/api/v3/account/deposit-address', { query: { coin: 'USDT', chain: 'trc20' } }),
  );
  assert.equal(address.chain, 'TRC20');
});

test('cancel withdrawal when the request is still pending returns the frozen amount, once', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { permissions: WITHDRAWING, funds: [['spot', 'USDT', '10']] });
  const other = await mainAccount(h, { permissions: WITHDRAWING });
  const body = { coin: 'USDT', transferType: 'on_chain', address: 'TQ1x', chain: 'trc20', size: '4' };
  const { orderId } = data<{ orderId: string }>(
    await trader.client.post('/api/v2/spot/wallet/withdrawal', { body }),
  );
  const cancel = (client: typeof trader.client, fields: Record<string, string>) =>
    client.post('/api/v2/spot/wallet/cancel-withdrawal', { body: fields });
  assert.deepEqual(refusal(await cancel(other.client, { orderId })), ['40020', 'Parameter orderId error']);
  assert.deepEqual(refusal(await cancel(trader.client, {})), ['40019', 'Parameter orderId cannot be empty']);
  assert.equal(data(await cancel(trader.client, { orderId })), 'success');
  assert.deepEqual(refusal(await cancel(trader.client, { orderId })), ['40020', 'Parameter orderId error']);
  const assets = data<Rows>(
    await trader.client.get('/api/v2/spot/account/assets', { query: { coin: 'USDT' } }),
  );
  assert.deepEqual([assets[0]?.available, assets[0]?.frozen], ['10', '0']);
  const [record] = data<Rows>(
    await trader.client.get('/api/v2/spot/wallet/withdrawal-records', { query: { orderId } }),
  );
  assert.equal(record?.status, 'fail');

  const unified = await unifiedAccount(h, [['funding', 'USDT', '5']]);
  data(
    await unified.client.post('/api/v3/account/withdrawal', {
      body: { ...body, size: '5', clientOid: 'mine' },
    }),
  );
  const byOid = await unified.client.post('/api/v3/account/cancel-withdrawal', {
    body: { clientOid: 'mine' },
  });
  assert.equal(data(byOid), 'success');
  const funding = data<Rows>(await unified.client.get('/api/v3/account/funding-assets'));
  assert.deepEqual(funding, [{ coin: 'USDT', balance: '5', available: '5', frozen: '0' }]);
});

test('sub-account deposit address and records when the main account asks show those of the sub-account', async (t) => {
  const h = await harness(t);
  const main = await mainAccount(h);
  const { uid: subUid } = await h.operator.createAccount({ kind: 'virtual', parentUid: main.uid });
  const stranger = await mainAccount(h);
  const address = data<Record<string, string>>(
    await main.client.get('/api/v2/spot/wallet/subaccount-deposit-address', {
      query: { subUid, coin: 'USDT', chain: 'trc20' },
    }),
  );
  const owner = await admin<Record<string, string>>(
    h.operator,
    'GET',
    `/admin/v1/deposit-addresses/${address.address}`,
  );
  assert.equal(owner.uid, subUid);
  await admin(h.operator, 'POST', `/admin/v1/deposit-addresses/${address.address}/deposits`, { amount: '8' });
  const records = data<Rows>(
    await main.client.get('/api/v2/spot/wallet/subaccount-deposit-records', { query: { subUid } }),
  );
  assert.deepEqual(
    records.map((row) => [row.size, row.toAddress, row.chain]),
    [['8', address.address, 'TRC20']],
  );
  const foreign = await stranger.client.get('/api/v2/spot/wallet/subaccount-deposit-records', {
    query: { subUid },
  });
  assert.deepEqual(refusal(foreign), ['40034', 'Parameter subUid does not exist']);
  const missing = await main.client.get('/api/v2/spot/wallet/subaccount-deposit-address', {
    query: { coin: 'USDT' },
  });
  assert.deepEqual(refusal(missing), ['40019', 'Parameter subUid cannot be empty']);
  const posted = await main.client.post('/api/v3/account/sub-deposit-records', {
    body: { subUid, ...window() },
  });
  assert.deepEqual(
    data<Rows>(posted).map((row) => [row.size, row.createdTime !== undefined]),
    [['8', true]],
  );
});
