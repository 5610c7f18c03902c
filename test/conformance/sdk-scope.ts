/**
 * The SDK methods of the covered families that bourse does not serve, grouped by reason. Each
 * reason says what the venue's endpoint is for and why bourse has no equivalent (or that it is
 * not built yet); docs/endpoints.md prints them.
 */

/** Out-of-scope verdicts, which fit an entry of any context. */
type Group = Record<string, { outOfScope: string }>;

const outOfScope = (reason: string) => ({ outOfScope: reason });

function each(reason: string, names: readonly string[]): Group {
  return Object.fromEntries(names.map((name) => [name, outOfScope(reason)]));
}

const MARGIN_STATS =
  'spot margin statistics (loan growth, borrowing ratios, leveraged long/short) are not modelled';
const FUND_FLOW =
  "the venue's fund-flow analytics (order-size classes such as whale, dolphin and fish, net inflow) are not computed";
const BGB =
  "the venue's own token (BGB) is not modelled: no fee deduction in BGB, no conversion of small balances to BGB";
const UNION_INTEREST =
  'union-margin interest, conversion and its configuration are not modelled (docs/futures.md)';
const MODE_SWITCH =
  "an account's mode (classic or unified) is fixed when the operator creates it (docs/operator.md)";
const ND_BROKER =
  "the venue's ND-broker programme (sub-accounts with e-mails, their addresses and withdrawals, broker commissions) is not modelled; bourse's brokerage is agents and their customers (docs/broker.md) and virtual sub-accounts (docs/subaccounts.md)";
const AGENT_READS =
  'not served yet: an agent reads its customers’ KYC results and commissions; customer lists, volumes, deposits, assets and commission details are not exposed';
const FUTURES_TOOLS =
  'not served yet: a futures calculator or setting bourse does not offer (docs/futures.md, "Not yet")';
const REALITY = 'tokenised-stock (Reality) trading and its dividends are not a product of bourse';
const V3_SUBACCOUNTS =
  "not served: the unified account's sub-account API (v3 user and sub-account transfers); sub-accounts are managed through v2 (docs/subaccounts.md)";
const COLLATERAL =
  "the unified account's collateral settings are not modelled: every coin counts at its full value (discount rate 1, docs/market-data.md)";
const LOAN_PROGRAMME =
  "the venue's loan programmes (institutional and crypto loans) are not a product of bourse";
const MARKET_MAKING =
  "the venue's market-maker programme (fee groups, score weights, Retail Price Improvement orders) is not modelled";
const WALLET_EXTRAS =
  'not served yet: deposits credit the wallet the operator names, and a pending withdrawal is settled or rejected by the operator (docs/operator.md)';

export const SDK_V2_SCOPE: Group = {
  ...each(MARGIN_STATS, [
    'getFuturesLongShortRatio',
    'getMarginLoanGrowthRate',
    'getIsolatedMarginBorrowingRatio',
  ]),
  ...each(FUND_FLOW, [
    'getSpotWhaleNetFlowData',
    'getSpotFundFlow',
    'getSpotFundNetFlowData',
    'getTradeDataSupportSymbols',
  ]),
  ...each(BGB, [
    'getConvertBGBCoins',
    'convertBGB',
    'getConvertBGBHistory',
    'spotSwitchBGBDeduct',
    'getSpotBGBDeductInfo',
  ]),
  ...each(UNION_INTEREST, [
    'getFuturesInterestRateHistory',
    'getFuturesInterestExchangeRate',
    'getFuturesInterestHistory',
    'getUnionConfig',
    'unionConvert',
  ]),
  ...each(MODE_SWITCH, ['upgradeToUnifiedAccount', 'getUnifiedAccountSwitchStatus']),
  ...each(ND_BROKER, [
    'modifySubaccountEmail',
    'getBrokerInfo',
    'createSubaccount',
    'getSubaccounts',
    'modifySubaccount',
    'getSubaccountEmail',
    'getSubaccountSpotAssets',
    'getSubaccountFuturesAssets',
    'createSubaccountDepositAddress',
    'subaccountWithdrawal',
    'subaccountSetAutoTransfer',
    'subaccountDepositRecords',
    'subaccountWithdrawalRecords',
    'createSubaccountApiKey',
    'getSubaccountApiKey',
    'modifySubaccountApiKey',
    'deleteSubaccountApiKey',
    'getBrokerSubaccounts',
    'getBrokerCommissions',
    'getBrokerTradeVolume',
    'getBrokerTotalCommission',
    'getBrokerOrderCommission',
    'getBrokerRebateInfo',
  ]),
  ...each(AGENT_READS, [
    'getAgentSubCustomerList',
    'getAgentCustomerTradeVolume',
    'getAgentCustomerList',
    'getAgentCustomerDeposits',
    'getAgentCustomerAssets',
    'getAgentCommissionDetail',
  ]),
  ...each(FUTURES_TOOLS, [
    'getFuturesOpenCount',
    'setFuturesPositionAutoMargin',
    'getFuturesMaxOpenableQuantity',
    'getFuturesLiquidationPrice',
    'getFuturesIsolatedSymbols',
    'futuresSubmitReversal',
  ]),
  ...each(WALLET_EXTRAS, ['spotModifyDepositAccount', 'getSpotTransferableCoins']),
  getAnnouncements: outOfScope(
    "bourse publishes no announcements (the venue's notices are its editorial content)",
  ),
  getSpotVIPFeeRate: outOfScope(
    'VIP fee tiers are not modelled: every account pays its instrument’s maker and taker rates',
  ),
  getFuturesVIPFeeRate: outOfScope(
    'VIP fee tiers are not modelled: every account pays its instrument’s maker and taker rates',
  ),
  getSpotCallAuction: outOfScope(
    'call auctions of new listings are not modelled: a listing opens straight into continuous trading',
  ),
  getFundingAssets: outOfScope(
    "a classic account has no funding wallet: its spot wallet takes deposits (the unified account's is v3 funding-assets)",
  ),
  getBotAccount: outOfScope("the venue's trading-bot accounts are not a product of bourse"),
  getBalances: outOfScope(
    'not served yet: the all-account valuation; each wallet has its own balance endpoint',
  ),
  batchCreateVirtualSubaccountAndAPIKey: outOfScope(
    'not served yet: create the virtual sub-accounts, then their keys',
  ),
  createAgentSubaccount: outOfScope("the venue's AI-agent sub-accounts are not modelled"),
  getSpotSubAccountAssets: outOfScope(
    'not served yet: read a sub-account with its own key, or through the operator',
  ),
  getFuturesSubAccountAssets: outOfScope(
    'not served yet: read a sub-account with its own key, or through the operator',
  ),
  getFuturesHistoricOrderFills: outOfScope('not served yet: fills older than the fills endpoint’s window'),
};

