/**
 * ACCESS-SIGN as the venue computes it:
 *   base64(HMAC-SHA256(secret, timestamp + METHOD + path + ('?' + query) + rawBody)).
 *
 * Clients disagree on the query they sign: bitget-api signs the percent-encoded, key-sorted
 * string it sends; ccxt sends that and signs the raw (decoded) values, keys sorted. So the
 * query as sent, key-sorted, and percent-decoded (both orders) are accepted, and `+` for a
 * `%20`. Invariant: a form other than the query as sent is accepted only when it reads as
 * exactly the parameters the server reads from the sent query (names and values, the last
 * value of a repeated name winning, as the edge parses it). A decoded form is read the way
 * its signer wrote it: split at `&`, then at the first `=`, no decoding. So a signature over
 * `coin=USDT&limit=2` never validates `coin%3DUSDT%26limit%3D2` (one parameter named
 * `coin=USDT&limit=2`); the limit: ccxt's signature over a value holding `&`, or a name
 * holding `=`, is ambiguous and refused (40009), as is any form that reads differently.
 */
import { createHmac } from 'node:crypto';
import { sameText, type HmacKey } from './hmac-key.ts';

export function sign(secret: string, prehash: string): string {
  return createHmac('sha256', secret).update(prehash).digest('base64');
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function sortedPairs(pairs: string[]): string[] {
  return [...pairs].sort((a, b) => {
    const keyA = a.split('=')[0] ?? '';
    const keyB = b.split('=')[0] ?? '';
    return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
  });
}

/** The parameters the edge reads from a sent (percent-encoded) query: last value wins. */
function sentParameters(query: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(query)) parameters.set(name, value);
  return parameters;
}

/** The parameters a decoded (raw) query string names: split at `&`, then the first `=`. */
function rawParameters(query: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const index = pair.indexOf('=');
    if (index < 0) parameters.set(pair, '');
    else parameters.set(pair.slice(0, index), pair.slice(index + 1));
  }
  return parameters;
}

function sameParameters(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) if (b.get(name) !== value) return false;
  return true;
}

/** The query strings a legitimate client may have signed, the query as sent first, deduplicated. */
export function queryCandidates(rawQuery: string): string[] {
  if (rawQuery === '') return [''];
  const pairs = rawQuery.split('&');
  const decoded = pairs.map((pair) => {
    const index = pair.indexOf('=');
    return index < 0
      ? decodeComponent(pair)
      : `${decodeComponent(pair.slice(0, index))}=${decodeComponent(pair.slice(index + 1))}`;
  });
  const forms: [query: string, read: (query: string) => Map<string, string>][] = [
    [decoded.join('&'), rawParameters],
    [sortedPairs(pairs).join('&'), sentParameters],
    [sortedPairs(decoded).join('&'), rawParameters],
    [pairs.map((pair) => pair.replace(/%20/g, '+')).join('&'), sentParameters],
  ];
  const candidates = [rawQuery];
  let read: Map<string, string> | null = null;
  for (const [query, readAs] of forms) {
    if (candidates.includes(query)) continue;
    read ??= sentParameters(rawQuery);
    if (sameParameters(readAs(query), read)) candidates.push(query);
  }
  return candidates;
}

/** Whether `given` is the signature of the request under `key` (the key's secret), for any query form a client may have signed. */
export function verifySignature(
  key: HmacKey,
  given: string,
  timestamp: string,
  method: string,
  path: string,
  rawQuery: string,
  rawBody: string,
): boolean {
  const head = `${timestamp}${method.toUpperCase()}${path}`;
  // Most requests have no query: one candidate, and no list of them to make.
  if (rawQuery === '') return sameText(key.base64(head + rawBody), given);
  for (const query of queryCandidates(rawQuery)) {
    if (sameText(key.base64(`${head}${query ? `?${query}` : ''}${rawBody}`), given)) return true;
  }
  return false;
}
