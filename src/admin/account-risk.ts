/**
 * An account's risk as the engine measures it (GET /admin/v1/accounts/{uid}, `risk`):
 *
 * - margin wallets (crossed, isolated per symbol, a unified account's wallet): assets and
 *   liabilities (borrowed + interest) in USDT and the risk ratio the engine's margin risk
 *   control reads (engine/margin/valuation.ts): liabilities × 10 % ÷ (assets − liabilities),
 *   "0" without debt; the wallet is liquidated at the margin instruments' liquidationRiskRatio
 *   (1 by default);
 * - futures wallets, per margin coin: equity, maintenance margin and the crossed risk rate
 *   the venue reports (engine/futures/report.ts): maintenance ÷ cross equity; crossed
 *   positions are liquidated when it reaches 1.
 *
 * Read-only: figures computed from the live state at the moment of the request.
 */
import { formatMoney } from '../domain/money.ts';
import { walletReport } from '../engine/futures/report.ts';
import { riskRatio, walletValue } from '../engine/margin/valuation.ts';
import type { EngineState } from '../engine/state.ts';
import type { Books } from '../engine/trading/books.ts';

const MARGIN_WALLETS = ['crossed_margin', 'isolated_margin', 'unified'];

export function accountRisk(state: EngineState, books: Books, uid: string) {
  // Wallet → coins held there, and wallet → margin coins of open positions.
  const held = new Map<string, Set<string>>();
  const positioned = new Map<string, Set<string>>();
  const note = (map: Map<string, Set<string>>, wallet: string, coin: string) => {
    let coins = map.get(wallet);
    if (!coins) map.set(wallet, (coins = new Set()));
    coins.add(coin);
  };
  const prefix = `${uid}|`;
  for (const key of state.balances.keys()) {
    if (!key.startsWith(prefix)) continue;
    const [, wallet = '', coin = ''] = key.split('|');
    note(held, wallet, coin);
  }
  for (const position of state.positions.values()) {
    if (position.uid === uid) note(positioned, position.wallet, position.marginCoin);
  }

  const margin = [...held.keys()]
    .filter((wallet) => MARGIN_WALLETS.includes(wallet.split(':')[0] ?? ''))
    .sort()
    .map((wallet) => {
      const value = walletValue(state, uid, wallet);
      return {
        wallet,
        assetsUsdt: formatMoney(value.assetsUsdt),
        liabilitiesUsdt: formatMoney(value.liabilitiesUsdt),
        riskRatio: formatMoney(riskRatio(value) ?? 0n),
      };
    });

  // A futures wallet: every coin it holds or margins a position with; a unified wallet: the
  // margin coins of its positions only (its other coins are not futures margin).
  const futuresCoins = new Map<string, Set<string>>();
  for (const [wallet, coins] of held)
    if (wallet.endsWith('_futures')) futuresCoins.set(wallet, new Set(coins));
  for (const [wallet, coins] of positioned) for (const coin of coins) note(futuresCoins, wallet, coin);
  const futures = [...futuresCoins.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([wallet, coins]) =>
      [...coins].sort().map((coin) => {
        const report = walletReport(state, books, uid, wallet, coin);
        return {
          wallet,
          marginCoin: coin,
          accountEquity: report.accountEquity,
          unrealizedPL: report.unrealizedPL,
          crossedRiskRate: report.crossedRiskRate,
        };
      }),
    );
  return { margin, futures };
}
