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

/**
 * The request line and the header lines (the head without its closing blank line): RFC 9110
 * tokens for names, tab and printable ASCII for values, origin-form targets of printable ASCII.
 */
const PLAIN_HEAD =
  /^(GET|POST|PUT|PATCH|DELETE) (\/[!-~]*) HTTP\/1\.1((?:\r\n[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t -~]*)*)$/;

const DIGITS = /^\d{1,15}$/;

/** Headers that change how the message is framed or what the connection becomes. */
const NOT_PLAIN = ['transfer-encoding', 'upgrade', 'expect'];

/**
 * `head` is the bytes before the blank line, read as latin1 (one character per byte, so a
 * non-ASCII byte fails the pattern rather than being decoded).
 */
export function parsePlainHead(head: string, maxBodyBytes: number): PlainHead | null {
  const matched = PLAIN_HEAD.exec(head);
  if (!matched) return null;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  const lines = (matched[3] ?? '').split('\r\n');
  // lines[0] is the empty text before the first header line's CRLF.
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (headers[name] !== undefined) return null;
    headers[name] = line.slice(colon + 1).trim();
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
  return { method: matched[1] ?? '', url: matched[2] ?? '', headers, contentLength };
}
