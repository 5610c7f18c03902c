/**
 * Recovery, snapshot and memory benchmark (`npm run bench:recovery`; not a test), on SQLite
 * and on PostgreSQL:
 * - recovery time for a journal of BENCH_COMMANDS (1,000,000) commands, without a snapshot
 *   (replay from the first command) and with one (taken BENCH_SNAPSHOT_GAP = 100,000 commands
 *   before the end, as BOURSE_SNAPSHOT_EVERY's default leaves it at worst), median of
 *   BENCH_RUNS (3); the recovered state hash must equal the live one;
 * - snapshot time (encode + save) and size with 100,000 resting orders;
 * - memory per 100,000 resting orders (heap growth after a full GC; run with --expose-gc,
 *   as the npm script does).
 *
 * The journal is written straight into each store with `append` (journal rows only: recovery
 * reads commands, not projections). The stream: 200 funded accounts; one-order PlaceOrders
 * commands where each sell fills the buy placed just before it (a trade every two
 * commands), a deposit every 50th command, a cancel of a resting order every 25th.
 */
import { fundedSpotAccounts } from './support/spot-setup.ts';
import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command, OrderRequest } from '../src/domain/commands.ts';
import { Exchange } from '../src/engine/exchange.ts';
import { stateHash } from '../src/engine/state-hash.ts';
import { encode } from '../src/persistence/codec.ts';
import type { AnyStore } from '../src/persistence/open-store.ts';
import { openPostgresStore } from '../src/persistence/postgres/postgres-store.ts';
import { openSqliteStore } from '../src/persistence/sqlite/sqlite-store.ts';
import type { JournalEntry } from '../src/ports/store.ts';
import { recover } from '../src/runtime/recovery.ts';
import { benchDatabase, median } from './support/bourse-child.ts';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 1_000_000);
const SNAPSHOT_GAP = Number(process.env.BENCH_SNAPSHOT_GAP ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RESTING = Number(process.env.BENCH_RESTING ?? 100_000);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').filter(Boolean);
const ACCOUNTS = 200;
const T0 = Date.UTC(2026, 10, 1);

/** Runs commands through a live engine, keeping them as journal entries (no events). */
class Recorder {
  readonly exchange = new Exchange();
  readonly entries: JournalEntry[] = [];
  timeMs = T0;

  run(command: Command): unknown {
    const { outcome } = this.exchange.execute(command);
    if (!outcome.ok) throw new Error(`${command.type} failed: ${outcome.code}`);
    const refused =
      Array.isArray(outcome.value) && outcome.value.find((item: { code?: string }) => item.code);
    if (refused) throw new Error(`${command.type} item refused: ${JSON.stringify(refused)}`);
    this.entries.push({ seq: this.entries.length + 1, command, events: [] });
    return outcome.value;
  }

  tick(): number {
    return (this.timeMs += 1);
  }
}

function limit(side: 'buy' | 'sell', price: string): OrderRequest {
  return {
    symbol: 'BTCUSDT',
    side,
    orderType: 'limit',
    timeInForce: 'gtc',
    stpMode: 'none',
    price,
    quantity: '0.0001',
  };
}

/** The journal of `count` commands (setup included). */
export function journal(count: number): Recorder {
  const recorder = new Recorder();
  const uids = fundedSpotAccounts(recorder, ACCOUNTS);
  const resting: { uid: string; orderId: string }[] = [];
  let crossing = 0;
  for (let step = 0; recorder.entries.length < count; step += 1) {
    const uid = uids[step % uids.length] as string;
    const timeMs = recorder.tick();
    if (step % 50 === 10) {
      recorder.run({
        type: 'Deposit',
        timeMs,
        uid,
        coin: 'USDT',
        amount: 10n ** 8n,
        wallet: 'spot',
        subType: 'onchain',
      });
    } else if (step % 25 === 24 && resting.length > 0) {
      const order = resting.pop() as { uid: string; orderId: string };
      recorder.run({ type: 'CancelOrders', timeMs, uid: order.uid, items: [{ orderId: order.orderId }] });
    } else if (step % 25 === 23) {
      const [placed] = recorder.run({
        type: 'PlaceOrders',
        timeMs,
        uid,
        category: 'SPOT',
        items: [limit('buy', '59000')],
      }) as { orderId: string }[];
      if (placed?.orderId) resting.push({ uid, orderId: placed.orderId });
    } else {
      const side = crossing % 2 === 0 ? 'buy' : 'sell';
      crossing += 1;
      recorder.run({ type: 'PlaceOrders', timeMs, uid, category: 'SPOT', items: [limit(side, '60000')] });
    }
  }
  return recorder;
}

async function openBenchStore(kind: string, cleanups: (() => Promise<void>)[]): Promise<AnyStore> {
  if (kind === 'postgres') return openPostgresStore(await benchDatabase(cleanups));
  const dir = mkdtempSync(join(tmpdir(), 'bourse-recovery-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return openSqliteStore(join(dir, 'bourse.db'));
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Resting orders one account may have on one symbol (the instrument's maxSymbolOrderNum). */
const PER_ACCOUNT = 200;

/** 100,000 resting orders: 500 accounts × 200 (the per-symbol limit), bids below the market. */
function restingBook(count: number): Recorder {
  const recorder = new Recorder();
  const uids = fundedSpotAccounts(recorder, Math.ceil(count / PER_ACCOUNT));
  for (let index = 0; index < count; index += 1) {
    const price = (55_000 + (index % 4_000)).toFixed(2);
    recorder.run({
      type: 'PlaceOrders',
      timeMs: recorder.tick(),
      uid: uids[Math.floor(index / PER_ACCOUNT)] as string,
      category: 'SPOT',
      items: [limit('buy', price)],
    });
  }
  return recorder;
}

async function main(): Promise<void> {
  const lines: string[] = [];
  const started = performance.now();
  const built = journal(COMMANDS);
  const liveHash = stateHash(built.exchange.state);
  process.stderr.write(
    `journal of ${built.entries.length} commands built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  lines.push(
    `Recovery of ${built.entries.length.toLocaleString('en-US')} commands (Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}), median of ${RUNS} runs`,
    '',
    '| store | no snapshot: replay all | snapshot ' +
      `${SNAPSHOT_GAP.toLocaleString('en-US')} commands before the end | replay rate | goal |`,
    '|---|---|---|---|---|',
  );
  const snapshotSeq = built.entries.length - SNAPSHOT_GAP;
  const atSnapshot = new Exchange();
  for (const entry of built.entries.slice(0, snapshotSeq)) atSnapshot.execute(entry.command);
  const snapshotBody = encode(atSnapshot.state);
  for (const kind of STORES) {
    const cleanups: (() => Promise<void>)[] = [];
    try {
      const store = await openBenchStore(kind, cleanups);
      cleanups.unshift(() => store.close());
      for (let at = 0; at < built.entries.length; at += 5_000)
        await store.append(built.entries.slice(at, at + 5_000));
      const full: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        gc();
        const { ms, value } = await timed(() => recover(store));
        if (stateHash(value.exchange.state) !== liveHash)
          throw new Error('recovered state differs from the live one');
        full.push(ms);
        process.stderr.write(`${kind} full replay ${(ms / 1000).toFixed(2)} s\n`);
      }
      await store.saveSnapshot({ seq: snapshotSeq, timeMs: atSnapshot.state.nowMs, body: snapshotBody });
      const partial: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        gc();
        const { ms, value } = await timed(() => recover(store));
        if (stateHash(value.exchange.state) !== liveHash)
          throw new Error('recovered state differs from the live one');
        partial.push(ms);
        process.stderr.write(`${kind} snapshot + ${value.replayed} ${(ms / 1000).toFixed(2)} s\n`);
      }
      const rate = built.entries.length / (median(full) / 1000);
      lines.push(
        `| ${kind} | ${(median(full) / 1000).toFixed(2)} s | ${(median(partial) / 1000).toFixed(2)} s | ` +
          `${Math.round(rate).toLocaleString('en-US')} commands/s | < 10 s |`,
      );
    } finally {
      for (const cleanup of cleanups) await cleanup();
    }
  }

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const book = restingBook(RESTING);
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const resting = book.exchange.state.orders.size;
  lines.push(
    '',
    `Snapshot with ${resting.toLocaleString('en-US')} resting orders (${book.exchange.state.accounts.size} accounts); ` +
      `engine heap growth ${((heapAfter - heapBefore) / 2 ** 20).toFixed(0)} MiB ` +
      `(${((heapAfter - heapBefore) / resting).toFixed(0)} bytes per resting order, accounts included)`,
    '',
    '| store | encode | save | size |',
    '|---|---|---|---|',
  );
  for (const kind of STORES) {
    const cleanups: (() => Promise<void>)[] = [];
    try {
      const store = await openBenchStore(kind, cleanups);
      cleanups.unshift(() => store.close());
      const encodeMs: number[] = [];
      const saveMs: number[] = [];
      let size = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const encoded = await timed(async () => encode(book.exchange.state));
        const saved = await timed(() =>
          store.saveSnapshot({ seq: run + 1, timeMs: book.timeMs, body: encoded.value }),
        );
        encodeMs.push(encoded.ms);
        saveMs.push(saved.ms);
        size = Buffer.byteLength(encoded.value);
      }
      lines.push(
        `| ${kind} | ${median(encodeMs).toFixed(0)} ms | ${median(saveMs).toFixed(0)} ms | ${(size / 2 ** 20).toFixed(1)} MiB |`,
      );
    } finally {
      for (const cleanup of cleanups) await cleanup();
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
