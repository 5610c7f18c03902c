/**
 * WebSocket load clients for bench/ws-fanout.bench.ts, in their own process: opens `count`
 * connections to `url`, subscribes each to the given args, and records every frame. Talks
 * to the parent over IPC: sends {type:'ready'} once all are subscribed; on {type:'finish',
 * sentAt} (absolute ms of each trade, keyed by price) answers with the frame count, the
 * span between the first and last frame, and the trade→delivery latency percentiles.
 */
import WebSocket from 'ws';

interface Input {
  url: string;
  count: number;
  args: Record<string, string>[];
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const now = () => performance.timeOrigin + performance.now();
let frames = 0;
let firstMs = 0;
let lastMs = 0;
let counting = false;
/** Receive times of trade frames: price → list of absolute ms (one per connection). */
const received = new Map<number, number[]>();
const sockets: WebSocket[] = [];

function onMessage(data: WebSocket.RawData): void {
  if (!counting) return;
  const at = now();
  frames += 1;
  if (firstMs === 0) firstMs = at;
  lastMs = at;
  const text = data.toString();
  if (!text.includes('"trade"') && !text.includes('"publicTrade"')) return;
  const message = JSON.parse(text) as { action?: string; data?: { price?: string }[] };
  if (message.action !== 'update') return;
  for (const trade of message.data ?? []) {
    const price = Number(trade.price);
    const list = received.get(price);
    if (list) list.push(at);
    else received.set(price, [at]);
  }
}

async function open(): Promise<void> {
  for (let index = 0; index < input.count; index += 1) {
    const socket = new WebSocket(input.url);
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ op: 'subscribe', args: input.args }));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

process.on('message', (message: { type: string; sentAt?: Record<string, number> }) => {
  if (message.type === 'start') {
    counting = true;
    return;
  }
  if (message.type !== 'finish') return;
  const latencies: number[] = [];
  for (const [price, sentAt] of Object.entries(message.sentAt ?? {})) {
    for (const at of received.get(Number(price)) ?? []) latencies.push(at - sentAt);
  }
  latencies.sort((a, b) => a - b);
  const closed = sockets.filter((socket) => socket.readyState !== WebSocket.OPEN).length;
  for (const socket of sockets) socket.terminate();
  process.send?.({
    type: 'result',
    frames,
    spanMs: lastMs - firstMs,
    deliveries: latencies.length,
    closed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
  });
  setTimeout(() => process.exit(0), 50);
});

open().then(
  () => setTimeout(() => process.send?.({ type: 'ready' }), 500),
  (error: unknown) => {
    process.send?.({ type: 'error', error: String(error) });
    process.exit(1);
  },
);
