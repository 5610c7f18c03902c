/**
 * RestClientV2's account methods: spot and futures balances, bills, transfers, futures account
 * settings, virtual sub-accounts and their keys (the venue wants the calling key bound to an
 * IP), and the broker/agent reads. A classic account starts with 100 000 USDT and 2 BTC on spot
 * and 100 000 USDT on USDT-M futures.
 */
import assert from 'node:assert/strict';
import { RestClientV2 } from 'bitget-api';
import { dataOf, FUTURES, hasFields, SYMBOL, USDT_M, type V2Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;
const CONTRACT = { symbol: SYMBOL, productType: USDT_M, marginCoin: 'USDT' } as const;

/** A client on the same account whose key is bound to 127.0.0.1, as the venue's sub-account API needs. */
async function bound(context: V2Context): Promise<RestClientV2> {
  const key = await context.operator.createApiKey(context.uid, { ipList: ['127.0.0.1'] });
  return new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: context.suite.server.url,
  });
}

/** A virtual sub-account of the context's account: its uid, and the bound client that made it. */
async function subAccount(context: V2Context): Promise<{ client: RestClientV2; subUid: string }> {
  const client = await bound(context);
  // Eight lower-case letters, unique per account (the venue's rule for sub-account names).
  const name = `sub${[...context.uid.slice(-5)].map((digit) => String.fromCharCode(97 + Number(digit))).join('')}`;
  const created = dataOf(await client.createVirtualSubaccount({ subAccountList: [name] }));
  const subUid = String((created.successList[0] as Record<string, unknown> | undefined)?.subaAccountUid);
  assert.match(subUid, /^\d+$/, `${name}: ${JSON.stringify(created)}`);
  return { client, subUid };
}

async function subKey(client: RestClientV2, subAccountUid: string) {
  const request = {
    subAccountUid,
    passphrase: 'Passphrase123',
    label: 'bot',
    permList: ['spot_trade'],
    ipList: ['127.0.0.1'],
  };
  return dataOf(await client.createVirtualSubaccountAPIKey(request));
}

async function isolatedLong({ client }: V2Context): Promise<void> {
  await client.setFuturesMarginMode({ ...CONTRACT, marginMode: 'isolated' });
  const order = {
    ...FUTURES,
    marginMode: 'isolated',
    side: 'buy',
    tradeSide: 'open',
    orderType: 'market',
    size: '0.01',
  } as const;
  await client.futuresSubmitOrder(order);
}

async function makeAgent(context: V2Context): Promise<void> {
  const answer = await context.operator.call('POST', '/admin/v1/agents', {
    uid: context.uid,
    rebateRate: '0.1',
  });
  assert.equal(answer.body?.code, '00000', answer.text);
}

