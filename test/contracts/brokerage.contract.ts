/**
 * The store contract of transfers, broker deposit/withdrawal records, agents' KYC results and
 * commissions (migration 10), run on every store beside store.contract.ts. The rows come
 * from the production engine; a pending deposit created and settled in one append must fold
 * to its settled state in every store.
 */
import assert from 'node:assert/strict';
import type { Command } from '../../src/domain/commands.ts';
import { parseMoney } from '../../src/domain/money.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import {
  agentKycSql,
  brokerFundingSql,
  commissionsSql,
  transfersSql,
  type Sql,
} from '../../src/persistence/queries.ts';
import type { ContractTest, StoreHarness } from './store.contract.ts';
import { RecordingEngine } from './store-workload.ts';

const HOUR = 60 * 60 * 1000;
const money = (text: string) => parseMoney(text) ?? 0n;

function brokerageWorkload() {
  const engine = new RecordingEngine();
  const run = (command: Command) => engine.run(command) as Record<string, string>;
  for (const instrument of defaultCatalogue()) {
    run({ type: 'AddInstrument', timeMs: engine.nowMs, instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
    const { category, symbol } = instrument;
    if (indexPrice) run({ type: 'SetIndexPrice', timeMs: engine.nowMs, category, symbol, indexPrice });
  }
  const account = (kind: 'main' | 'virtual', parentUid: string | null = null) =>
    run({ type: 'CreateAccount', timeMs: engine.nowMs, kind, parentUid, mode: 'classic', label: '' }).uid ??
    '';
  const deposit = (uid: string, coin: string, amount: string, status?: 'pending') =>
    run({
      type: 'Deposit',
      timeMs: engine.nowMs,
      uid,
      coin,
      amount: money(amount),
      wallet: 'spot',
      subType: 'onchain',
      ...(status ? { status } : {}),
    });
  const broker = account('main');
  const sub = account('virtual', broker);
  const agent = account('main');
  const buyer = account('main');
  const seller = account('main');
  deposit(broker, 'USDT', '1000');
  deposit(buyer, 'USDT', '10000');
  deposit(seller, 'BTC', '1');
  deposit(sub, 'USDT', '5');
  const pending = deposit(sub, 'USDT', '7', 'pending');
  run({ type: 'SettleFunding', timeMs: engine.nowMs, recordId: pending.recordId ?? '', status: 'success' });
  run({
    type: 'TransferFunds',
    timeMs: engine.nowMs,
    uid: broker,
    kind: 'sub',
    fromUid: broker,
    toUid: sub,
    fromWallet: 'spot',
    toWallet: 'usdt_futures',
    coin: 'USDT',
    amount: money('100'),
    clientOid: 'c1',
  });
  run({ type: 'RegisterAgent', timeMs: engine.nowMs, uid: agent, rebateRate: money('0.5'), lineRates: {} });
  run({ type: 'ReferCustomer', timeMs: engine.nowMs, agentUid: agent, customerUid: buyer });
  run({ type: 'SetKycResult', timeMs: engine.nowMs, uid: buyer, result: 'passed' });
  const order = (uid: string, side: 'buy' | 'sell') =>
    run({
      type: 'PlaceOrders',
      timeMs: engine.nowMs,
      uid,
      category: 'SPOT',
      items: [
        {
          symbol: 'BTCUSDT',
          side,
          orderType: 'limit',
          timeInForce: 'gtc',
          stpMode: 'none',
          price: '60000',
          quantity: '0.1',
        },
      ],
    });
  order(seller, 'sell');
  order(buyer, 'buy');
  engine.nowMs += 30 * HOUR;
  run({ type: 'AdvanceClock', timeMs: engine.nowMs, ms: 0 });
  return { engine, broker, sub, agent, buyer };
}

export function brokerageContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `brokerage reads when the engine wrote transfers, broker records, KYC and commissions return them (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const { engine, broker, sub, agent, buyer } = brokerageWorkload();
        // One append: the pending deposit and its settlement fold into one row.
        await store.append(engine.entries);
        const transfers = await store.transfers({ kind: 'sub', uid: broker, limit: 10 });
        assert.deepEqual(
          transfers.map((row) => [
            row.fromUid,
            row.toUid,
            row.fromType,
            row.toType,
            row.amount,
            row.clientOid,
          ]),
          [[broker, sub, 'spot', 'usdt_futures', money('100'), 'c1']],
        );
        const received = await store.transfers({ kind: 'sub', toUid: sub, partyUid: broker, limit: 10 });
        assert.equal(received.length, 1);
        const funding = await store.brokerFunding({
          parentUid: broker,
          startTimeMs: 0,
          endTimeMs: engine.nowMs,
          limit: 10,
        });
        assert.deepEqual(
          funding.map((row) => [row.uid, row.direction, row.subType, row.amount, row.status]),
          [
            [sub, 'deposit', 'internal', money('100'), 'success'],
            [sub, 'deposit', 'onchain', money('7'), 'success'],
            [sub, 'deposit', 'onchain', money('5'), 'success'],
          ],
        );
        const withdrawals = await store.brokerFunding({
          parentUid: broker,
          direction: 'withdrawal',
          startTimeMs: 0,
          endTimeMs: engine.nowMs,
          limit: 10,
        });
        assert.deepEqual(withdrawals, []);
        const kyc = await store.agentKyc({
          agentUid: agent,
          startTimeMs: 0,
          endTimeMs: engine.nowMs,
          offset: 0,
          limit: 10,
        });
        assert.deepEqual(
          kyc.map((row) => [row.uid, row.result]),
          [[buyer, 'passed']],
        );
        const commissions = await store.commissions({
          agentUid: agent,
          fromDateMs: 0,
          toDateMs: engine.nowMs,
          symbols: ['BTCUSDT_SPBL'],
          limit: 10,
        });
        // 0.1 BTC bought at 60000: fee 0.0001 BTC, half of it to the agent.
        assert.deepEqual(
          commissions.map((row) => [
            row.uid,
            row.coin,
            row.symbol,
            row.dealAmount,
            row.fee,
            row.rebateAmount,
          ]),
          [[buyer, 'BTC', 'BTCUSDT_SPBL', money('6000'), money('0.0001'), money('0.00005')]],
        );
      },
    },
    {
      name: `brokerage queries when planned use the index that matches their filter and order (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).openForPlans();
        t.after(() => store.close());
        const { engine, broker, agent } = brokerageWorkload();
        await store.append(engine.entries);
        const queries: [string, Sql][] = [
          [
            'transfers',
            transfersSql({ kind: 'wallet', uid: broker, coin: 'USDT', fromType: 'spot', limit: 100 }),
          ],
          ['transfers', transfersSql({ kind: 'sub', toUid: broker, idLessThan: '9', limit: 100 })],
          [
            'broker_funding',
            brokerFundingSql({
              parentUid: broker,
              startTimeMs: 0,
              endTimeMs: 1,
              idLessThan: '9',
              limit: 100,
            }),
          ],
          [
            'agent_kyc',
            agentKycSql({ agentUid: agent, startTimeMs: 0, endTimeMs: 1, offset: 0, limit: 100 }),
          ],
          ['commissions', commissionsSql({ agentUid: agent, fromDateMs: 0, toDateMs: 1, limit: 100 })],
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
