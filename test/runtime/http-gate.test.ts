/**
 * The gate in front of the app: refuses with 503 / 40015 before the server is open and while
 * it stops (node:http's answer also says Connection: close and Retry-After), passes requests
 * to the app while open, and tells a stop when the requests in flight have been answered.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { App, EdgeReply, EdgeRequest } from '../../src/api/app.ts';
import { HttpGate } from '../../src/runtime/http-gate.ts';

const NOW = 1_800_000_000_000;

function request(url = '/api/v2/public/time'): EdgeRequest {
  return { method: 'GET', url, headers: {}, remoteAddress: '127.0.0.1', body: '' };
}

function recordingReply(): EdgeReply & { answers: { status: number; json: string }[] } {
  const answers: { status: number; json: string }[] = [];
  return { answers, send: (status, json) => answers.push({ status, json }), abort: () => undefined };
}

/** An app that holds each request until released. */
function heldApp() {
  const held: EdgeReply[] = [];
  const app: App = { serve: (_request, reply) => held.push(reply), handle: () => undefined };
  return { app, held };
}

test('gate when the server is starting refuses with 40015 and says so', () => {
  const gate = new HttpGate(() => NOW);
  const reply = recordingReply();
  gate.serve(request('/api/v3/market/tickers'), reply);
  const [answer] = reply.answers;
  assert.equal(answer?.status, 503);
  assert.deepEqual(JSON.parse(answer?.json ?? ''), {
    code: '40015',
    msg: 'System is abnormal, please try again later (the server is starting)',
    requestTime: NOW,
    data: null,
  });
});

test('gate when stopping refuses new requests and resolves idle once those in flight are answered', async () => {
  const gate = new HttpGate(() => NOW);
  const { app, held } = heldApp();
  gate.open(app);
  const first = recordingReply();
  gate.serve(request(), first);
  assert.equal(held.length, 1, 'an open gate passes requests to the app');
  gate.stop();
  const late = recordingReply();
  gate.serve(request(), late);
  assert.equal(late.answers[0]?.status, 503);
  assert.match(late.answers[0]?.json ?? '', /the server is stopping/);
  let idle = false;
  const waiting = gate.idle().then(() => (idle = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(idle, false, 'not idle while a request is in flight');
  held[0]?.send(200, '{"code":"00000"}');
  await waiting;
  assert.deepEqual(first.answers, [{ status: 200, json: '{"code":"00000"}' }]);
  assert.equal(gate.inFlightAtStop, 1);
  assert.equal(gate.refusedWhileStopping, 1);
});

test('gate when refusing through node:http closes the connection and says when to retry', async (t) => {
  const gate = new HttpGate(() => NOW);
  const server = createServer((req, res) => gate.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/api/v2/public/time`);
  assert.equal(response.status, 503);
  assert.equal(response.headers.get('connection'), 'close');
  assert.equal(response.headers.get('retry-after'), '1');
  assert.equal(((await response.json()) as { code: string }).code, '40015');
});

test('gate when not open answers the liveness and readiness probes itself', () => {
  const gate = new HttpGate(() => NOW);
  const health = recordingReply();
  const ready = recordingReply();
  gate.serve(request('/health'), health);
  gate.serve(request('/ready?verbose=1'), ready);
  assert.deepEqual(health.answers, [{ status: 200, json: '{"status":"ok"}' }]);
  assert.deepEqual(ready.answers, [{ status: 503, json: '{"status":"starting"}' }]);
  gate.open(heldApp().app);
  gate.stop();
  const stopping = recordingReply();
  gate.serve(request('/ready'), stopping);
  assert.deepEqual(stopping.answers, [{ status: 503, json: '{"status":"stopping"}' }]);
});

test('gate when open passes the content type of the answer through', () => {
  const gate = new HttpGate(() => NOW);
  const types: (string | undefined)[] = [];
  gate.open({ serve: (_request, reply) => reply.send(200, 'text', 'text/plain'), handle: () => undefined });
  gate.serve(request('/metrics'), {
    send: (_status, _json, type) => types.push(type),
    abort: () => undefined,
  });
  assert.deepEqual(types, ['text/plain']);
});
