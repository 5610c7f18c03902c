/**
 * The wallet through unmodified clients, against a server at its defaults (moving prices, the
 * liquidity provider on): ccxt's bitget class (fetchDepositAddress, fetchDeposits, withdraw,
 * fetchWithdrawals, fetchTradingFee(s), the convert methods, transfer and the funding
 * balance) on a classic account and on a unified one, and the bitget-api SDK's RestClientV2
 * and RestClientV3 methods for the same paths.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import ccxt from 'ccxt';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

const PERMISSIONS = ['stow', 'stor', 'wtow', 'wtor', 'wwow', 'coor', 'cpor', 'smor'];

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  // Only what the test support turns off (feed, liquidity) is set back to its default.
  server = await startTestServer({ env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' } });
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

async function account(mode: 'classic' | 'unified', funds: [string, string, string][]) {
  const { uid } = await operator.createAccount({ mode });
  for (const [wallet, coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
  const key = await operator.createApiKey(uid, { permissions: PERMISSIONS });
  const exchange = new ccxt.bitget({ apiKey: key.apiKey, secret: key.secretKey, password: key.passphrase });
  const urls = exchange.urls as { api: Record<string, string> };
  urls.api = Object.fromEntries(Object.keys(urls.api).map((section) => [section, server.url]));
  const sdk = { apiKey: key.apiKey, apiSecret: key.secretKey, apiPass: key.passphrase, baseUrl: server.url };
  return { uid, exchange, v2: new RestClientV2(sdk), v3: new RestClientV3(sdk) };
}

async function credit(address: string, amount: string): Promise<string> {
  const answer = await operator.call<{ id: string }>(
    'POST',
    `/admin/v1/deposit-addresses/${address}/deposits`,
    {
      amount,
    },
  );
  assert.equal(answer.body?.code, '00000', answer.text);
  return answer.body.data.id;
}

test('ccxt bitget when a classic account deposits, withdraws, reads fees and converts', async () => {
  const { exchange } = await account('classic', [['spot', 'USDT', '1000']]);
  const address = await exchange.fetchDepositAddress('USDT', { network: 'TRC20' });
  assert.match(address.address ?? '', /^0x[0-9a-f]+$/);
  assert.equal(address.network, 'TRC20');
  await credit(address.address ?? '', '25');
  const deposits = await exchange.fetchDeposits('USDT');
  const credited = deposits.find((one) => one.address === address.address);
  assert.deepEqual([credited?.amount, credited?.status, credited?.type], [25, 'ok', 'deposit']);

  const sent = await exchange.withdraw('USDT', 10, 'TQ1xExternal', undefined, { network: 'TRC20' });
  const pending = await exchange.fetchWithdrawals('USDT');
  assert.deepEqual(
    pending.map((one) => [one.id, one.status, one.amount, one.addressTo]),
    [[sent.id, 'pending', 10, 'TQ1xExternal']],
  );
  await operator.call('POST', `/admin/v1/funding/${sent.id}/settle`, { status: 'success' });
  assert.equal((await exchange.fetchWithdrawal(String(sent.id), 'USDT')).status, 'ok');

  const fee = await exchange.fetchTradingFee('BTC/USDT');
  assert.deepEqual([fee.maker, fee.taker], [0.001, 0.001]);
  const swapFee = await exchange.fetchTradingFee('BTC/USDT:USDT');
  assert.deepEqual([swapFee.maker, swapFee.taker], [0.0002, 0.0006]);
  const fees = await exchange.fetchTradingFees();
  assert.equal(fees['BTC/USDT']?.taker, 0.001);

  const currencies = await exchange.fetchConvertCurrencies();
  assert.ok(currencies.BTC && currencies.ETH && currencies.USDT, Object.keys(currencies).join());
  const quote = await exchange.fetchConvertQuote('USDT', 'BTC', 100);
  assert.ok(quote.id && quote.price && quote.toAmount, JSON.stringify(quote.info));
  const trade = await exchange.createConvertTrade(quote.id, 'USDT', 'BTC', 100, {
    price: quote.price,
    toAmount: quote.info.toCoinSize,
  });
  assert.equal(trade.toAmount, quote.toAmount);
  const history = await exchange.fetchConvertTradeHistory();
  assert.deepEqual(
    history.map((one) => [one.fromCurrency, one.fromAmount, one.toCurrency, one.toAmount]),
    [['USDT', 100, 'BTC', quote.toAmount]],
  );
  const balance = await exchange.fetchBalance();
  // 1000 + 25 − 10 − 100 USDT.
  assert.equal(balance.USDT?.total, 915);
  assert.equal(balance.BTC?.total, quote.toAmount);
});

test('ccxt bitget when a unified account uses its funding wallet, deposits and withdraws over v3', async () => {
  const { exchange } = await account('unified', [['funding', 'USDT', '100']]);
  await exchange.transfer('USDT', 40, 'funding', 'uta');
  const funding = await exchange.fetchBalance({ type: 'funding' });
  assert.equal(funding.USDT?.total, 60);
  const unified = await exchange.fetchBalance();
  assert.equal(unified.USDT?.total, 40);

  const address = await exchange.fetchDepositAddress('USDT', { network: 'TRC20' });
  await credit(address.address ?? '', '5');
  const deposits = await exchange.fetchDeposits('USDT');
  assert.deepEqual(
    deposits.filter((one) => one.address === address.address).map((one) => [one.amount, one.status]),
    [[5, 'ok']],
  );
  const sent = await exchange.withdraw('USDT', 20, 'TQ1xExternal', undefined, { network: 'TRC20' });
  const withdrawals = await exchange.fetchWithdrawals('USDT');
  assert.deepEqual(
    withdrawals.map((one) => [one.id, one.status, one.amount]),
    [[sent.id, 'pending', 20]],
  );
  // From the funding wallet first: 60 − 20 are left available there.
  const after = await exchange.fetchBalance({ type: 'funding' });
  assert.deepEqual([after.USDT?.free, after.USDT?.used], [40, 20]);
  const fee = await exchange.fetchTradingFee('BTC/USDT:USDT');
  assert.deepEqual([fee.maker, fee.taker], [0.0002, 0.0006]);
  const fees = await exchange.fetchTradingFees({ type: 'spot' });
  assert.equal(fees['ETH/USDT']?.maker, 0.001);
});

test('bitget-api clients when calling the wallet, fee and convert methods get the venue shapes', async () => {
  const classic = await account('classic', [['spot', 'USDT', '500']]);
  const rate = await classic.v2.getTradeRate({ symbol: 'BTCUSDT', businessType: 'mix' });
  assert.deepEqual(rate.data, { makerFeeRate: '0.0002', takerFeeRate: '0.0006' });
  const rates = await classic.v2.getAllTradeRates({ businessType: 'spot' });
  assert.ok(rates.data.some((row) => row.symbol === 'BTCUSDT'));
  const address = await classic.v2.getSpotDepositAddress({ coin: 'USDT', chain: 'trc20', size: '' });
  const depositId = await credit(address.data.address, '7');
  const now = Date.now();
  const window = { startTime: String(now - 60_000), endTime: String(now + 60_000) };
  const deposits = await classic.v2.getSpotDepositHistory({ ...window, coin: 'USDT' });
  assert.deepEqual(
    deposits.data.filter((row) => row.orderId === depositId).map((row) => [row.size, row.chain]),
    [['7', 'TRC20']],
  );
  const withdrawal = await classic.v2.spotWithdraw({
    coin: 'USDT',
    transferType: 'on_chain',
    address: 'TQ1xExternal',
    chain: 'trc20',
    size: '3',
    clientOid: 'sdk-w1',
  });
  assert.equal(withdrawal.data.clientOid, 'sdk-w1');
  const withdrawals = await classic.v2.getSpotWithdrawalHistory({ ...window, clientOid: 'sdk-w1' });
  assert.deepEqual(
    withdrawals.data.map((row) => [row.orderId, row.status, row.fee]),
    [[withdrawal.data.orderId, 'pending', '0']],
  );
  const coins = await classic.v2.getConvertCoins();
  assert.ok(coins.data.some((row) => row.coin === 'ETH'));
  const quote = await classic.v2.getConvertQuotedPrice({
    fromCoin: 'USDT',
    toCoin: 'ETH',
    fromCoinSize: '50',
  });
  const { fromCoin, fromCoinSize, toCoin, toCoinSize, cnvtPrice, traceId } = quote.data;
  const done = await classic.v2.convert({ fromCoin, fromCoinSize, toCoin, toCoinSize, cnvtPrice, traceId });
  assert.equal(done.data.toCoinSize, toCoinSize);
  const history = await classic.v2.getConvertHistory(window);
  assert.deepEqual(
    history.data.dataList.map((row) => [row.fromCoinSize, row.toCoinSize]),
    [['50', toCoinSize]],
  );

  const unified = await account('unified', [['unified', 'USDT', '30']]);
  const fee = await unified.v3.getFeeRate({ category: 'SPOT', symbol: 'BTCUSDT' });
  assert.deepEqual(fee.data, { makerFeeRate: '0.001', takerFeeRate: '0.001' });
  const all = await unified.v3.getAllFeeRates({ category: 'USDT-FUTURES' });
  assert.ok(all.data.some((row) => row.symbol === 'BTCUSDT'));
  const moved = await unified.v3.submitTransfer({
    fromType: 'uta',
    toType: 'spot',
    coin: 'USDT',
    amount: '12',
  });
  assert.match(moved.data.transferId, /^\d+$/);
  const assets = await unified.v3.getFundingAssets();
  assert.deepEqual(assets.data, [{ coin: 'USDT', balance: '12', available: '12', frozen: '0' }]);
  const v3Address = await unified.v3.getDepositAddress({ coin: 'BTC' });
  await credit(v3Address.data.address, '0.01');
  const v3Deposits = await unified.v3.getDepositRecords(window);
  assert.deepEqual(
    v3Deposits.data.filter((row) => row.coin === 'BTC').map((row) => [row.size, row.status, row.dest]),
    [['0.01', 'success', 'on_chain']],
  );
  const v3Withdraw = await unified.v3.submitWithdraw({
    coin: 'USDT',
    transferType: 'on_chain',
    address: 'TQ1xExternal',
    chain: 'trc20',
    size: '2',
  });
  const v3Withdrawals = await unified.v3.getWithdrawRecords(window);
  assert.deepEqual(
    v3Withdrawals.data.map((row) => [row.orderId, row.status]),
    [[v3Withdraw.data.orderId, 'pending']],
  );
  const v3Quote = await unified.v2.getConvertQuotedPrice({
    fromCoin: 'USDT',
    toCoin: 'BTC',
    fromCoinSize: '10',
  });
  await unified.v2.convert({ ...v3Quote.data, fromCoinSize: v3Quote.data.fromCoinSize });
  const records = await unified.v3.getConvertRecords({ fromCoin: 'USDT', toCoin: 'BTC' });
  assert.deepEqual(
    records.data.list.map((row) => row.fromCoinSize),
    ['10'],
  );
});
