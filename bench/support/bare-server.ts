/**
 * The benchmark's peer: a bare node:http server that does the same authentication work as
 * bourse on a signed GET (header reads, timestamp window, key lookup, passphrase check,
 * base64 HMAC-SHA256 over timestamp + METHOD + path + query + body, constant-time compare)
 * and answers a fixed account-information envelope. No routing table, no envelope
 * building, no logging: the floor a venue-compatible server cannot go below.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BareKey {
  apiKey: string;
  secretKey: string;
  passphrase: string;
  uid: string;
}

function headerOf(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export async function startBareServer(
  key: BareKey,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const passphraseDigest = createHash('sha256').update(key.passphrase).digest('hex');
  const keys = new Map([[key.apiKey, { ...key, passphraseDigest }]]);
  const server: Server = createServer({ keepAlive: true }, (request, response) => {
    const url = request.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    const query = at < 0 ? '' : url.slice(at + 1);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = headerOf(request, 'access-timestamp');
      const found = keys.get(headerOf(request, 'access-key'));
      const given = Buffer.from(headerOf(request, 'access-sign'));
      const digest = createHash('sha256').update(headerOf(request, 'access-passphrase')).digest('hex');
      const prehash = `${timestamp}${request.method}${path}${query ? `?${query}` : ''}${body}`;
      const expected = found
        ? Buffer.from(createHmac('sha256', found.secretKey).update(prehash).digest('base64'))
        : null;
      const valid =
        found !== undefined &&
        /^\d{1,16}$/.test(timestamp) &&
        Math.abs(Date.now() - Number(timestamp)) <= 30_000 &&
        digest === found.passphraseDigest &&
        expected !== null &&
        expected.length === given.length &&
        timingSafeEqual(expected, given);
      const text = valid
        ? JSON.stringify({
            code: '00000',
            msg: 'success',
            requestTime: Date.now(),
            data: {
              userId: found.uid,
              inviterId: '',
              channelCode: '',
              channel: '',
              ips: '',
              authorities: ['stor', 'stow'],
              parentId: Number(found.uid),
              traderType: 'not_trader',
              regisTime: '0',
            },
          })
        : JSON.stringify({ code: '40009', msg: 'sign signature error', requestTime: Date.now(), data: null });
      response.writeHead(valid ? 200 : 400, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
