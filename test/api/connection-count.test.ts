import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { countConnections } from '../../src/api/connection-count.ts';
import { createMetrics } from '../../src/api/metrics.ts';

async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !check(); tries += 1) await new Promise((r) => setTimeout(r, 5));
}

test('countConnections when clients connect and leave counts the open ones, and /metrics shows it', async (t) => {
  const server = createServer((_request, response) => response.end('ok'));
  const count = countConnections(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  const metrics = createMetrics();
  metrics.watch({ http: count });
  const sockets = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1'), connect(port, '127.0.0.1')];
  await until(() => count.connectionCount === 3);
  assert.equal(count.connectionCount, 3);
  assert.match((await metrics.render()).text, /^bourse_http_connections 3$/m);
  sockets[0]?.destroy();
  sockets[1]?.destroy();
  await until(() => count.connectionCount === 1);
  assert.equal(count.connectionCount, 1);
  sockets[2]?.destroy();
  await until(() => count.connectionCount === 0);
  assert.equal(count.connectionCount, 0);
});
