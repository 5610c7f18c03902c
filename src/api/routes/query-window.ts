/**
 * History query parameters: time windows (the venue's "within 90 days, at most 30 days per
 * query"), page limits and id cursors. Windows read the engine clock, so they follow
 * simulated time.
 */
import { optionalInteger, type Fields } from '../params.ts';
import { reject } from '../request.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface Window {
  startTimeMs: number;
  endTimeMs: number;
}

/**
 * Slack on the window's bounds: a client reads its clock once per bound (ccxt sends
 * startTime = now − 30 days, then endTime = now a moment later), so an exact span or age can
 * come out a few milliseconds over.
 */
const CLIENT_CLOCK_SLACK_MS = 60_000;

export function timeWindow(query: Fields, nowMs: number, maxAgeMs: number, maxSpanMs: number): Window {
  const start = optionalInteger(query, 'startTime');
  const end = optionalInteger(query, 'endTime');
  const oldest = nowMs - maxAgeMs;
  if (start !== undefined && end !== undefined && end < start)
    reject('TIME_RANGE_INVALID', 'endTime < startTime');
  if (start !== undefined && end !== undefined && end - start > maxSpanMs + CLIENT_CLOCK_SLACK_MS) {
    reject('TIME_RANGE_INVALID', `the time span exceeds ${Math.round(maxSpanMs / DAY_MS)} days`);
  }
  const endTimeMs = end ?? (start !== undefined ? Math.min(start + maxSpanMs, nowMs) : nowMs);
  const startTimeMs = start ?? Math.max(oldest, endTimeMs - maxSpanMs);
  if (startTimeMs < oldest - CLIENT_CLOCK_SLACK_MS) {
    reject('TIME_RANGE_INVALID', `startTime is older than ${Math.round(maxAgeMs / DAY_MS)} days`);
  }
  return { startTimeMs, endTimeMs };
}

export function pageLimit(query: Fields, fallback: number, maximum: number, clampOver = true): number {
  const limit = optionalInteger(query, 'limit');
  if (limit === undefined) return fallback;
  if (limit < 1) reject('PARAM_ERROR', 'limit');
  if (limit > maximum && !clampOver) reject('PARAM_ERROR', 'limit');
  return Math.min(limit, maximum);
}

/** An id cursor: digits only (ids are 18-digit strings), or absent. */
export function idCursor(query: Fields, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,24}$/.test(value)) reject('PARAM_ERROR', name);
  return value;
}