export const SDK_V2_ACCOUNT_CASES: Cases = {
  getSpotAccount: works(async ({ client, uid }) =>
    assert.equal(dataOf(await client.getSpotAccount()).userId, uid),
  ),
  getSpotAccountAssets: works(async ({ client }) => {
    const assets = dataOf(await client.getSpotAccountAssets({ coin: 'USDT' }));
    assert.deepEqual(
      assets.map((asset) => [asset.coin, asset.available]),
      [['USDT', '100000']],
    );
  }),
  getSpotAccountBills: works(async ({ client }) => {
    const bills = dataOf(await client.getSpotAccountBills({ coin: 'BTC' }));
    assert.deepEqual(
      bills.map((bill) => bill.size),
      ['2'],
    );
  }),
  spotTransfer: works(async ({ client }) => {
    const request = { fromType: 'spot', toType: 'usdt_futures', amount: '25', coin: 'USDT' } as never;
    hasFields(dataOf(await client.spotTransfer(request)), 'transferId');
    const [futures] = dataOf(await client.getFuturesAccountAssets({ productType: USDT_M }));
    assert.equal(futures?.available, '100025');
  }),
  getSpotTransferHistory: works(async ({ client }) => {
    await client.spotTransfer({
      fromType: 'spot',
      toType: 'usdt_futures',
      amount: '25',
      coin: 'USDT',
    } as never);
    const records = dataOf(await client.getSpotTransferHistory({ coin: 'USDT', fromType: 'spot' }));
    assert.deepEqual(
      records.map((record) => [record.size, record.toType]),
      [['25', 'usdt_futures']],
    );
  }),
  spotSubTransfer: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    const request = {
      fromType: 'spot',
      toType: 'spot',
      amount: '10',
      coin: 'USDT',
      fromUserId: context.uid,
      toUserId: subUid,
    } as const;
    hasFields(dataOf(await client.spotSubTransfer(request)), 'transferId');
  }),
  getSpotMainSubTransferRecord: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    const request = {
      fromType: 'spot',
      toType: 'spot',
      amount: '10',
      coin: 'USDT',
      fromUserId: context.uid,
      toUserId: subUid,
    } as const;
    await client.spotSubTransfer(request);
    const records = dataOf(await client.getSpotMainSubTransferRecord({ coin: 'USDT' }));
    assert.deepEqual(
      records.map((record) => record.size),
      ['10'],
    );
  }),
  createVirtualSubaccount: works(async (context) => void (await subAccount(context))),
  getVirtualSubaccounts: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    const list = dataOf(await client.getVirtualSubaccounts()).subAccountList;
    assert.deepEqual(
      list.map((sub) => sub.subAccountUid),
      [subUid],
    );
  }),
  modifyVirtualSubaccount: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    await client.modifyVirtualSubaccount({
      subAccountUid: subUid,
      permList: ['spot_trade'],
      status: 'freeze',
    });
    const list = dataOf(await client.getVirtualSubaccounts()).subAccountList;
    assert.equal(list[0]?.status, 'freeze');
  }),
  createVirtualSubaccountAPIKey: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    assert.match((await subKey(client, subUid)).subAccountApiKey, /^bg_/);
  }),
  getVirtualSubaccountAPIKeys: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    const key = await subKey(client, subUid);
    const keys = dataOf(await client.getVirtualSubaccountAPIKeys({ subAccountUid: subUid }));
    assert.deepEqual(
      keys.map((entry) => entry.subAccountApiKey),
      [key.subAccountApiKey],
    );
  }),
  modifyVirtualSubaccountAPIKey: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    const key = await subKey(client, subUid);
    const request = {
      subAccountUid: subUid,
      subAccountApiKey: key.subAccountApiKey,
      passphrase: 'Passphrase123',
      label: 'renamed',
      permList: ['spot_trade'],
      ipList: ['127.0.0.1'],
    };
    assert.equal(dataOf(await client.modifyVirtualSubaccountAPIKey(request)).label, 'renamed');
  }),
  getAllSubDepositWithdrawalRecords: works(async (context) => {
    const { client, subUid } = await subAccount(context);
    await context.operator.deposit(subUid, { coin: 'USDT', amount: '25' });
    // Without a window the venue reports yesterday (UTC): ask for the last minute.
    const window = { startTime: String(Date.now() - 60_000), endTime: String(Date.now() + 60_000) };
    const list = dataOf(await client.getAllSubDepositWithdrawalRecords(window)).list;
    assert.deepEqual(
      list.map((row) => [row.uid, row.amount]),
      [[subUid, '25']],
    );
  }),
  getAgentCustomerKycResult: works(async (context) => {
    await makeAgent(context);
    hasFields(dataOf(await context.client.getAgentCustomerKycResult()), 'userList');
  }),
  getAgentCustomerCommissions: works(async (context) => {
    await makeAgent(context);
    hasFields(dataOf(await context.client.getAgentCustomerCommissions()), 'commissionList');
  }),
  getFuturesAccountAsset: works(async ({ client }) => {
    const account = dataOf(await client.getFuturesAccountAsset(CONTRACT));
    assert.deepEqual([account.marginCoin, account.available], ['USDT', '100000']);
  }),
  getFuturesAccountAssets: works(async ({ client }) => {
    const [account] = dataOf(await client.getFuturesAccountAssets({ productType: USDT_M }));
    assert.equal(account?.usdtEquity, '100000');
  }),
  getFuturesAccountBills: works(async ({ client }) => {
    const bills = dataOf(await client.getFuturesAccountBills({ productType: USDT_M })).bills;
    assert.ok(bills.length > 0, 'the deposit bill');
  }),
  setFuturesLeverage: works(async ({ client }) => {
    await client.setFuturesLeverage({ ...CONTRACT, leverage: '7' });
    assert.equal(Number(dataOf(await client.getFuturesAccountAsset(CONTRACT)).crossedMarginLeverage), 7);
  }),
  setFuturesMarginMode: works(async ({ client }) => {
    await client.setFuturesMarginMode({ ...CONTRACT, marginMode: 'isolated' });
    assert.equal(dataOf(await client.getFuturesAccountAsset(CONTRACT)).marginMode, 'isolated');
  }),
  setFuturesPositionMode: works(async ({ client }) => {
    await client.setFuturesPositionMode({ productType: USDT_M, posMode: 'one_way_mode' });
    assert.equal(dataOf(await client.getFuturesAccountAsset(CONTRACT)).posMode, 'one_way_mode');
  }),
  setFuturesPositionMargin: works(async (context) => {
    await isolatedLong(context);
    await context.client.setFuturesPositionMargin({ ...CONTRACT, holdSide: 'long', amount: '10' });
    const [position] = dataOf(await context.client.getFuturesPosition(CONTRACT));
    assert.ok(Number(position?.marginSize) > 10, `margin ${position?.marginSize}`);
  }),
  setFuturesAssetMode: works(async ({ client }) => {
    await client.setFuturesAssetMode({ productType: USDT_M, assetMode: 'union' });
    assert.equal(
      dataOf(await client.getFuturesAccountAssets({ productType: USDT_M }))[0]?.assetMode,
      'union',
    );
  }),
  getUnionTransferLimits: works(async ({ client }) =>
    hasFields(dataOf(await client.getUnionTransferLimits({ coin: 'BTC' })), 'coin'),
  ),
  getSwitchUnionUsdt: works(async ({ client }) => hasFields(dataOf(await client.getSwitchUnionUsdt()))),
};
