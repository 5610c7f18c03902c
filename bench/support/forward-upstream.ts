/**
 * The far end of bench/cluster-forwarding.bench.ts, in its own process: an HTTP server and a
 * NATS request/reply responder (subject from argv[2]) that both answer each request with the
 * same small venue envelope. Prints `<http port>` once both listen.
 */
import { createServer } from 'node:http';
import { connect } from 'nats';

const subject = process.argv[2] ?? 'bourse.bench.forward';
const answer = Buffer.from(
  JSON.stringify({ code: '00000', msg: 'success', requestTime: 0, data: { orderId: '1' } }),
);
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    response.end(answer);
  });
});
const nc = await connect({ servers: process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222' });
nc.subscribe(subject, { queue: 'engines', callback: (_error, message) => message.respond(answer) });
await nc.flush();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  void nc.close().then(() => process.exit(0));
});
