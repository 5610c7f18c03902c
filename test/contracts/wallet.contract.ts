/**
 * The store contract of the wallet records and convert trades (migration 60), run on every
 * store. The rows come from the production engine: a withdrawal request made and settled in
 * one append folds to its settled row, keeping its creation time; reads filter and page as
 * the routes ask, through the tables' indexes.
 */
import assert from 'node:assert/strict';
import type { Command } from '../../src/domain/commands.ts';
import { depositAddress } from '../../src/domain/funding.ts';
import { parseMoney } from '../../src/domain/money.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import type { Sql } from '../../src/persistence/queries.ts';
import { convertsSql, walletRecordsSql } from '../../src/persistence/wallet-queries.ts';
import type { ContractTest, StoreHarness } from './store.contract.ts';
import { RecordingEngine } from './store-workload.ts';

const money = (text: string) => parseMoney(text) ?? 0n;

function walletWorkload() {
  const engine = new RecordingEngine();
  const run = (command: Command) => engine.run(command) as Record<string, string>;
  for (const instrument of defaultCatalogue()) {
    run({ type: 'AddInstrument', timeMs: engine.nowMs, instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
    const { category, symbol } = instrument;
    if (indexPrice) run({ type: 'SetIndexPrice', timeMs: engine.nowMs, category, symbol, indexPrice });
  }
  const account = () =>
    run({
      type: 'CreateAccount',
      timeMs: engine.nowMs,
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: '',
    }).uid ?? '';
  const trader = account();
  const house = account();
  const createdMs = engine.nowMs;
  const address = depositAddress(trader, 'USDT', 'TRC20');
  const deposit = run({
    type: 'Deposit',
    timeMs: createdMs,
    uid: trader,
    coin: 'USDT',
    amount: money('100'),
    wallet: 'spot',
    subType: 'onchain',
    route: { chain: 'TRC20', address, fromAddress: 'TSender', txId: 'tx-1' },
  });
  run({
    type: 'Deposit',
    timeMs: createdMs,
    uid: house,
    coin: 'BTC',
    amount: money('1'),
    wallet: 'spot',
    subType: 'internal',
  });
  const request = run({
    type: 'Withdraw',
    timeMs: createdMs,
    uid: trader,
    coin: 'USDT',
    amount: money('30'),
    wallet: 'spot',
    subType: 'onchain',
    status: 'pending',
    route: { chain: 'TRC20', address: 'TOut', clientOid: 'w1' },
  });
  engine.nowMs += 5_000;
  run({ type: 'SettleFunding', timeMs: engine.nowMs, recordId: request.recordId ?? '', status: 'success' });
  run({
    type: 'ConvertCoins',
    timeMs: engine.nowMs,
    uid: trader,
    houseUid: house,
    fromCoin: 'USDT',
    toCoin: 'BTC',
    fromAmount: money('60'),
    toAmount: money('0.000999'),
    price: '0.00001665',
    traceId: 'q1',
    expiresAtMs: engine.nowMs + 8_000,
  });
  return {
    engine,
    trader,
    address,
    createdMs,
    depositId: deposit.recordId ?? '',
    requestId: request.recordId ?? '',
  };
}

export function walletContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `wallet reads when the engine wrote deposits, a settled request and a convert return them (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const { engine, trader, address, createdMs, depositId, requestId } = walletWorkload();
        await store.append(engine.entries);
        const [withdrawal, ...others] = await store.walletRecords({
          uid: trader,
          direction: 'withdrawal',
          limit: 10,
        });
        assert.deepEqual(others, []);
        assert.deepEqual(withdrawal, {
          recordId: requestId,
          uid: trader,
          direction: 'withdrawal',
          coin: 'USDT',
          amount: money('30'),
          status: 'success',
          dest: 'on_chain',
          chain: 'TRC20',
          toAddress: 'TOut',
          fromAddress: '',
          tag: '',
          clientOid: 'w1',
          txId: `bourse-withdrawal-${requestId}`,
          createdTimeMs: createdMs,
          updatedTimeMs: createdMs + 5_000,
        });
        const deposits = await store.walletRecords({
          uid: trader,
          direction: 'deposit',
          coin: 'USDT',
          limit: 10,
        });
        assert.deepEqual(
          deposits.map((row) => [row.recordId, row.toAddress, row.fromAddress, row.txId]),
          [[depositId, address, 'TSender', 'tx-1']],
        );
        const byOid = await store.walletRecords({
          uid: trader,
          direction: 'withdrawal',
          clientOid: 'w1',
          limit: 10,
        });
        assert.equal(byOid.length, 1);
        const before = await store.walletRecords({
          uid: trader,
          direction: 'deposit',
          idLessThan: depositId,
          limit: 10,
        });
        assert.deepEqual(before, []);
        const outside = await store.walletRecords({
          uid: trader,
          direction: 'deposit',
          startTimeMs: createdMs + 1,
          endTimeMs: createdMs + 10,
          limit: 10,
        });
        assert.deepEqual(outside, []);
        const converts = await store.converts({ uid: trader, fromCoin: 'USDT', toCoin: 'BTC', limit: 10 });
        assert.deepEqual(
          converts.map((row) => [row.fromAmount, row.toAmount, row.price, row.fee, row.traceId]),
          [[money('60'), money('0.000999'), '0.00001665', 0n, 'q1']],
        );
      },
    },
    {
      name: `wallet reads when explained use the tables' indexes (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).openForPlans();
        t.after(() => store.close());
        const { engine, trader } = walletWorkload();
        await store.append(engine.entries);
        const queries: [string, Sql][] = [
          [
            'wallet_records',
            walletRecordsSql({
              uid: trader,
              direction: 'deposit',
              startTimeMs: 0,
              endTimeMs: 1,
              idLessThan: '9',
              limit: 20,
            }),
          ],
          ['convert_records', convertsSql({ uid: trader, startTimeMs: 0, endTimeMs: 1, limit: 20 })],
        ];
        for (const [table, sql] of queries) {
          const plan = (await store.explain(sql)).join('\n');
          assert.match(
            plan,
            new RegExp(`${table}_by_|${table}_pkey|sqlite_autoindex_${table}`),
            `${sql.text}\n${plan}`,
          );
          assert.doesNotMatch(plan, new RegExp(`Seq Scan|^SCAN ${table}$`, 'm'), `${sql.text}\n${plan}`);
        }
      },
    },
  ];
}
