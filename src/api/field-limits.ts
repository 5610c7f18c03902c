/**
 * Length bounds of request fields, checked at the edge before any command is built.
 *
 * Why: every command is journaled, failed ones included (src/runtime/sequencer.ts), and
 * replayed at every recovery. Without a bound, a request with a 1 MB `symbol` cost a 1 MB
 * journal entry although the engine only refused it; at the rate limit that is tens of GB an
 * hour per account. With these bounds a journal entry holds at most a few hundred bytes of
 * request text, whatever the request.
 *
 * Bounds: the venue's where it states one (clientOid: "length cannot greater than 50", 40304);
 * otherwise MAX_FIELD_LENGTH, above every name the venue uses (symbols, coins, ids, enum values,
 * labels, IP addresses, API keys, passphrases). Numbers have their own, tighter bound
 * (MAX_DECIMAL_TEXT_LENGTH in src/domain/decimal.ts).
 */
import type { Failure } from '../domain/result-code.ts';

/** Characters in the longest text accepted in a field without a bound of its own. */
export const MAX_FIELD_LENGTH = 64;

/** The venue's bound on a client order id (any of its spellings). */
export const MAX_CLIENT_OID_LENGTH = 50;

/** Fields holding a client order id: over the bound they answer the venue's 40304. */
const CLIENT_OID_FIELDS: ReadonlySet<string> = new Set(['clientOid', 'newClientOid', 'clientOrderId']);

/** Chain addresses run longer than names (a Cardano address is 103 characters). */
const ADDRESS_FIELDS: ReadonlySet<string> = new Set(['address', 'fromAddress']);
export const MAX_ADDRESS_LENGTH = 128;

const SMALLEST_BOUND = Math.min(MAX_FIELD_LENGTH, MAX_CLIENT_OID_LENGTH, MAX_ADDRESS_LENGTH);

/** The failure for `value` in field `name` when it is too long; null when it fits. */
export function fieldTooLong(name: string, value: string): Failure | null {
  // Within the smallest bound, a text fits whatever its field: no name looked up (most texts).
  if (value.length <= SMALLEST_BOUND) return null;
  if (CLIENT_OID_FIELDS.has(name)) {
    return value.length > MAX_CLIENT_OID_LENGTH ? { code: 'CLIENT_OID_TOO_LONG', params: [name] } : null;
  }
  const bound = ADDRESS_FIELDS.has(name) ? MAX_ADDRESS_LENGTH : MAX_FIELD_LENGTH;
  return value.length > bound ? { code: 'PARAM_ERROR', params: [name] } : null;
}
