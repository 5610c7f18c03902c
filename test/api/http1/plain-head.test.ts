import assert from 'node:assert/strict';
import test from 'node:test';
import { parsePlainHead } from '../../../src/api/http1/plain-head.ts';

const MAX_BODY_BYTES = 1024;

function head(...lines: string[]): string {
  return lines.join('\r\n');
}

test('parsePlainHead when the head is a plain keep-alive POST gives method, target, headers and length', () => {
  const parsed = parsePlainHead(
    head(
      'POST /api/v3/trade/place-batch?x=1 HTTP/1.1',
      'Host: 127.0.0.1:8080',
      'ACCESS-KEY:  bg_key \t',
      'Content-Type: application/json',
      'Connection: Keep-Alive',
      'Content-Length: 12',
    ),
    MAX_BODY_BYTES,
  );
  assert.ok(parsed);
  assert.equal(parsed.method, 'POST');
  assert.equal(parsed.url, '/api/v3/trade/place-batch?x=1');
  assert.equal(parsed.contentLength, 12);
  assert.deepEqual(
    { ...parsed.headers },
    {
      host: '127.0.0.1:8080',
      'access-key': 'bg_key',
      'content-type': 'application/json',
      connection: 'Keep-Alive',
      'content-length': '12',
    },
  );
});

test('parsePlainHead when there is no Content-Length gives a body length of 0', () => {
  const parsed = parsePlainHead(head('GET /api/v2/public/time HTTP/1.1', 'Host: x'), MAX_BODY_BYTES);
  assert.equal(parsed?.contentLength, 0);
  assert.equal(parsed?.method, 'GET');
});

test('parsePlainHead when names come in any case gives them in lower case, known or not', () => {
  const parsed = parsePlainHead(
    head('GET / HTTP/1.1', 'hOsT: x', 'aCcEsS-SiGn: s', 'X-Custom-Name: c', 'x-lower: l'),
    MAX_BODY_BYTES,
  );
  assert.deepEqual(
    { ...parsed?.headers },
    { host: 'x', 'access-sign': 's', 'x-custom-name': 'c', 'x-lower': 'l' },
  );
});

test('parsePlainHead when the request is not in the plain form gives null (node:http parses it)', () => {
  const notPlain: [string, string][] = [
    ['HTTP/1.0', head('GET / HTTP/1.0', 'Host: x')],
    ['no Host', head('GET / HTTP/1.1', 'Accept: */*')],
    ['chunked body', head('POST / HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked')],
    ['Expect', head('POST / HTTP/1.1', 'Host: x', 'Expect: 100-continue', 'Content-Length: 1')],
    ['Upgrade', head('GET /v2/ws/public HTTP/1.1', 'Host: x', 'Upgrade: websocket', 'Connection: Upgrade')],
    ['Connection: close', head('GET / HTTP/1.1', 'Host: x', 'Connection: close')],
    ['repeated name', head('GET / HTTP/1.1', 'Host: x', 'ACCESS-KEY: a', 'access-key: b')],
    ['repeated Content-Length', head('POST / HTTP/1.1', 'Host: x', 'Content-Length: 1', 'Content-Length: 1')],
    ['signed Content-Length', head('POST / HTTP/1.1', 'Host: x', 'Content-Length: +1')],
    [
      'Content-Length over the limit',
      head('POST / HTTP/1.1', 'Host: x', `Content-Length: ${MAX_BODY_BYTES + 1}`),
    ],
    ['HEAD', head('HEAD / HTTP/1.1', 'Host: x')],
    ['OPTIONS', head('OPTIONS / HTTP/1.1', 'Host: x')],
    ['lower-case method', head('get / HTTP/1.1', 'Host: x')],
    ['absolute target', head('GET http://x/ HTTP/1.1', 'Host: x')],
    ['asterisk target', head('GET * HTTP/1.1', 'Host: x')],
    ['two spaces', head('GET  / HTTP/1.1', 'Host: x')],
    ['control byte in the target', head('GET /a\u0001 HTTP/1.1', 'Host: x')],
    ['control byte in a value', head('GET / HTTP/1.1', 'Host: x', 'X-A: a\u0000b')],
    ['non-ASCII byte in a value', head('GET / HTTP/1.1', 'Host: x', 'X-A: caf\u00e9')],
    ['bare LF', 'GET / HTTP/1.1\nHost: x'],
    ['CR inside a value', head('GET / HTTP/1.1', 'Host: x', 'X-A: a\rb')],
    ['LF inside a value', head('GET / HTTP/1.1', 'Host: x', 'X-A: a\nb')],
    ['LF inside a name', head('GET / HTTP/1.1', 'Host: x', 'X\nA: b')],
    ['a name that is an Object property', head('GET / HTTP/1.1', 'Host: x', 'Constructor: b')],
    ['__proto__', head('GET / HTTP/1.1', 'Host: x', '__proto__: b')],
    ['folded line', head('GET / HTTP/1.1', 'Host: x', 'X-A: a', ' b')],
    ['no colon', head('GET / HTTP/1.1', 'Host: x', 'Bad Header')],
    ['space before the colon', head('GET / HTTP/1.1', 'Host : x')],
    ['empty name', head('GET / HTTP/1.1', 'Host: x', ': a')],
  ];
  for (const [what, text] of notPlain) assert.equal(parsePlainHead(text, MAX_BODY_BYTES), null, what);
});
