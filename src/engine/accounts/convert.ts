/**
 * A convert trade against the house account at a quoted price (docs/wallet.md). The quote
 * was made at the edge; the command carries its price, amounts and expiry, so the trade is
 * checked and executed here with nothing but the command and the state.
 *
 * Invariants: nothing moves unless every check passes; the four bills (the account's
 * `convert-out` and `convert-in`, the house's opposite pair) move value between two accounts
 * only, so conservation holds; the account never receives more than the quoted price gives.
 * The account trades from its spot wallet (a unified account: its unified wallet), the house
 * from its spot wallet.
 */
import type { ConvertCoins } from '../../domain/commands.ts';
import { CONVERT_PRICE_SCALE, convertedAmount } from '../../domain/convert.ts';
import { parseScaled } from '../../domain/decimal.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { coinListed } from '../instruments/coins.ts';
import { tradingWallet } from '../trading/wallets.ts';
import { post, readBalance } from './ledger.ts';

export interface ConvertReceipt {
  recordId: string;
  timeMs: number;
}

type Refusal = { ok: false } & Failure;

const HOUSE_WALLET = 'spot';

function checkTerms(context: Context, command: ConvertCoins): Refusal | null {
  const { state } = context;
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', 'uid');
  const house = state.accounts.get(command.houseUid);
  if (!house || house.kind !== 'main' || house.mode !== 'classic' || command.houseUid === command.uid) {
    return fail('ACCOUNT_NOT_FOUND', 'houseUid');
  }
  if (!coinListed(state, command.fromCoin)) return fail('COIN_NOT_FOUND', command.fromCoin);
  if (!coinListed(state, command.toCoin)) return fail('COIN_NOT_FOUND', command.toCoin);
  if (command.fromCoin === command.toCoin) return fail('PARAM_ERROR', 'toCoin');
  if (command.fromAmount <= 0n) return fail('PARAM_ERROR', 'fromCoinSize');
  if (command.toAmount <= 0n) return fail('PARAM_ERROR', 'toCoinSize');
  const price = parseScaled(command.price, CONVERT_PRICE_SCALE);
  if (price === null || price <= 0n) return fail('PARAM_ERROR', 'cnvtPrice');
  if (command.toAmount > convertedAmount(command.fromAmount, price)) return fail('PARAM_ERROR', 'toCoinSize');
  if (context.nowMs > command.expiresAtMs) return fail('QUOTE_EXPIRED', 'traceId');
  return null;
}

export function convertCoins(context: Context, command: ConvertCoins): Outcome<ConvertReceipt> {
  const refused = checkTerms(context, command);
  if (refused) return refused;
  const { state } = context;
  const { uid, houseUid, fromCoin, toCoin, fromAmount, toAmount } = command;
  const wallet = tradingWallet(state, uid, 'SPOT');
  if (readBalance(state, uid, wallet, fromCoin).available < fromAmount) return fail('INSUFFICIENT_BALANCE');
  if (readBalance(state, houseUid, HOUSE_WALLET, toCoin).available < toAmount) {
    return fail('QUANTITY_ABOVE_MAXIMUM', 'toCoinSize');
  }
  const leg = (owner: string, ownerWallet: string, coin: string, amount: bigint) =>
    post(context, {
      uid: owner,
      wallet: ownerWallet,
      coin,
      amount,
      businessType: amount < 0n ? 'convert-out' : 'convert-in',
    });
  leg(uid, wallet, fromCoin, -fromAmount);
  leg(houseUid, HOUSE_WALLET, fromCoin, fromAmount);
  leg(houseUid, HOUSE_WALLET, toCoin, -toAmount);
  leg(uid, wallet, toCoin, toAmount);
  const recordId = context.nextId();
  context.emit({
    type: 'ConvertRecorded',
    recordId,
    uid,
    fromCoin,
    toCoin,
    fromAmount,
    toAmount,
    price: command.price,
    fee: 0n,
    traceId: command.traceId,
    timeMs: context.nowMs,
  });
  return ok({ recordId, timeMs: context.nowMs });
}
