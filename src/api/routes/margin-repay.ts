/**
 * The v3 repay with a `paymentCoinList`: debt is paid from its own coin first, then with the
 * other payment coins converted at the index price against the convert house (the account
 * that takes the other side of convert trades, docs/wallet.md). The house is topped up first
 * with what the conversions could need of each debt coin, so the one RepayDebt command that
 * converts and repays does not fail for the house's sake.
 */
import { coinListed } from '../../engine/instruments/coins.ts';
import { readBalance } from '../../engine/accounts/ledger.ts';
import { owedOf } from '../../engine/margin/repay.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import { reject, unwrap } from '../request.ts';
import type { Services } from '../services.ts';
import { convertHouseAccount } from './convert-desk.ts';

const HOUSE_WALLET = 'spot';

export async function repayDebt(
  services: Services,
  uid: string,
  coins: string[],
  payment: string[] | undefined,
): Promise<bigint> {
  const state = services.sequencer.exchange.state;
  for (const coin of payment ?? []) if (!coinListed(state, coin)) reject('COIN_NOT_FOUND', coin);
  const converting = (payment ?? []).some((coin) => !coins.includes(coin));
  let houseUid: string | undefined;
  if (converting) {
    houseUid = await convertHouseAccount(services);
    const wallet = tradingWallet(state, uid, 'MARGIN');
    for (const coin of coins) {
      const owed = owedOf(state, uid, wallet, coin);
      const held = readBalance(state, houseUid, HOUSE_WALLET, coin).available;
      if (held >= owed) continue;
      const topUp = { uid: houseUid, coin, amount: owed * 2n - held, wallet: HOUSE_WALLET };
      const timeMs = services.clock.now();
      unwrap(await services.sequencer.submit({ type: 'Deposit', timeMs, ...topUp, subType: 'internal' }));
    }
  }
  const outcome = await services.sequencer.submit<{ repaid: bigint }>({
    type: 'RepayDebt',
    timeMs: services.clock.now(),
    uid,
    coins,
    ...(payment ? { paymentCoins: payment } : {}),
    ...(houseUid ? { houseUid } : {}),
  });
  return unwrap(outcome).repaid;
}
