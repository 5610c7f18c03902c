/**
 * RestClientV2's wallet, fee and convert methods on a classic account: deposit addresses (of
 * the account and of a sub-account), the operator's deposits as records, withdrawal requests
 * (pending until the operator settles them) and their cancel, fee rates, and a convert from
 * quote to record.
 */
import assert from 'node:assert/strict';
import { dataOf, hasFields, SYMBOL, type V2Context } from './sdk-context.ts';
import { works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;

/** The last minute and the next: the records these cases make fall inside. */
function window() {
  return { startTime: String(Date.now() - 60_000), endTime: String(Date.now() + 60_000) };
}

/** A pending on-chain withdrawal of 3 USDT; its order id. */
async function withdrawThree({ client }: V2Context): Promise<string> {
  const request = {
    coin: 'USDT',
    transferType: 'on_chain',
    address: 'TQ1xExternal',
    chain: 'trc20',
    size: '3',
  } as const;
  return dataOf(await client.spotWithdraw(request)).orderId;
}

/** A virtual sub-account of the context's account, made by the operator, with 25 USDT. */
async function fundedSub(context: V2Context): Promise<string> {
  const { uid } = await context.operator.createAccount({ kind: 'virtual', parentUid: context.uid });
  await context.operator.deposit(uid, { coin: 'USDT', amount: '25' });
  return uid;
}

async function convertFifty({ client }: V2Context) {
  const quote = dataOf(
    await client.getConvertQuotedPrice({ fromCoin: 'USDT', toCoin: 'BTC', fromCoinSize: '50' }),
  );
  const { fromCoin, fromCoinSize, toCoin, toCoinSize, cnvtPrice, traceId } = quote;
  const trade = dataOf(
    await client.convert({ fromCoin, fromCoinSize, toCoin, toCoinSize, cnvtPrice, traceId }),
  );
  return { quote, trade };
}

export const SDK_V2_WALLET_CASES: Cases = {
  getSpotDepositAddress: works(async ({ client }) => {
    const address = dataOf(await client.getSpotDepositAddress({ coin: 'USDT', chain: 'trc20' } as never));
    assert.deepEqual([address.chain, /^0x[0-9a-f]+$/.test(address.address)], ['TRC20', true]);
  }),
  getSpotDepositHistory: works(async ({ client }) => {
    const deposits = dataOf(await client.getSpotDepositHistory({ ...window(), coin: 'BTC' }));
    assert.deepEqual(
      deposits.map((row) => [row.size, row.status]),
      [['2', 'success']],
    );
  }),
  spotWithdraw: works(async (context) => assert.match(await withdrawThree(context), /^\d+$/)),
  getSpotWithdrawalHistory: works(async (context) => {
    const orderId = await withdrawThree(context);
    const records = dataOf(await context.client.getSpotWithdrawalHistory(window()));
    assert.deepEqual(
      records.map((row) => [row.orderId, row.status, row.fee]),
      [[orderId, 'pending', '0']],
    );
  }),
  spotCancelWithdrawal: works(async (context) => {
    const orderId = await withdrawThree(context);
    await context.client.spotCancelWithdrawal({ orderId });
    const [record] = dataOf(await context.client.getSpotWithdrawalHistory({ ...window(), orderId } as never));
    assert.equal(record?.status, 'fail');
  }),
  getSpotSubDepositAddress: works(async (context) => {
    const subUid = await fundedSub(context);
    const address = dataOf(await context.client.getSpotSubDepositAddress({ subUid, coin: 'USDT' } as never));
    hasFields(address, 'address', 'chain');
  }),
  getSubAccountDepositRecords: works(async (context) => {
    const subUid = await fundedSub(context);
    const records = dataOf(await context.client.getSubAccountDepositRecords({ subUid } as never));
    assert.deepEqual(
      records.map((row) => row.size),
      ['25'],
    );
  }),
  getTradeRate: works(async ({ client }) => {
    const rate = dataOf(await client.getTradeRate({ symbol: SYMBOL, businessType: 'mix' }));
    assert.deepEqual(rate, { makerFeeRate: '0.0002', takerFeeRate: '0.0006' });
  }),
  getAllTradeRates: works(async ({ client }) => {
    const rates = dataOf(await client.getAllTradeRates({ businessType: 'spot' }));
    assert.equal(rates.find((row) => row.symbol === SYMBOL)?.takerFeeRate, '0.001');
  }),
  getConvertCoins: works(async ({ client }) => {
    const coins = dataOf(await client.getConvertCoins());
    assert.equal(coins.find((row) => row.coin === 'USDT')?.available, '100000');
  }),
  getConvertQuotedPrice: works(async ({ client }) => {
    const quote = dataOf(
      await client.getConvertQuotedPrice({ fromCoin: 'USDT', toCoin: 'BTC', fromCoinSize: '50' }),
    );
    assert.ok(Number(quote.cnvtPrice) > 0 && Number(quote.toCoinSize) > 0, JSON.stringify(quote));
  }),
  convert: works(async (context) => {
    const { quote, trade } = await convertFifty(context);
    assert.equal(trade.toCoinSize, quote.toCoinSize);
  }),
  getConvertHistory: works(async (context) => {
    const { quote } = await convertFifty(context);
    const history = dataOf(await context.client.getConvertHistory(window())).dataList;
    assert.deepEqual(
      history.map((row) => [row.fromCoinSize, row.toCoinSize]),
      [['50', quote.toCoinSize]],
    );
  }),
};
