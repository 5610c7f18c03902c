/**
 * Calendar days in the two time zones the broker reports use: UTC (sub-account deposit and
 * withdrawal records) and UTC+8 (agent KYC and commission reports, as the venue states).
 * A day runs from its 00:00:00.000 to 23:59:59.999; all values are Unix milliseconds.
 */
export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;
export const UTC8_OFFSET_MS = 8 * HOUR_MS;

/** 00:00 of the day that contains `timeMs`, in a zone `offsetMs` east of UTC. */
export function dayStartOf(timeMs: number, offsetMs = 0): number {
  return Math.floor((timeMs + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
}

export function utc8DayStartOf(timeMs: number): number {
  return dayStartOf(timeMs, UTC8_OFFSET_MS);
}

/** Yesterday, 00:00:00.000 to 23:59:59.999, in the zone `offsetMs` east of UTC. */
export function yesterdayOf(nowMs: number, offsetMs = 0): { startTimeMs: number; endTimeMs: number } {
  const today = dayStartOf(nowMs, offsetMs);
  return { startTimeMs: today - DAY_MS, endTimeMs: today - 1 };
}
