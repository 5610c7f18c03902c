/**
 * Listen errors name HOST or PORT and what to do instead of node's bare error codes.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { listen, listenFailure } from '../../src/startup/listen.ts';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`listen ${code}`), { code });
}

test('listen when the port is in use names PORT and PORT=0', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => taken.close());
  const { port } = taken.address() as AddressInfo;
  await assert.rejects(
    listen(createServer(), '127.0.0.1', port),
    new RegExp(
      `^Error: PORT ${port} on 127\\.0\\.0\\.1 is in use by another process \\(EADDRINUSE\\): .*PORT=0 picks one`,
    ),
  );
});

test('listen when the port is free resolves with the URL clients use', async (t) => {
  const server = createServer();
  t.after(() => server.close());
  assert.match(await listen(server, '127.0.0.1', 0), /^http:\/\/127\.0\.0\.1:\d+$/);
});

test('listenFailure when the cause is HOST or a privileged PORT says which and what to set', () => {
  assert.match(
    listenFailure(errno('ENOTFOUND'), 'nohost', 8080).message,
    /^HOST nohost does not resolve to an address/,
  );
  assert.match(
    listenFailure(errno('EADDRNOTAVAIL'), '10.9.9.9', 8080).message,
    /^HOST 10\.9\.9\.9 is not an address of this machine/,
  );
  assert.match(
    listenFailure(errno('EACCES'), '0.0.0.0', 443).message,
    /^PORT 443 needs privileges on this system .*set PORT to 1024 or above/,
  );
});
