/**
 * ACCESS-SIGN as the venue computes it (wire.md §1.2–1.3):
 *   base64(HMAC-SHA256(secret, timestamp + METHOD + path + ('?' + query) + rawBody)).
 *
 * Clients disagree on the query they sign: bitget-api signs the percent-encoded, key-sorted
 * string it sends; ccxt signs the raw (decoded) values. The venue canonicalises before
 * verifying, so we accept the query as sent, percent-decoded, and key-sorted (both forms).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

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

/** The query strings a legitimate client may have signed, most likely first, deduplicated. */
export function queryCandidates(rawQuery: string): string[] {
  if (rawQuery === '') return [''];
  const pairs = rawQuery.split('&');
  const decoded = pairs.map((pair) => {
    const index = pair.indexOf('=');
    return index < 0
      ? decodeComponent(pair)
      : `${decodeComponent(pair.slice(0, index))}=${decodeComponent(pair.slice(index + 1))}`;
  });
  const plusAsSpace = pairs.map((pair) => pair.replace(/%20/g, '+'));
  return [
    ...new Set([
      rawQuery,
      decoded.join('&'),
      sortedPairs(pairs).join('&'),
      sortedPairs(decoded).join('&'),
      plusAsSpace.join('&'),
    ]),
  ];
}

export function verifySignature(
  secret: string,
  given: string,
  timestamp: string,
  method: string,
  path: string,
  rawQuery: string,
  rawBody: string,
): boolean {
  const givenBytes = Buffer.from(given, 'utf8');
  for (const query of queryCandidates(rawQuery)) {
    const prehash = `${timestamp}${method.toUpperCase()}${path}${query ? `?${query}` : ''}${rawBody}`;
    const expected = Buffer.from(sign(secret, prehash), 'utf8');
    if (expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes)) return true;
  }
  return false;
}
