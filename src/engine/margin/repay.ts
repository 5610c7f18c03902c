/**
 * Repaying margin debt from the same coin in the wallet: interest first, then principal.
 * Pays what is available, up to what is owed (and up to the amount asked, when one is).
 * The repay bill's fee is the interest part of the payment (repay-history's repayInterest).
 */
import type { FlashRepay, RepayDebt, RepayMargin } from '../../domain/commands.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';
import { findBalance, post, readBalance } from '../accounts/ledger.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';
import { tradingWallet } from '../trading/wallets.ts';
import { ISOLATED_PREFIX, isolatedSymbolOf, marginInstrument, marginWallet } from './margin-wallet.ts';

export interface Repayment {
  billId: string;
  paid: bigint;
}

export function repayCoin(
  context: Context,
  uid: string,
  wallet: string,
  coin: string,
  most?: bigint,
  businessType = 'repay',
): Repayment | null {
  const balance = findBalance(context.state, uid, wallet, coin);
  if (!balance) return null;
  const owed = balance.interest + balance.borrowed;
  let paid = owed < balance.available ? owed : balance.available;
  if (most !== undefined && most < paid) paid = most;
  if (paid <= 0n) return null;
  const towardInterest = paid < balance.interest ? paid : balance.interest;
  const symbol = isolatedSymbolOf(wallet) ?? '';
  const billId = post(context, {
    uid,
    wallet,
    coin,
    amount: -paid,
    fee: towardInterest,
    businessType,
    symbol,
    category: 'MARGIN',
  });
  balance.interest -= towardInterest;
  balance.borrowed -= paid - towardInterest;
  return { billId, paid };
}

export function owedOf(state: EngineState, uid: string, wallet: string, coin: string): bigint {
  const balance = findBalance(state, uid, wallet, coin);
  return balance ? balance.borrowed + balance.interest : 0n;
}

/** One conversion of a repayment: `give` of `from` to the house for `got` of `to`. */
interface Conversion {
  from: string;
  give: bigint;
  to: string;
  got: bigint;
}

const HOUSE_WALLET = 'spot';

/**
 * What the payment coins convert to cover what each coin's own balance leaves owed, at the
 * index (USDT) prices: give = ⌈remaining × price(to) ÷ price(from)⌉ capped at what the wallet
 * holds, got = ⌊give × price(from) ÷ price(to)⌋ capped at the remaining debt. Debt coins are
 * never sources (they pay their own debt). Pure: nothing changes.
 */
export function repayConversions(context: Context, command: RepayDebt, wallet: string): Conversion[] {
  const { state } = context;
  const left = new Map<string, bigint>();
  const sources = (command.paymentCoins ?? []).filter((coin) => !command.coins.includes(coin));
  for (const coin of sources) left.set(coin, readBalance(state, command.uid, wallet, coin).available);
  const conversions: Conversion[] = [];
  for (const to of command.coins) {
    const own = readBalance(state, command.uid, wallet, to).available;
    const owed = owedOf(context.state, command.uid, wallet, to);
    let remaining = owed > own ? owed - own : 0n;
    const priceTo = usdtPriceOf(state, to);
    for (const from of sources) {
      const priceFrom = usdtPriceOf(state, from);
      const held = left.get(from) ?? 0n;
      if (remaining <= 0n || !priceTo || !priceFrom || held <= 0n) continue;
      const need = divide(remaining * priceTo, priceFrom, 'up');
      const give = need < held ? need : held;
      const value = divide(give * priceFrom, priceTo, 'down');
      const got = value < remaining ? value : remaining;
      if (got <= 0n) continue;
      conversions.push({ from, give, to, got });
      left.set(from, held - give);
      remaining -= got;
    }
  }
  return conversions;
}

