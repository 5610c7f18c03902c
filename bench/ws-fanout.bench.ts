/**
 * WebSocket fan-out benchmark (`npm run bench:ws`; not a test): one symbol's `books` and
 * `trade` channels pushed to CLIENTS (500) subscribed connections, against a bare `ws`
 * server broadcasting the same frames to the same number of connections, in the same run.
 *
 * bourse: every round a maker rests a sell of 0.002 and a taker lifts 0.001 of it (two commands,
 * submitted in process, one trade, one new book level); each round's book updates and trade reach every subscriber after
 * the batch is durable. Latency is from the taker's submit to a client receiving the trade
 * (engine, journal fsync and fan-out included). The bare peer replays the frames bourse sent
 * (recorded by one extra subscriber, at the same offsets) with `ws`'s send to every socket;
 * its latency is from the broadcast call. Clients run in a child process (another core).
 *
 * Settings: BENCH_CLIENTS (500), BENCH_ROUNDS_PER_SECOND (100), BENCH_DURATION_MS (5000).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { loadConfig } from '../src/config.ts';
import type { Command } from '../src/domain/commands.ts';
import { parseMoney } from '../src/domain/money.ts';
import { startServer } from '../src/server.ts';
import { makeTempDir, removeDir } from '../test/support/server.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const ROUNDS_PER_SECOND = Number(process.env.BENCH_ROUNDS_PER_SECOND ?? 100);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ARGS = [
  { instType: 'SPOT', channel: 'books', instId: 'BTCUSDT' },
  { instType: 'SPOT', channel: 'trade', instId: 'BTCUSDT' },
];
const CLIENT_PROCESS = fileURLToPath(new URL('./support/ws-clients-process.ts', import.meta.url));
const now = () => performance.timeOrigin + performance.now();

interface ClientResult {
  frames: number;
  spanMs: number;
  deliveries: number;
  closed: number;
  p50: number;
  p99: number;
  max: number;
}

function startClients(
  url: string,
): Promise<{ child: ChildProcess; finish: (sentAt: Record<string, number>) => Promise<ClientResult> }> {
  const child = fork(CLIENT_PROCESS, [JSON.stringify({ url, count: CLIENTS, args: ARGS })], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { type: string; error?: string }) => {
      if (message.type !== 'ready') return reject(new Error(message.error ?? 'clients failed'));
      child.send({ type: 'start' });
      resolve({
        child,
        finish: (sentAt) =>
          new Promise((done) => {
            child.once('message', (result: ClientResult) => done(result));
            child.send({ type: 'finish', sentAt });
          }),
      });
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runBourse() {
  const dataDir = makeTempDir('bourse-ws-bench-');
  const bourse = await startServer({
    ...loadConfig({
      BOURSE_DATA_DIR: dataDir,
      PORT: '0',
      BOURSE_RATE_LIMITS: 'off',
      BOURSE_FEED: 'off',
      BOURSE_LIQUIDITY: 'off',
      BOURSE_WS_MAX_BUFFERED_BYTES: String(64 * 1024 * 1024),
      // Every client connects from loopback: lift the per-IP cap (the venue's 100) for the run,
      // with room for the recorder's own connection besides the CLIENTS measured.
      BOURSE_WS_MAX_CONNECTIONS_PER_IP: String(Math.max(100, CLIENTS + 1)),
      BOURSE_WS_MAX_CONNECTIONS: String(Math.max(1000, CLIENTS + 1)),
    }),
    log: 'off' as const,
  });
  const { sequencer, clock } = bourse.services;
  const submit = (command: Record<string, unknown>) =>
    sequencer.submit({ timeMs: clock.now(), ...command } as unknown as Command);
  const account = async (coin: string, amount: string) => {
    const created = await submit({
      type: 'CreateAccount',
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: '',
    });
    const { uid } = (created as { value: { uid: string } }).value;
    await submit({
      type: 'Deposit',
      uid,
      coin,
      amount: parseMoney(amount),
      wallet: 'spot',
      subType: 'onchain',
    });
    return uid;
  };
  // Several makers: each round leaves an order resting, and an account may hold only so many.
  const makers = [];
  for (let index = 0; index < 8; index += 1) makers.push(await account('BTC', '1000'));
  const taker = await account('USDT', '100000000');
  const wsUrl = `${bourse.url.replace('http', 'ws')}/v2/ws/public`;
  const clients = await startClients(wsUrl);
  const recorder = new WebSocket(wsUrl);
  const recorded: { atMs: number; text: string }[] = [];
  await new Promise((resolve) => recorder.once('open', resolve));
  recorder.send(JSON.stringify({ op: 'subscribe', args: ARGS }));
  await sleep(300);
  const startMs = now();
  recorder.on('message', (data) => recorded.push({ atMs: now() - startMs, text: data.toString() }));
  const sentAt: Record<string, number> = {};
  const rounds = Math.round((DURATION_MS / 1000) * ROUNDS_PER_SECOND);
  for (let round = 0; round < rounds; round += 1) {
    // Each round's ask is below the last, so the taker lifts exactly this round's order.
    const price = (59_000 - round / 100).toFixed(2);
    const order = { symbol: 'BTCUSDT', orderType: 'limit', stpMode: 'none', quantity: '0.001', price };
    // The maker rests twice what the taker lifts: every round adds a level to the book.
    const rest = { ...order, quantity: '0.002', side: 'sell', timeInForce: 'gtc' };
    void submit({ type: 'PlaceOrders', uid: makers[round % makers.length], category: 'SPOT', items: [rest] });
    sentAt[String(Number(price))] = now();
    void submit({
      type: 'PlaceOrders',
      uid: taker,
      category: 'SPOT',
      items: [{ ...order, side: 'buy', timeInForce: 'ioc' }],
    });
    const due = startMs + ((round + 1) * 1000) / ROUNDS_PER_SECOND;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
  }
  await sequencer.drain();
  await sleep(1500);
  const result = await clients.finish(sentAt);
  recorder.terminate();
  await bourse.close();
  removeDir(dataDir);
  return { result, recorded, rounds };
}

async function runBare(recorded: { atMs: number; text: string }[]) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const { port } = wss.address() as { port: number };
  const clients = await startClients(`ws://127.0.0.1:${port}`);
  const sentAt: Record<string, number> = {};
  const startMs = now();
  for (const frame of recorded) {
    const wait = startMs + frame.atMs - now();
    if (wait > 1) await sleep(wait);
    if (frame.text.includes('"trade"') && frame.text.includes('"update"')) {
      for (const trade of (JSON.parse(frame.text) as { data: { price: string }[] }).data)
        sentAt[String(Number(trade.price))] = now();
    }
    for (const socket of wss.clients) socket.send(frame.text);
  }
  await sleep(1500);
  const result = await clients.finish(sentAt);
  await new Promise((resolve) => wss.close(resolve));
  return result;
}

function line(name: string, result: ClientResult): string {
  const rate = result.spanMs > 0 ? Math.round((result.frames / result.spanMs) * 1000) : 0;
  return (
    `${name.padEnd(8)} ${String(rate).padStart(9)} frames/s  trade→client p50 ${result.p50.toFixed(1)} ms  ` +
    `p99 ${result.p99.toFixed(1)} ms  max ${result.max.toFixed(1)} ms  (${result.frames} frames, ` +
    `${result.deliveries} trade deliveries, ${result.closed} connections lost)`
  );
}

async function main(): Promise<void> {
  console.log(
    `ws fan-out: ${CLIENTS} connections on books + trade of BTCUSDT, ${ROUNDS_PER_SECOND} trades/s for ` +
      `${DURATION_MS} ms; ${cpus().length} CPUs, node ${process.version}`,
  );
  const bourse = await runBourse();
  console.log(line('bourse', bourse.result));
  const bare = await runBare(bourse.recorded);
  console.log(line('bare ws', bare));
  const expected = bourse.rounds * CLIENTS;
  console.log(
    `trade deliveries expected ${expected}: bourse ${bourse.result.deliveries}, bare ${bare.deliveries}`,
  );
}

await main();
