/**
 * A small HTTP/1.1 load generator: N keep-alive connections, one request in flight on each,
 * for a fixed time; counts answers and records each latency. It writes prebuilt request
 * bytes on raw sockets and reads responses by Content-Length, so the client costs far less
 * CPU than the servers it measures (node's http client would cost about as much as they do).
 *
 * Signed requests are re-signed every `resignEveryMs` (the venue allows ±30 s), so the client
 * does one HMAC per connection per interval, not per request.
 */
import { connect, type Socket } from 'node:net';

export interface LoadOptions {
  host: string;
  port: number;
  connections: number;
  durationMs: number;
  /** Builds the request bytes (called again every `resignEveryMs`). */
  buildRequest: () => string;
  resignEveryMs?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  non200: number;
  elapsedMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU the load generator used, as a percentage of one core (100 = one core busy). */
  clientCpuPercent: number;
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/** Index of the end of the headers and the body length, or null while incomplete. */
function responseEnd(buffer: Buffer): { total: number; status: number } | null {
  const headerEnd = buffer.indexOf('\r\n\r\n');
  if (headerEnd < 0) return null;
  const head = buffer.subarray(0, headerEnd).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const total = headerEnd + 4 + Number(length?.[1] ?? 0);
  if (buffer.length < total) return null;
  return { total, status: Number(head.slice(9, 12)) };
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let non200 = 0;
  let request = Buffer.from(options.buildRequest(), 'latin1');
  const resign = setInterval(() => {
    request = Buffer.from(options.buildRequest(), 'latin1');
  }, options.resignEveryMs ?? 1000);
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const deadline = started + options.durationMs;
  const sockets: Socket[] = [];

  const connection = () =>
    new Promise<void>((resolve) => {
      const socket = connect({ host: options.host, port: options.port, noDelay: true });
      sockets.push(socket);
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const sendNext = () => {
        if (performance.now() >= deadline) {
          socket.end();
          resolve();
          return;
        }
        sentAt = performance.now();
        socket.write(request);
      };
      socket.on('connect', sendNext);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const end = responseEnd(pending);
        if (!end) return;
        latencies.push(performance.now() - sentAt);
        if (end.status !== 200) non200 += 1;
        pending = pending.subarray(end.total);
        sendNext();
      });
      socket.on('error', () => {
        errors += 1;
        resolve();
      });
      socket.on('close', () => resolve());
    });

  return Promise.all(Array.from({ length: options.connections }, connection)).then(() => {
    clearInterval(resign);
    for (const socket of sockets) socket.destroy();
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuAtStart);
    const sorted = Float64Array.from(latencies).sort();
    return {
      requests: latencies.length,
      errors,
      non200,
      elapsedMs,
      requestsPerSecond: (latencies.length * 1000) / elapsedMs,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      clientCpuPercent: ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100,
    };
  });
}
