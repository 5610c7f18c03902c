/**
 * Load generator for signed POST order entry (place-batch), in its own process:
 * `node --import tsx bench/support/order-load-process.ts '<json OrderLoadInput>'` prints an
 * OrderLoadResult as JSON. Raw keep-alive sockets and prebuilt request bytes, as
 * bench/support/load.ts does, so the client costs far less CPU than the server.
 *
 * Two modes:
 * - closed loop (`ratePerSecond` absent): each connection sends its next request as soon as
 *   the previous answer arrives: the server's throughput ceiling;
 * - paced (`ratePerSecond`): requests leave on a fixed schedule spread over the connections,
 *   and latency runs from the scheduled time, not the send time, so a server that falls
 *   behind is charged for the wait (no coordinated omission); a request a timer sent early
 *   counts from its send.
 *
 * The request is re-signed every second (the venue allows ±30 s). Every `checkEvery`th answer
 * is parsed and each of its items must carry an orderId and no error code; the result counts
 * the items so checked that failed.
 *
 * BENCH_LATENCY_DUMP=file appends, per run, a line `# run started <ms since the epoch>` and
 * then one line per answer: its scheduled time (ms from the start) and its latency (ms), to
 * line up with what the server or the machine did at that moment.
 */
import { createHmac } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export interface OrderLoadInput {
  host: string;
  port: number;
  path: string;
  /** The JSON body (the same for every request). */
  body: string;
  connections: number;
  durationMs: number;
  ratePerSecond?: number;
  signing: { apiKey: string; secretKey: string; passphrase: string };
  checkEvery?: number;
  /** When set, the result also gives p99 and the largest latency per window of this many ms. */
  windowMs?: number;
}

export interface OrderLoadResult {
  requests: number;
  non200: number;
  errors: number;
  /** Items of checked answers that were refused. */
  refusedItems: number;
  checked: number;
  elapsedMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  clientCpuPercent: number;
  firstFailure: string;
  /** Per `windowMs` of scheduled time, in order: p99 and the largest latency (ms). */
  windows?: { p99Ms: number; maxMs: number }[];
}

/** p99 and the largest latency of the answers scheduled in each window of `windowMs`. */
function windowsOf(scheduled: number[], latencies: number[], windowMs: number): OrderLoadResult['windows'] {
  const byWindow: number[][] = [];
  scheduled.forEach((at, index) => (byWindow[Math.floor(at / windowMs)] ??= []).push(latencies[index] ?? 0));
  return Array.from(byWindow, (window = []) => {
    const sorted = Float64Array.from(window).sort();
    return { p99Ms: percentile(sorted, 0.99), maxMs: sorted[sorted.length - 1] ?? 0 };
  });
}

