/**
 * A client that closes its connection halfway through sending a body is not a server error:
 * no 500 in the request log, no "unhandled error" line, and the server carries on.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { spawnServer } from '../support/child.ts';
import { publicGet } from '../support/http.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

/** Sends a request head and part of its body, then closes the connection. */
function abortMidBody(url: string, path: string, framing: string, partialBody: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n${framing}\r\n${partialBody}`,
        () => {
          socket.destroy();
          resolve();
        },
      );
    });
    socket.on('error', reject);
  });
}

function requestLines(stdout: string): { path?: string; status?: number; message?: string }[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      return line.startsWith('{')
        ? [JSON.parse(line) as { path?: string; status?: number; message?: string }]
        : [];
    } catch {
      return [];
    }
  });
}

test(
  'a request when the client closes mid-body is logged 499, not as a 500',
  { timeout: 60_000 },
  async (t) => {
    const dataDir = makeTempDir('bourse-abort-');
    t.after(() => removeDir(dataDir));
    const server = await spawnServer({ BOURSE_DATA_DIR: dataDir, BOURSE_LOG: 'info' }, 20_000, {
      marketDefaults: true,
    });
    try {
      const path = '/api/v2/spot/trade/place-order';
      await abortMidBody(server.url, path, 'Transfer-Encoding: chunked\r\n', '5\r\n{"sym\r\n');
      await abortMidBody(server.url, path, 'Content-Length: 100\r\nConnection: close\r\n', '{"symbol":');
      let closed: unknown[] = [];
      for (let attempt = 0; attempt < 100 && closed.length < 2; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        closed = requestLines(server.stdout()).filter((line) => line.path === path && line.status === 499);
      }
      assert.equal(closed.length, 2, server.stdout());
      const lines = requestLines(server.stdout());
      assert.deepEqual(
        lines.filter((line) => line.status === 500 || line.message === 'unhandled error'),
        [],
      );
      assert.equal((await publicGet(server.url, '/api/v2/public/time')).body?.code, '00000');
    } finally {
      await server.kill('SIGTERM');
    }
  },
);
