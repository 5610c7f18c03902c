/**
 * The `bitget-api` SDK, unmodified, against the transfer, sub-account and broker endpoints:
 * RestClientV2 transfers between wallets and lists the records, creates a virtual
 * sub-account and its key (which then signs its own requests), moves funds to it, and reads
 * the broker and agent reports; RestClientV3 submits a transfer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import { admin, harness, mainAccount } from '../api/routes/broker-helpers.ts';

test('bitget-api SDK when a broker runs transfers, a sub-account and its reports gets venue shapes', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h, { funds: [['spot', 'USDT', '1000']] });
  const options = {
    apiKey: broker.credentials.apiKey,
    apiSecret: broker.credentials.secretKey,
    apiPass: broker.credentials.passphrase,
    baseUrl: h.server.url,
  };
  const v2 = new RestClientV2(options);
  const v3 = new RestClientV3(options);

  const moved = await v2.spotTransfer({
    fromType: 'spot',
    toType: 'usdt_futures',
    amount: '100',
    coin: 'USDT',
    symbol: '',
    clientOid: 'sdk-1',
  });
  assert.equal(moved.code, '00000');
  assert.equal(moved.data.clientOid, 'sdk-1');
  const uta = await v3.submitTransfer({
    fromType: 'usdt_futures',
    toType: 'spot',
    amount: '40',
    coin: 'USDT',
  });
  assert.match(uta.data.transferId, /^\d{18}$/);
  const history = await v2.getSpotTransferHistory({ coin: 'USDT', fromType: 'spot' });
  assert.deepEqual(
    history.data.map((row) => [row.transferId, row.status, row.size]),
    [[moved.data.transferId, 'Successful', '100']],
  );

  const created = await v2.createVirtualSubaccount({ subAccountList: ['sdkalias'] });
  const sub = created.data.successList[0];
  assert.equal(sub?.subaAccountName, 'sdkalias@virtual-bourse.com');
  const listed = await v2.getVirtualSubaccounts();
  assert.equal(listed.data.subAccountList[0]?.subAccountUid, sub?.subaAccountUid);
  const key = await v2.createVirtualSubaccountAPIKey({
    subAccountUid: sub?.subaAccountUid ?? '',
    passphrase: 'sdkPass123',
    label: 'sdk',
    permList: ['spot_trade', 'read'],
    ipList: ['127.0.0.1'],
  });
  assert.deepEqual(key.data.permList, ['spot_trade', 'read']);
  const keys = await v2.getVirtualSubaccountAPIKeys({ subAccountUid: sub?.subaAccountUid ?? '' });
  assert.equal(keys.data[0]?.subAccountApiKey, key.data.subAccountApiKey);

  const toSub = await v2.spotSubTransfer({
    fromType: 'spot',
    toType: 'spot',
    amount: '25',
    coin: 'USDT',
    fromUserId: broker.uid,
    toUserId: sub?.subaAccountUid ?? '',
  });
  assert.equal(toSub.code, '00000');
  const subClient = new RestClientV2({
    apiKey: key.data.subAccountApiKey,
    apiSecret: key.data.secretKey,
    apiPass: 'sdkPass123',
    baseUrl: h.server.url,
  });
  const assets = await subClient.getSpotAccountAssets();
  assert.deepEqual(
    assets.data.map((asset) => [asset.coin, asset.available]),
    [['USDT', '25']],
  );
  await assert.rejects(
    subClient.spotTransfer({
      fromType: 'spot',
      toType: 'usdt_futures',
      amount: '1',
      coin: 'USDT',
      symbol: '',
    }),
    (error: { body?: { code?: string } }) => error.body?.code === '40014',
  );

  const now = Number((await h.operator.getClock()).nowMs);
  const report = await v2.getAllSubDepositWithdrawalRecords({
    startTime: String(now - 60_000),
    endTime: String(now + 60_000),
  });
  assert.deepEqual(
    report.data.list.map((row) => [row.uid, row.type, row.subType, row.amount, row.status]),
    [[sub?.subaAccountUid, 'deposit', 'internal', '25', 'success']],
  );

  await admin(h.operator, 'POST', '/admin/v1/agents', { uid: broker.uid, rebateRate: '0.1' });
  const kyc = await v2.getAgentCustomerKycResult();
  assert.deepEqual(kyc.data, { userList: [], endId: '' });
  const commissions = await v2.getAgentCustomerCommissions();
  assert.deepEqual(commissions.data, { commissionList: [], endId: '' });
});