function buildRequest(input: OrderLoadInput): Buffer {
  const timestamp = String(Date.now());
  const signature = createHmac('sha256', input.signing.secretKey)
    .update(`${timestamp}POST${input.path}${input.body}`)
    .digest('base64');
  const head = [
    `POST ${input.path} HTTP/1.1`,
    `Host: ${input.host}:${input.port}`,
    'Connection: keep-alive',
    `ACCESS-KEY: ${input.signing.apiKey}`,
    `ACCESS-SIGN: ${signature}`,
    `ACCESS-TIMESTAMP: ${timestamp}`,
    `ACCESS-PASSPHRASE: ${input.signing.passphrase}`,
    'Content-Type: application/json',
    'locale: en-US',
    `Content-Length: ${Buffer.byteLength(input.body)}`,
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${input.body}`, 'utf8');
}

function responseEnd(buffer: Buffer): { total: number; status: number; bodyAt: number } | null {
  const headerEnd = buffer.indexOf('\r\n\r\n');
  if (headerEnd < 0) return null;
  const head = buffer.subarray(0, headerEnd).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const total = headerEnd + 4 + Number(length?.[1] ?? 0);
  if (buffer.length < total) return null;
  return { total, status: Number(head.slice(9, 12)), bodyAt: headerEnd + 4 };
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

export function runOrderLoad(input: OrderLoadInput): Promise<OrderLoadResult> {
  const checkEvery = input.checkEvery ?? 50;
  const latencies: number[] = [];
  const scheduled: number[] = [];
  let non200 = 0;
  let errors = 0;
  let refusedItems = 0;
  let checked = 0;
  let firstFailure = '';
  let request = buildRequest(input);
  const resign = setInterval(() => (request = buildRequest(input)), 1000);
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const deadline = started + input.durationMs;
  const sockets: Socket[] = [];
  // Paced: connection i sends at started + (k * connections + i) / rate.
  const intervalMs = input.ratePerSecond ? (1000 * input.connections) / input.ratePerSecond : 0;

  const check = (text: string) => {
    checked += 1;
    try {
      const envelope = JSON.parse(text) as { code: string; data: { orderId?: string; code?: string }[] };
      for (const item of envelope.data ?? []) {
        if (!item.orderId || item.code) {
          refusedItems += 1;
          firstFailure ||= JSON.stringify(item);
        }
      }
    } catch {
      refusedItems += 1;
      firstFailure ||= text.slice(0, 200);
    }
  };

  const connection = (index: number) =>
    new Promise<void>((resolve) => {
      const socket = connect({ host: input.host, port: input.port, noDelay: true });
      sockets.push(socket);
      let pending: Buffer = Buffer.alloc(0);
      let scheduledAt = 0;
      /** When the latency of the request in flight starts: its scheduled time, or its send if earlier. */
      let startedAt = 0;
      let sequence = 0;
      const send = () => {
        scheduledAt = intervalMs
          ? started + (sequence * input.connections + index) * (intervalMs / input.connections)
          : performance.now();
        sequence += 1;
        if (scheduledAt >= deadline) {
          socket.end();
          resolve();
          return;
        }
        const wait = scheduledAt - performance.now();
        const write = () => {
          // A timer may fire up to a millisecond early (whole-millisecond clock): latency then
          // runs from the send, never from a scheduled time still ahead.
          startedAt = Math.min(scheduledAt, performance.now());
          socket.write(request);
        };
        if (wait > 0) setTimeout(write, wait);
        else write();
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const end = responseEnd(pending);
        if (!end) return;
        latencies.push(performance.now() - startedAt);
        scheduled.push(scheduledAt - started);
        if (end.status !== 200) {
          non200 += 1;
          firstFailure ||= pending.subarray(end.bodyAt, end.total).toString('utf8').slice(0, 200);
        } else if (latencies.length % checkEvery === 0) {
          check(pending.subarray(end.bodyAt, end.total).toString('utf8'));
        }
        pending = pending.subarray(end.total);
        send();
      });
      socket.on('error', () => {
        errors += 1;
        resolve();
      });
      socket.on('close', () => resolve());
    });

  return Promise.all(Array.from({ length: input.connections }, (_, index) => connection(index))).then(() => {
    clearInterval(resign);
    for (const socket of sockets) socket.destroy();
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuAtStart);
    const sorted = Float64Array.from(latencies).sort();
    if (process.env.BENCH_LATENCY_DUMP) {
      const lines = latencies.map((ms, i) => `${(scheduled[i] ?? 0).toFixed(3)} ${ms.toFixed(3)}`);
      appendFileSync(
        process.env.BENCH_LATENCY_DUMP,
        `# run started ${(performance.timeOrigin + started).toFixed(0)} (ms since the epoch)\n${lines.join('\n')}\n`,
      );
    }
    return {
      requests: latencies.length,
      non200,
      errors,
      refusedItems,
      checked,
      elapsedMs,
      requestsPerSecond: (latencies.length * 1000) / elapsedMs,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      p999Ms: percentile(sorted, 0.999),
      clientCpuPercent: ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100,
      firstFailure,
      ...(input.windowMs ? { windows: windowsOf(scheduled, latencies, input.windowMs) } : {}),
    };
  });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '\0')) {
  const input = JSON.parse(process.argv[2] ?? '{}') as OrderLoadInput;
  process.stdout.write(`${JSON.stringify(await runOrderLoad(input))}\n`);
}
