/**
 * The head parser is never looser than node:http: for heads made from a plain request and then
 * mangled at random (control, blank and non-ASCII bytes, colons, case, repeated or dropped
 * lines), every head parsePlainHead accepts is one node:http also accepts, with the same
 * method, target and headers. node:http is the oracle: a server without the fast path echoes
 * what it parsed.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { closeServer, listenOnLoopback } from '../../support/http.ts';
import { parsePlainHead } from '../../../src/api/http1/plain-head.ts';
import { Random } from '../../support/random.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CASES = 400;

let server: Server;
let port = 0;

before(async () => {
  server = createServer({ keepAlive: false }, (request, response) => {
    const text = JSON.stringify({ method: request.method, url: request.url, headers: request.headers });
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
    request.resume();
  });
  port = await listenOnLoopback(server);
});

after(() => closeServer(server));

/** node:http's reading of `head` (latin1 bytes): its echo, or null when it refused the request. */
function nodeParse(head: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('node:http did not answer'));
    }, 5000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      if (!text.startsWith('HTTP/1.1 200 ')) return resolve(null);
      resolve(JSON.parse(Buffer.from(text.slice(text.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')));
    });
    // Connection: close would make the head not plain; the client half-closes instead.
    socket.end(Buffer.from(`${head}\r\n\r\n`, 'latin1'));
  });
}

const LINES = [
  'Host: 127.0.0.1:8080',
  'ACCESS-KEY: bg_0123456789abcdef',
  'ACCESS-SIGN: 4JQmL8n0H4Q6dJx9r3jW0mGkq1m1c2o8Yc0a7PqN3VQ=',
  'ACCESS-TIMESTAMP: 1763935839123',
  'ACCESS-PASSPHRASE: pass phrase',
  'Content-Type: application/json',
  'locale: en-US',
  'User-Agent: axios/1.7',
  'Accept: */*',
  'X-Empty:',
];
const NOISE = [
  '\u0000',
  '\t',
  ' ',
  '\r',
  '\n',
  ':',
  '\u007f',
  '\u00e9',
  '"',
  '(',
  '/',
  '@',
  '{',
  'A',
  'z',
  '0',
];

function mangle(random: Random, text: string): string {
  let out = text;
  for (let edit = random.int(0, 2); edit > 0; edit -= 1) {
    const at = random.int(0, out.length);
    const kind = random.int(0, 3);
    if (kind === 0) out = out.slice(0, at) + random.pick(NOISE) + out.slice(at);
    else if (kind === 1) out = out.slice(0, at) + out.slice(at + 1);
    else if (kind === 2) out = out.slice(0, at) + out.slice(at, at + 1).toUpperCase() + out.slice(at + 1);
    else out = out.slice(0, at) + out.slice(at, at + 1).toLowerCase() + out.slice(at + 1);
  }
  return out;
}

function randomHead(random: Random): string {
  const method = random.bool(0.8)
    ? random.pick(['GET', 'POST', 'DELETE'])
    : random.pick(['PUT', 'HEAD', 'get']);
  const target = random.pick([
    '/api/v2/public/time',
    '/api/v3/trade/place-batch?x=1&y=%20',
    '/a b',
    '/é',
    '*',
  ]);
  const version = random.bool(0.9) ? 'HTTP/1.1' : random.pick(['HTTP/1.0', 'HTTP/2.0', 'http/1.1']);
  const lines = [`${method} ${target} ${version}`];
  for (const line of LINES)
    if (line.startsWith('Host') ? random.bool(0.95) : random.bool(0.7)) lines.push(line);
  if (random.bool(0.1)) lines.push(random.pick(LINES));
  if (random.bool(0.05)) lines.push(' folded');
  return lines.map((line) => (random.bool(0.12) ? mangle(random, line) : line)).join('\r\n');
}

test('parsePlainHead when it accepts a head gives what node:http parses from it (seeded fuzz)', async () => {
  const random = new Random(SEED);
  let accepted = 0;
  for (let index = 0; index < CASES; index += 1) {
    const head = randomHead(random);
    const plain = parsePlainHead(head, 1024);
    if (plain === null) continue;
    accepted += 1;
    const parsed = await nodeParse(head);
    const where = `seed ${SEED}, case ${index}: ${JSON.stringify(head)}`;
    assert.notEqual(parsed, null, `node:http refused a head the fast path took (${where})`);
    assert.deepEqual(parsed, { method: plain.method, url: plain.url, headers: { ...plain.headers } }, where);
  }
  assert.ok(accepted >= CASES / 10, `enough heads were plain to compare (${accepted})`);
});