/** The v3 repay: every named coin's whole debt, from the trading wallet (and payment coins). */
export function repayDebt(context: Context, command: RepayDebt): Outcome<{ repaid: bigint }> {
  const { state } = context;
  const wallet = tradingWallet(state, command.uid, 'MARGIN');
  for (const coin of command.coins) {
    if (owedOf(context.state, command.uid, wallet, coin) === 0n) return fail('NO_DEBT', coin);
  }
  const conversions = repayConversions(context, command, wallet);
  const house = command.houseUid;
  if (conversions.length > 0) {
    if (!house || !state.accounts.has(house) || house === command.uid)
      return fail('ACCOUNT_NOT_FOUND', 'houseUid');
    const owedByHouse = new Map<string, bigint>();
    for (const { to, got } of conversions) owedByHouse.set(to, (owedByHouse.get(to) ?? 0n) + got);
    for (const [coin, amount] of owedByHouse) {
      if (readBalance(state, house, HOUSE_WALLET, coin).available < amount)
        return fail('INSUFFICIENT_BALANCE');
    }
  }
  for (const { from, give, to, got } of conversions) {
    const leg = (uid: string, legWallet: string, coin: string, amount: bigint) =>
      post(context, {
        uid,
        wallet: legWallet,
        coin,
        amount,
        businessType: amount < 0n ? 'repay-convert-out' : 'repay-convert-in',
      });
    leg(command.uid, wallet, from, -give);
    leg(house ?? '', HOUSE_WALLET, from, give);
    leg(house ?? '', HOUSE_WALLET, to, -got);
    leg(command.uid, wallet, to, got);
  }
  let repaid = 0n;
  for (const coin of command.coins) repaid += repayCoin(context, command.uid, wallet, coin)?.paid ?? 0n;
  return ok({ repaid });
}

/** The v2 repay of one coin in the crossed or an isolated wallet, up to `amount`. */
export function repayMargin(
  context: Context,
  command: RepayMargin,
): Outcome<{ repayId: string; wallet: string; paid: bigint; remaining: bigint }> {
  const { state } = context;
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', command.uid);
  const symbol = command.symbol ?? '';
  if (command.marginType === 'isolated' && !marginInstrument(state, symbol))
    return fail('SYMBOL_NOT_FOUND', symbol);
  const wallet = marginWallet(state, command.uid, command.marginType, symbol);
  const amount = parseScaled(command.amount, MONEY_SCALE);
  if (amount === null || amount <= 0n) return fail('PARAM_ERROR', 'repayAmount');
  if (owedOf(context.state, command.uid, wallet, command.coin) === 0n) return fail('NO_DEBT', command.coin);
  const repayment = repayCoin(context, command.uid, wallet, command.coin, amount);
  if (!repayment) return fail('INSUFFICIENT_BALANCE');
  return ok({
    repayId: repayment.billId,
    wallet,
    paid: repayment.paid,
    remaining: owedOf(context.state, command.uid, wallet, command.coin),
  });
}

function flashWallets(context: Context, command: FlashRepay): string[] {
  const { state } = context;
  if (command.marginType === 'crossed') return [marginWallet(state, command.uid, 'crossed')];
  if (command.symbol) return [marginWallet(state, command.uid, 'isolated', command.symbol)];
  const prefix = `${command.uid}|${ISOLATED_PREFIX}`;
  const wallets = new Set<string>();
  for (const key of state.balances.keys()) {
    if (key.startsWith(prefix)) wallets.add(key.slice(command.uid.length + 1, key.lastIndexOf('|')));
  }
  return [...wallets].sort();
}

/**
 * Flash repay: every debt of the wallet(s) (one coin when `coin` is given) paid from the same
 * coin at once. The answer's repayId is the first repay bill's id; nothing owed is NO_DEBT.
 */
export function flashRepay(context: Context, command: FlashRepay): Outcome<{ repayId: string }> {
  const { state } = context;
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', command.uid);
  if (command.symbol && !marginInstrument(state, command.symbol))
    return fail('SYMBOL_NOT_FOUND', command.symbol);
  let first: string | null = null;
  for (const wallet of flashWallets(context, command)) {
    const prefix = `${command.uid}|${wallet}|`;
    const coins = [...state.balances.keys()]
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length))
      .filter((coin) => !command.coin || coin === command.coin)
      .sort();
    for (const coin of coins) {
      const repayment = repayCoin(context, command.uid, wallet, coin, undefined, 'flash_repay');
      if (repayment && first === null) first = repayment.billId;
    }
  }
  return first === null ? fail('NO_DEBT', command.coin ?? command.symbol ?? 'coin') : ok({ repayId: first });
}