export const SDK_V3_SCOPE: Group = {
  ...each(MARGIN_STATS, ['getMarginLongShort', 'getMarginLoanGrowth', 'getMarginIsolatedBorrow']),
  ...each(FUND_FLOW, ['getSpotWhaleFlow', 'getSpotFundFlow', 'getSpotNetFlow']),
  ...each(MARKET_MAKING, ['getMarketFeeGroup', 'getMarketScoreWeights', 'getRpiSymbols', 'getRpiOrderBook']),
  ...each(REALITY, [
    'getCashDividendRecords',
    'getRealityOrderBook',
    'getRealityFills',
    'placeRealityOrder',
    'cancelRealityOrder',
  ]),
  ...each(BGB, ['switchDeduct', 'getDeductInfo']),
  ...each(MODE_SWITCH, ['downgradeAccountToClassic', 'getUnifiedAccountSwitchStatus', 'adjustAccountMode']),
  ...each(COLLATERAL, ['getCollateralType', 'setCollateralType', 'getCustomCollateralCoins', 'getDeltaInfo']),
  ...each(LOAN_PROGRAMME, [
    'getEligibleSymbols',
    'getEligibleMarginTier',
    'getEligibleLoanInfo',
    'getLoanData',
  ]),
  ...each(V3_SUBACCOUNTS, [
    'createSubAccount',
    'createAgentSubAccount',
    'freezeSubAccount',
    'getSubUnifiedAssets',
    'getSubAccountList',
    'createSubAccountApiKey',
    'updateSubAccountApiKey',
    'deleteSubAccountApiKey',
    'getSubAccountApiKeys',
    'subAccountTransfer',
    'getSubTransferRecords',
    'subMasterTransfer',
  ]),
  ...each(ND_BROKER, [
    'createBrokerSubAccount',
    'getBrokerSubAccountList',
    'modifyBrokerSubAccount',
    'brokerSubWithdrawal',
    'getBrokerSubDepositAddress',
    'getBrokerAllSubDepositWithdrawal',
    'getBrokerCommission',
    'createBrokerSubApiKey',
    'modifyBrokerSubApiKey',
    'deleteBrokerSubApiKey',
    'getBrokerSubApiKey',
  ]),
  ...each(FUTURES_TOOLS, [
    'preSetLeverage',
    'setMargin',
    'getMaxOpenAvailable',
    'getMaxTransferable',
    'getMaxWithdrawal',
    'getOpenInterestLimit',
  ]),
  ...each(WALLET_EXTRAS, ['setDepositAccount', 'getWithdrawAddressBook', 'getTransferableCoins']),
  getLiquidations: outOfScope(
    'the public feed of liquidation orders is not served: a liquidation order is seen only by its account (docs/futures.md)',
  ),
  getProofOfReserves: outOfScope('proof of reserves attests custody of real assets; bourse holds none'),
  getRiskReserveHour: outOfScope(
    "not served yet: the insurance fund's hourly series (its balance and changes are in risk-reserve)",
  ),
  getIndexComponents: outOfScope(
    "an index price comes from bourse's feed or the operator (docs/market-data.md), not from a basket of exchanges",
  ),
  getAccountInfo: outOfScope(
    'not served yet: v3 account settings (`settings`) and assets carry the account’s mode and balances',
  ),
  getPaymentCoins: outOfScope(
    'not served yet: repayment converts no coin; a debt is repaid in its own coin (docs/trading.md)',
  ),
  getRateLimitQuota: outOfScope(
    'rate limits are the operator’s setting (BOURSE_RATE_LIMITS, docs/configuration.md)',
  ),
  setRateLimitQuota: outOfScope(
    'rate limits are the operator’s setting (BOURSE_RATE_LIMITS, docs/configuration.md)',
  ),
  movePositions: outOfScope('moving positions between accounts is not modelled'),
  getMovePositionHistory: outOfScope('moving positions between accounts is not modelled'),
  countdownCancelAll: outOfScope('not served yet: the cancel-all countdown (dead man’s switch)'),
  batchModifyOrders: outOfScope('not served yet: modify one order at a time with modify-order'),
};
