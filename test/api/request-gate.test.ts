/**
 * The request gate the operator's reset closes: closing waits for the requests inside (but
 * the closer's own), gives up after its limit, refuses new ones meanwhile; and the real edge
 * answers 40015 (HTTP 503) and refuses WebSocket upgrades while it is closed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import WebSocket from 'ws';
import { RequestGate } from '../../src/api/request-gate.ts';
import { publicGet } from '../support/http.ts';
import { serverFor } from '../support/server.ts';

test('close when requests are inside waits until only its own is left', async () => {
  const gate = new RequestGate();
  assert.ok(gate.enter() && gate.enter() && gate.enter());
  let closed = false;
  const closing = gate.close(1, 10_000).then((drained) => (closed = drained));
  assert.equal(gate.enter(), false, 'nothing new enters once closing');
  gate.leave();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(closed, false, 'one other is still inside');
  gate.leave();
  assert.equal(await closing, true);
  assert.equal(gate.activeRequests, 1);
  gate.open();
  assert.equal(gate.enter(), true);
});

test('close when a request stays inside past the limit resolves false and stays closed', async () => {
  const gate = new RequestGate();
  gate.enter();
  assert.equal(await gate.close(0, 20), false);
  assert.equal(gate.isOpen, false);
  assert.equal(await gate.close(0, 20), false, 'a second closer gets false at once');
});

test('edge when the gate is closed answers 40015 with 503, /ready resetting, and refuses WebSocket upgrades', async (t) => {
  const server = await serverFor(t);
  const gate = server.services.gate;
  assert.ok(gate);
  assert.equal(await gate.close(0, 1_000), true);
  const refused = await publicGet(server.url, '/api/v2/public/time');
  assert.deepEqual(
    [refused.status, refused.body?.code, refused.body?.msg],
    [503, '40015', 'System is abnormal, please try again later'],
  );
  const ready = await publicGet(server.url, '/ready');
  assert.deepEqual([ready.status, ready.text], [503, '{"status":"resetting"}'], 'probes still answer');
  assert.equal((await publicGet(server.url, '/health')).status, 200);
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v2/ws/public`);
  const status = await new Promise<number>((resolve) =>
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)),
  );
  assert.equal(status, 503);
  gate.open();
  assert.equal((await publicGet(server.url, '/api/v2/public/time')).body?.code, '00000');
  assert.equal(gate.activeRequests, 0, 'every request that entered left');
});
