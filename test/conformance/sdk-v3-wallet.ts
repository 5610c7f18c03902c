/**
 * RestClientV3's wallet, fee and convert methods on a unified account: its funding wallet and
 * transfers to it, deposit addresses (its own and a sub-account's), the operator's deposits as
 * records, withdrawal requests and their cancel, fee rates, and convert records (the convert
 * itself is v2's, for both account kinds, as on the venue).
 */
import assert from 'node:assert/strict';
import { RestClientV2 } from 'bitget-api';
import { dataOf, hasFields, SYMBOL, USDT_M, type V3Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V3Context>>;

function window() {
  return { startTime: String(Date.now() - 60_000), endTime: String(Date.now() + 60_000) };
}

/** 12 USDT moved from the unified wallet to the funding wallet. */
async function toFunding({ client }: V3Context): Promise<void> {
  await client.submitTransfer({ fromType: 'uta', toType: 'spot', coin: 'USDT', amount: '12' });
}

/** A pending on-chain withdrawal of 2 USDT; its order id. */
async function withdrawTwo({ client }: V3Context): Promise<string> {
  const request = {
    coin: 'USDT',
    transferType: 'on_chain',
    address: 'TQ1xExternal',
    chain: 'trc20',
    size: '2',
  } as const;
  return dataOf(await client.submitWithdraw(request as never)).orderId;
}

/** A virtual sub-account of the context's account, made by the operator, with 25 USDT. */
async function fundedSub(context: V3Context): Promise<string> {
  const { uid } = await context.operator.createAccount({
    kind: 'virtual',
    parentUid: context.uid,
    mode: 'unified',
  });
  await context.operator.deposit(uid, { coin: 'USDT', amount: '25', wallet: 'unified' });
  return uid;
}

export const SDK_V3_WALLET_CASES: Cases = {
  submitTransfer: works(async (context) => {
    const moved = await context.client.submitTransfer({
      fromType: 'uta',
      toType: 'spot',
      coin: 'USDT',
      amount: '12',
    });
    assert.match(dataOf(moved).transferId, /^\d+$/);
  }),
  getFundingAssets: works(async (context) => {
    await toFunding(context);
    const assets = dataOf(await context.client.getFundingAssets());
    assert.deepEqual(assets, [{ coin: 'USDT', balance: '12', available: '12', frozen: '0' }]);
  }),
  getDepositAddress: works(async ({ client }) => {
    const address = dataOf(await client.getDepositAddress({ coin: 'BTC' }));
    assert.deepEqual([address.coin, /^0x[0-9a-f]+$/.test(address.address)], ['BTC', true]);
  }),
  getDepositRecords: works(async ({ client }) => {
    const records = dataOf(await client.getDepositRecords({ ...window(), coin: 'BTC' } as never));
    assert.deepEqual(
      records.map((row) => [row.size, row.status]),
      [['2', 'success']],
    );
  }),
  submitWithdraw: works(async (context) => assert.match(await withdrawTwo(context), /^\d+$/)),
  getWithdrawRecords: works(async (context) => {
    const orderId = await withdrawTwo(context);
    const records = dataOf(await context.client.getWithdrawRecords(window() as never));
    assert.deepEqual(
      records.map((row) => [row.orderId, row.status]),
      [[orderId, 'pending']],
    );
  }),
  cancelWithdrawal: works(async (context) => {
    const orderId = await withdrawTwo(context);
    await context.client.cancelWithdrawal({ orderId });
    const records = dataOf(await context.client.getWithdrawRecords(window() as never));
    assert.deepEqual(
      records.map((row) => [row.orderId, row.status]),
      [[orderId, 'fail']],
    );
  }),
  getSubDepositAddress: works(async (context) => {
    const subUid = await fundedSub(context);
    hasFields(
      dataOf(await context.client.getSubDepositAddress({ subUid, coin: 'USDT' } as never)),
      'address',
    );
  }),
  getSubDepositRecords: works(async (context) => {
    const subUid = await fundedSub(context);
    const records = dataOf(await context.client.getSubDepositRecords({ subUid, ...window() } as never));
    assert.deepEqual(
      records.map((row) => row.size),
      ['25'],
    );
  }),
  getFeeRate: works(async ({ client }) => {
    const rate = dataOf(await client.getFeeRate({ category: 'SPOT', symbol: SYMBOL }));
    assert.deepEqual(rate, { makerFeeRate: '0.001', takerFeeRate: '0.001' });
  }),
  getAllFeeRates: works(async ({ client }) => {
    const rates = dataOf(await client.getAllFeeRates({ category: USDT_M }));
    assert.equal(rates.find((row) => row.symbol === SYMBOL)?.takerFeeRate, '0.0006');
  }),
  getConvertRecords: works(async (context) => {
    const { apiKey, secretKey, passphrase } = context.account.key;
    const v2 = new RestClientV2({
      apiKey,
      apiSecret: secretKey,
      apiPass: passphrase,
      baseUrl: context.suite.server.url,
    });
    const quote = dataOf(
      await v2.getConvertQuotedPrice({ fromCoin: 'USDT', toCoin: 'BTC', fromCoinSize: '10' }),
    );
    await v2.convert(quote);
    const records = dataOf(await context.client.getConvertRecords({ fromCoin: 'USDT', toCoin: 'BTC' }));
    assert.deepEqual(
      records.list.map((row) => row.fromCoinSize),
      ['10'],
    );
  }),
};
