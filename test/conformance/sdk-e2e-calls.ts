/**
 * The calls the `bitget-api` repository's own end-to-end tests make (test/v2 and test/v3:
 * public, private read, private write), with their arguments, and the error code each of
 * those tests names as acceptable instead of success (none: it must succeed). Written here
 * from what they check, for sdk-e2e.test.ts.
 */
import type { RestClientV2, RestClientV3 } from 'bitget-api';

export type Call = [
  file: string,
  name: string,
  call: (v2: RestClientV2, v3: RestClientV3) => Promise<unknown>,
  code?: string,
];

const SYMBOL = 'BTCUSDT';
const PT = 'USDT-FUTURES';
const DAY = { startTime: '1715808000000', endTime: '1715894400000' };
const UNKNOWN = '123456789';
const spotLimit = {
  symbol: SYMBOL,
  side: 'buy',
  orderType: 'limit',
  price: '20000',
  size: '0.001',
  force: 'gtc',
} as const;
const v3Limit = {
  category: 'SPOT',
  symbol: SYMBOL,
  side: 'buy',
  orderType: 'limit',
  price: '20000',
  qty: '0.001',
  timeInForce: 'gtc',
} as const;
const v3Futures = { ...v3Limit, category: PT, posSide: 'long' } as const;

export const CALLS: Call[] = [
  ['v2/public', 'getServerTime', (v2) => v2.getServerTime()],
  ['v2/public', 'getSpotTicker', (v2) => v2.getSpotTicker({ symbol: SYMBOL })],
  [
    'v2/public',
    'getSpotOrderBookDepth',
    (v2) => v2.getSpotOrderBookDepth({ symbol: SYMBOL, type: 'step0', limit: '20' }),
  ],
  [
    'v2/public',
    'getSpotCandles',
    (v2) => v2.getSpotCandles({ symbol: SYMBOL, granularity: '1min', limit: '100' }),
  ],
  ['v2/public', 'getSpotRecentTrades', (v2) => v2.getSpotRecentTrades({ symbol: SYMBOL, limit: '20' })],
  ['v2/public', 'getSpotHistoricTrades', (v2) => v2.getSpotHistoricTrades({ symbol: SYMBOL, limit: '20' })],
  [
    'v2/public',
    'getFuturesCurrentFundingRate',
    (v2) => v2.getFuturesCurrentFundingRate({ symbol: SYMBOL, productType: PT }),
  ],
  [
    'v2/public',
    'getFuturesOpenInterest',
    (v2) => v2.getFuturesOpenInterest({ symbol: SYMBOL, productType: PT }),
  ],
  [
    'v2/public',
    'getFuturesContractConfig',
    (v2) => v2.getFuturesContractConfig({ symbol: SYMBOL, productType: PT }),
  ],
  ['v2/private.read', 'getSpotAccount', (v2) => v2.getSpotAccount()],
  ['v2/private.read', 'getSpotAccountAssets', (v2) => v2.getSpotAccountAssets()],
  ['v2/private.read', 'getSpotAccountBills', (v2) => v2.getSpotAccountBills()],
  ['v2/private.read', 'getSpotOrder', (v2) => v2.getSpotOrder({ orderId: UNKNOWN }), '40001'],
  ['v2/private.read', 'getSpotOpenOrders', (v2) => v2.getSpotOpenOrders()],
  ['v2/private.read', 'getSpotHistoricOrders', (v2) => v2.getSpotHistoricOrders()],
  ['v2/private.read', 'getSpotFills', (v2) => v2.getSpotFills({ symbol: SYMBOL })],
  ['v2/private.read', 'getSpotDepositHistory', (v2) => v2.getSpotDepositHistory(DAY)],
  ['v2/private.read', 'getSpotWithdrawalHistory', (v2) => v2.getSpotWithdrawalHistory(DAY)],
  [
    'v2/private.read',
    'getSpotTransferHistory',
    (v2) => v2.getSpotTransferHistory({ coin: 'BTC', fromType: 'spot' }),
  ],
  [
    'v2/private.read',
    'getFuturesAccountAsset',
    (v2) => v2.getFuturesAccountAsset({ symbol: SYMBOL, marginCoin: 'USDT', productType: PT }),
  ],
  ['v2/private.read', 'getFuturesPositions', (v2) => v2.getFuturesPositions({ productType: PT } as never)],
  [
    'v2/private.read',
    'getFuturesOrder',
    (v2) => v2.getFuturesOrder({ symbol: SYMBOL, productType: PT, orderId: UNKNOWN }),
    '40109',
  ],
  ['v2/private.write', 'spotSubmitOrder', (v2) => v2.spotSubmitOrder(spotLimit), '43012'],
  [
    'v2/private.write',
    'spotCancelOrder',
    (v2) => v2.spotCancelOrder({ symbol: SYMBOL, orderId: UNKNOWN }),
    '43001',
  ],
  [
    'v2/private.write',
    'spotBatchSubmitOrders',
    (v2) => v2.spotBatchSubmitOrders({ symbol: SYMBOL, orderList: [spotLimit] }),
    '43001',
  ],
  [
    'v2/private.write',
    'spotBatchCancelOrders',
    (v2) =>
      v2.spotBatchCancelOrders({
        symbol: SYMBOL,
        orderList: [{ symbol: SYMBOL, orderId: UNKNOWN }],
      } as never),
    '43001',
  ],
  [
    'v2/private.write',
    'spotTransfer',
    (v2) =>
      v2.spotTransfer({
        fromType: 'spot',
        toType: 'coin_futures',
        amount: '0.001',
        coin: 'BTC',
        symbol: SYMBOL,
      }),
    '43117',
  ],
  [
    'v2/private.write',
    'spotWithdraw',
    (v2) =>
      v2.spotWithdraw({
        coin: 'BTC',
        address: 'test_address',
        chain: 'BTC',
        transferType: 'on_chain',
        size: '0.001',
      }),
    '40014',
  ],
  [
    'v2/private.write',
    'futuresSubmitOrder',
    (v2) =>
      v2.futuresSubmitOrder({
        symbol: SYMBOL,
        productType: PT,
        side: 'buy',
        orderType: 'limit',
        price: '20000',
        size: '0.001',
        marginMode: 'isolated',
        marginCoin: 'USDT',
      }),
    '40774',
  ],
  [
    'v2/private.write',
    'futuresCancelOrder',
    (v2) => v2.futuresCancelOrder({ symbol: SYMBOL, productType: PT, orderId: UNKNOWN } as never),
    '40768',
  ],
  [
    'v2/private.write',
    'futuresBatchSubmitOrders',
    (v2) =>
      v2.futuresBatchSubmitOrders({
        symbol: SYMBOL,
        productType: PT,
        marginCoin: 'USDT',
        marginMode: 'crossed',
        orderList: [{ side: 'buy', orderType: 'limit', price: '20000', size: '0.001' }],
      } as never),
    '43001',
  ],
  [
    'v2/private.write',
    'futuresBatchCancelOrders',
    (v2) =>
      v2.futuresBatchCancelOrders({ symbol: SYMBOL, productType: PT, orderIdList: [{ orderId: UNKNOWN }] }),
    '43001',
  ],
  ['v3/public', 'getDiscountRate', (_, v3) => v3.getDiscountRate()],
  ['v3/public', 'getTickers', (_, v3) => v3.getTickers({ category: 'SPOT', symbol: SYMBOL })],
  [
    'v3/public',
    'getOrderBook',
    (_, v3) => v3.getOrderBook({ category: 'SPOT', symbol: SYMBOL, limit: '20' }),
  ],
  [
    'v3/public',
    'getCandles',
    (_, v3) => v3.getCandles({ category: 'SPOT', symbol: SYMBOL, interval: '1m', limit: '100' }),
  ],
  ['v3/public', 'getFills', (_, v3) => v3.getFills({ category: 'SPOT', symbol: SYMBOL, limit: '20' })],
  [
    'v3/public',
    'getHistoryCandles',
    (_, v3) => v3.getHistoryCandles({ category: 'SPOT', symbol: SYMBOL, interval: '1m', limit: '20' }),
  ],
  ['v3/public', 'getCurrentFundingRate', (_, v3) => v3.getCurrentFundingRate({ symbol: SYMBOL })],
  ['v3/public', 'getOpenInterest', (_, v3) => v3.getOpenInterest({ category: PT, symbol: SYMBOL })],
  ['v3/public', 'getInstruments', (_, v3) => v3.getInstruments({ category: 'SPOT', symbol: SYMBOL })],
  ['v3/private.read', 'getBalances', (_, v3) => v3.getBalances()],
  ['v3/private.read', 'getFundingAssets', (_, v3) => v3.getFundingAssets()],
  ['v3/private.read', 'getAccountSettings', (_, v3) => v3.getAccountSettings()],
  ['v3/private.read', 'getOrderInfo', (_, v3) => v3.getOrderInfo({ orderId: UNKNOWN }), '25204'],
  ['v3/private.read', 'getUnfilledOrders', (_, v3) => v3.getUnfilledOrders()],
  ['v3/private.read', 'getHistoryOrders', (_, v3) => v3.getHistoryOrders({ category: 'SPOT' })],
  ['v3/private.read', 'getTradeFills', (_, v3) => v3.getTradeFills()],
  ['v3/private.read', 'getDepositRecords', (_, v3) => v3.getDepositRecords(DAY as never)],
  ['v3/private.read', 'getWithdrawRecords', (_, v3) => v3.getWithdrawRecords(DAY as never)],
  ['v3/private.read', 'getFinancialRecords', (_, v3) => v3.getFinancialRecords({ category: 'SPOT' })],
  ['v3/private.read', 'getCurrentPosition', (_, v3) => v3.getCurrentPosition({ category: PT })],
  ['v3/private.read', 'getPositionHistory', (_, v3) => v3.getPositionHistory({ category: PT })],
  [
    'v3/private.read',
    'getOrderInfo (invalid order)',
    (_, v3) => v3.getOrderInfo({ orderId: UNKNOWN }),
    '25204',
  ],
  ['v3/private.write', 'submitNewOrder', (_, v3) => v3.submitNewOrder(v3Limit), '25202'],
  ['v3/private.write', 'cancelOrder', (_, v3) => v3.cancelOrder({ orderId: UNKNOWN }), '25204'],
  ['v3/private.write', 'placeBatchOrders', (_, v3) => v3.placeBatchOrders([v3Limit]), '43012'],
  [
    'v3/private.write',
    'cancelBatchOrders',
    (_, v3) => v3.cancelBatchOrders([{ category: 'SPOT', symbol: SYMBOL, orderId: UNKNOWN }]),
    '25204',
  ],
  [
    'v3/private.write',
    'modifyOrder',
    (_, v3) => v3.modifyOrder({ orderId: UNKNOWN, qty: '0.002', price: '21000' } as never),
    '25204',
  ],
  ['v3/private.write', 'submitNewOrder (futures)', (_, v3) => v3.submitNewOrder(v3Futures), '25203'],
  ['v3/private.write', 'cancelOrder (futures)', (_, v3) => v3.cancelOrder({ orderId: UNKNOWN }), '25204'],
  ['v3/private.write', 'placeBatchOrders (futures)', (_, v3) => v3.placeBatchOrders([v3Futures]), '43012'],
  [
    'v3/private.write',
    'closeAllPositions',
    (_, v3) => v3.closeAllPositions({ category: PT, symbol: SYMBOL }),
    '25227',
  ],
];
