/**
 * Random wallet streams through the engine: deposits (settled and pending, to addresses),
 * withdrawal requests (on chain and to other accounts) the operator settles or rejects or
 * the account cancels,
 * transfers between a unified account's funding and unified wallets, and convert trades
 * against a house account. After every command:
 * - conservation (engine/invariants.ts) holds for every coin, the funding wallet included;
 * - what is frozen is exactly what the pending withdrawals hold (no orders in these streams);
 * and replaying the stream gives the same outcomes and the same state hash. Seeded.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../src/domain/commands.ts';
import { convertedAmount, convertPrice, CONVERT_PRICE_SCALE } from '../../src/domain/convert.ts';
import { formatScaled } from '../../src/domain/decimal.ts';
import { depositAddress } from '../../src/domain/funding.ts';
import { MONEY_ONE } from '../../src/domain/money.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { stateHash } from '../../src/engine/state-hash.ts';

function prng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const USDT_VALUE: Record<string, bigint> = {
  USDT: MONEY_ONE,
  BTC: 60_000n * MONEY_ONE,
  ETH: 3_000n * MONEY_ONE,
};
const COINS = ['USDT', 'BTC', 'ETH'];

function frozenMatchesPending(exchange: Exchange, where: string): void {
  let frozen = 0n;
  for (const balance of exchange.state.balances.values()) frozen += balance.frozen;
  let pending = 0n;
  for (const record of exchange.state.brokerage.pendingFunding.values()) {
    if (record.direction === 'withdrawal') pending += record.amount;
  }
  assert.equal(frozen, pending, `${where}: frozen ${frozen} ≠ pending withdrawals ${pending}`);
}

/** Runs a random stream on `live`, choosing each command from what happened so far. */
function stream(seed: number, steps: number): { commands: Command[]; outcomes: unknown[]; live: Exchange } {
  const random = prng(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
  const live = new Exchange();
  const commands: Command[] = [];
  const outcomes: unknown[] = [];
  let timeMs = Date.UTC(2026, 10, 1);
  const run = (command: Command) => {
    const { outcome } = live.execute(command);
    commands.push(command);
    outcomes.push(outcome);
    const where = `seed ${seed} step ${commands.length} (${command.type})`;
    assert.deepEqual(conservationImbalances(live.state), [], where);
    frozenMatchesPending(live, where);
    return outcome;
  };
  for (const instrument of defaultCatalogue()) {
    run({ type: 'AddInstrument', timeMs, instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
    if (indexPrice)
      run({
        type: 'SetIndexPrice',
        timeMs,
        category: instrument.category,
        symbol: instrument.symbol,
        indexPrice,
      });
  }
  const accounts: { uid: string; unified: boolean }[] = [];
  for (const mode of ['classic', 'classic', 'unified', 'unified', 'classic'] as const) {
    const outcome = run({ type: 'CreateAccount', timeMs, kind: 'main', parentUid: null, mode, label: '' });
    if (outcome.ok)
      accounts.push({ uid: (outcome.value as { uid: string }).uid, unified: mode === 'unified' });
  }
  const house = accounts.pop() as { uid: string };
  for (const coin of COINS) {
    const amount = (1_000_000n * MONEY_ONE * MONEY_ONE) / (USDT_VALUE[coin] ?? MONEY_ONE);
    run({ type: 'Deposit', timeMs, uid: house.uid, coin, amount, wallet: 'spot', subType: 'internal' });
  }
  const walletsOf = (account: { unified: boolean }) => (account.unified ? ['funding', 'unified'] : ['spot']);
  for (let step = 0; step < steps; step += 1) {
    timeMs += Math.floor(random() * 5_000);
    const account = pick(accounts);
    const coin = pick(COINS);
    const amount =
      (BigInt(1 + Math.floor(random() * 5_000)) * ((USDT_VALUE.USDT ?? 0n) / 100n) * MONEY_ONE) /
      (USDT_VALUE[coin] ?? 1n);
    const wallet = pick(walletsOf(account));
    const roll = random();
    if (roll < 0.25) {
      const chain = pick(['TRC20', 'ERC20', coin]);
      const route = random() < 0.5 ? { chain, address: depositAddress(account.uid, coin, chain) } : {};
      const status = random() < 0.3 ? 'pending' : 'success';
      run({
        type: 'Deposit',
        timeMs,
        uid: account.uid,
        coin,
        amount: amount * 4n,
        wallet,
        subType: 'onchain',
        status,
        route,
      });
    } else if (roll < 0.45) {
      const other = pick(accounts);
      const internal = random() < 0.3 && other.uid !== account.uid;
      const clientOid = random() < 0.5 ? `c${Math.floor(random() * 20)}` : undefined;
      const route = {
        ...(internal ? { toUid: other.uid, address: other.uid } : { chain: 'TRC20', address: 'T-out' }),
        ...(clientOid ? { clientOid } : {}),
      };
      const subType = internal ? 'internal' : 'onchain';
      run({
        type: 'Withdraw',
        timeMs,
        uid: account.uid,
        coin,
        amount,
        wallet,
        subType,
        status: 'pending',
        route,
      });
    } else if (roll < 0.65) {
      const pending = [...live.state.brokerage.pendingFunding.values()];
      if (pending.length === 0) continue;
      const { recordId, uid, direction } = pick(pending);
      if (direction === 'withdrawal' && random() < 0.25)
        run({ type: 'CancelWithdrawal', timeMs, uid, recordId });
      else run({ type: 'SettleFunding', timeMs, recordId, status: random() < 0.6 ? 'success' : 'fail' });
    } else if (roll < 0.8 && account.unified) {
      const [fromWallet, toWallet] = random() < 0.5 ? ['funding', 'unified'] : ['unified', 'funding'];
      const uid = account.uid;
      run({
        type: 'TransferFunds',
        timeMs,
        uid,
        kind: 'wallet',
        fromUid: uid,
        toUid: uid,
        fromWallet,
        toWallet,
        coin,
        amount,
        clientOid: '',
      });
    } else {
      const toCoin = pick(COINS.filter((one) => one !== coin));
      const price = convertPrice(USDT_VALUE[coin] ?? 0n, USDT_VALUE[toCoin] ?? 1n, MONEY_ONE / 1000n);
      run({
        type: 'ConvertCoins',
        timeMs,
        uid: account.uid,
        houseUid: house.uid,
        fromCoin: coin,
        toCoin,
        fromAmount: amount,
        toAmount: convertedAmount(amount, price),
        price: formatScaled(price, CONVERT_PRICE_SCALE),
        traceId: String(step),
        expiresAtMs: timeMs + (random() < 0.9 ? 8_000 : -1),
      });
    }
  }
  return { commands, outcomes, live };
}

for (const seed of [3, 11, 2027]) {
  test(`wallet streams when replayed keep conservation, frozen = pending withdrawals and the state hash (seed ${seed})`, () => {
    const { commands, outcomes, live } = stream(seed, 600);
    const kinds = new Set<string>();
    commands.forEach((command, step) => {
      if ((outcomes[step] as { ok: boolean }).ok) kinds.add(command.type);
    });
    for (const kind of [
      'Deposit',
      'Withdraw',
      'SettleFunding',
      'CancelWithdrawal',
      'TransferFunds',
      'ConvertCoins',
    ]) {
      assert.ok(kinds.has(kind), `seed ${seed} never succeeded with ${kind}`);
    }
    const replay = new Exchange();
    commands.forEach((command, step) => assert.deepEqual(replay.replay(command), outcomes[step]));
    assert.equal(stateHash(replay.state), stateHash(live.state));
  });
}
