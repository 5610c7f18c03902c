/**
 * The fast path's request-head parser. It accepts only the plain form of an HTTP/1.1 request,
 * the one bots and SDKs send: a request line `METHOD /target HTTP/1.1`, a Host, printable
 * ASCII header lines, each name once, a body only by Content-Length, and a keep-alive
 * connection. Anything else (HTTP/1.0, chunked bodies, Expect, Upgrade, Connection: close,
 * repeated names, control or non-ASCII bytes, folded lines, a missing Host) gives null, and the
 * connection goes to node:http, which parses it, answers it or refuses it as before.
 *
 * Being stricter than node:http is the point: every request the fast path takes is one
 * node:http would have parsed the same way, so the two give the same answer.
 *
 * It reads character codes in one pass rather than splitting and matching: a head is parsed
 * on every request, and strings made per line (split, toLowerCase, trim) cost several times
 * the scan.
 */

export interface PlainHead {
  /** Upper case, one of the methods the API routes use. */
  method: string;
  /** The request target as sent (origin form: starts with '/'). */
  url: string;
  /** Lower-case names, values without surrounding blanks, as node:http gives them. */
  headers: Record<string, string>;
  contentLength: number;
}

/** Origin-form request line of printable ASCII. */
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\/[!-~]*) HTTP\/1\.1$/;

/** RFC 9110 token characters (header names), by character code. */
const TOKEN = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  TOKEN[char.charCodeAt(0)] = 1;
}

/** A byte other than tab, CR, LF and printable ASCII (CR and LF are then checked to pair). */
const NOT_PRINTABLE = /[^\t\r\n -~]/;

const TAB = 9;
const SPACE = 32;
const COLON = 58;
const TILDE = 126;

/**
 * Names clients send, lower case. A name read from a head is matched against these through a
 * case-folded hash computed in the scan, so the usual names cost no new string.
 */
const KNOWN_NAMES = [
  'host',
  'connection',
  'content-type',
  'content-length',
  'access-key',
  'access-sign',
  'access-timestamp',
  'access-passphrase',
  'locale',
  'paptrading',
  'x-channel-api-code',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'authorization',
  'x-forwarded-for',
  'x-real-ip',
  'cache-control',
  'pragma',
  'origin',
  'referer',
  'transfer-encoding',
  'upgrade',
  'expect',
];

/** Case-folded hash of a header name (ASCII letters folded to lower case), 10 bits. */
function foldedHash(hash: number, code: number): number {
  return (hash * 31 + (code | 0x20)) & 0x3ff;
}

/** KNOWN_NAMES by hash; a name whose slot is taken is simply not known (it still parses). */
const knownByHash: (string | undefined)[] = new Array<string | undefined>(0x400).fill(undefined);
for (const name of KNOWN_NAMES) {
  let hash = 0;
  for (let index = 0; index < name.length; index += 1) hash = foldedHash(hash, name.charCodeAt(index));
  knownByHash[hash] ??= name;
}

/** The lower-case name of head[start, end): a known name's constant, else a new string. */
function nameAt(head: string, start: number, end: number, hash: number): string {
  const known = knownByHash[hash];
  if (known !== undefined && known.length === end - start) {
    let index = 0;
    while (index < known.length && (head.charCodeAt(start + index) | 0x20) === known.charCodeAt(index)) {
      index += 1;
    }
    if (index === known.length) return known;
  }
  return head.slice(start, end).toLowerCase();
}

const DIGITS = /^\d{1,15}$/;

/** Headers that change how the message is framed or what the connection becomes. */
const NOT_PLAIN = ['transfer-encoding', 'upgrade', 'expect'];

/**
 * `head` is the bytes before the blank line, read as latin1 (one character per byte, so a
 * non-ASCII byte is refused rather than decoded).
 */
export function parsePlainHead(head: string, maxBodyBytes: number): PlainHead | null {
  const firstEnd = head.indexOf('\r\n');
  const requestLine = REQUEST_LINE.exec(firstEnd < 0 ? head : head.slice(0, firstEnd));
  if (!requestLine || NOT_PRINTABLE.test(head)) return null;
  // A plain object: a name that is an Object.prototype property (constructor, __proto__…)
  // reads as already present below, so such a request goes to node:http.
  const headers: Record<string, string> = {};
  let at = firstEnd < 0 ? head.length : firstEnd + 2;
  while (at < head.length) {
    const next = head.indexOf('\r\n', at);
    const lineEnd = next < 0 ? head.length : next;
    // A CR or LF inside the line (not the pair that ends it) is not plain.
    const cr = head.indexOf('\r', at);
    const lf = head.indexOf('\n', at);
    if ((cr >= 0 && cr < lineEnd) || (lf >= 0 && lf < lineEnd)) return null;
    let colon = at;
    let hash = 0;
    for (; colon < lineEnd; colon += 1) {
      const code = head.charCodeAt(colon);
      if (code === COLON) break;
      if (code > TILDE || TOKEN[code] !== 1) return null;
      hash = foldedHash(hash, code);
    }
    if (colon === at || colon === lineEnd) return null;
    let start = colon + 1;
    let end = lineEnd;
    while (start < end && isBlank(head.charCodeAt(start))) start += 1;
    while (end > start && isBlank(head.charCodeAt(end - 1))) end -= 1;
    const name = nameAt(head, at, colon, hash);
    if (headers[name] !== undefined) return null;
    headers[name] = head.slice(start, end);
    at = lineEnd + 2;
  }
  if (headers.host === undefined) return null;
  for (const name of NOT_PLAIN) if (headers[name] !== undefined) return null;
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return null;
  const length = headers['content-length'];
  let contentLength = 0;
  if (length !== undefined) {
    if (!DIGITS.test(length)) return null;
    contentLength = Number(length);
    if (contentLength > maxBodyBytes) return null;
  }
  return { method: requestLine[1] ?? '', url: requestLine[2] ?? '', headers, contentLength };
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}
