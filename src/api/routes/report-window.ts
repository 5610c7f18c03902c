/**
 * Time windows of the broker and agent reports: startTime and endTime are given together or
 * not at all; without them the window is yesterday, 00:00:00.000 to 23:59:59.999, in the
 * report's time zone (UTC for the sub-account deposit/withdrawal records, UTC+8 for the agent
 * reports); a span over the report's maximum, or a start older than its history, is refused.
 */
import { DAY_MS, yesterdayOf } from '../../engine/agents/days.ts';
import { optionalInteger, type Fields } from '../params.ts';
import { reject } from '../request.ts';
import type { Window } from './query-window.ts';

export interface ReportWindowRules {
  /** The zone of "yesterday", ms east of UTC. */
  offsetMs: number;
  maxSpanMs: number;
  /** How far back data can be asked for (none: no limit). */
  maxAgeMs?: number;
}

export function reportWindow(query: Fields, nowMs: number, rules: ReportWindowRules): Window {
  const start = optionalInteger(query, 'startTime');
  const end = optionalInteger(query, 'endTime');
  if (start === undefined && end === undefined) return yesterdayOf(nowMs, rules.offsetMs);
  if (start === undefined) reject('PARAM_EMPTY', 'startTime');
  if (end === undefined) reject('PARAM_EMPTY', 'endTime');
  if (end < start) reject('TIME_RANGE_INVALID', 'endTime < startTime');
  if (end - start > rules.maxSpanMs) {
    reject('TIME_RANGE_INVALID', `the time span exceeds ${Math.round(rules.maxSpanMs / DAY_MS)} days`);
  }
  if (rules.maxAgeMs !== undefined && start < nowMs - rules.maxAgeMs) {
    reject('TIME_RANGE_INVALID', `startTime is older than ${Math.round(rules.maxAgeMs / DAY_MS)} days`);
  }
  return { startTimeMs: start, endTimeMs: end };
}
