/**
 * An edge when no engine answers (src/cluster/edge.ts): before any engine leads, and when the
 * lease names an engine whose port refuses connections (it died, the lease not yet taken
 * over), requests get the venue's retryable 40015 with HTTP 503 and Retry-After, and WebSocket
 * upgrades a plain 503: nothing was run.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startEdge } from '../../src/cluster/edge.ts';
import { Lease } from '../../src/cluster/lease.ts';
import { freePort } from '../support/child.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

const CLUSTER = {
  role: 'edge' as const,
  name: 'gaps',
  leaseMs: 1_500,
  followEveryMs: 20,
  natsUrl: undefined,
  advertiseUrl: undefined,
  readWaitMs: 1_000,
  rateSyncMs: 25,
};

async function upgradeAnswer(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        'GET /v2/ws/public HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

await postgresTests('cluster edge gap tests', [
  {
    name: 'an edge with no engine to reach answers 40015 (503, Retry-After) and refuses upgrades with 503',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      // The lease table, made by the first engine; an edge only reads it.
      const lease = await Lease.open({
        url: database.url,
        name: 'gaps',
        holder: 'dead engine',
        advertiseUrl: `http://127.0.0.1:${await freePort()}`,
        ttlMs: 60_000,
      });
      t.after(() => lease.release());
      const edge = await startEdge({
        host: '127.0.0.1',
        port: 0,
        databaseUrl: database.url,
        cluster: CLUSTER,
      });
      t.after(() => edge.close());
      for (const stage of ['no engine leads', 'the leader’s port refuses']) {
        if (stage === 'the leader’s port refuses') {
          assert.equal(await lease.tryTake(), 1);
          await new Promise((resolve) => setTimeout(resolve, 100));
          assert.match(edge.leader() ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'the edge follows the lease');
        } else {
          assert.equal(edge.leader(), null);
        }
        const response = await fetch(`${edge.url}/api/v2/spot/trade/place-order`, {
          method: 'POST',
          body: '{}',
        });
        assert.equal(response.status, 503, stage);
        assert.equal(response.headers.get('retry-after'), '1');
        const body = (await response.json()) as { code: string; data: unknown };
        assert.equal(body.code, '40015', stage);
        assert.equal(body.data, null);
      }
      assert.match(await upgradeAnswer(edge.url), /^HTTP\/1\.1 503/);
    },
  },
]);
