/**
 * What a command handler works with: the state, the command's time, the id counter and the
 * event sink. Handlers validate first and mutate after, so a failed command changes nothing.
 */
import type { EngineEvent } from '../domain/events.ts';
import { ID_BASE, type EngineState } from './state.ts';

/** Below this the id is printed by padding; it is far beyond any counter (9·10^15). */
const ID_SMALL_LIMIT = Number.MAX_SAFE_INTEGER;

/** `1` and the zeros before an n of each length: ids are 18 digits, 10^17 + n. */
const ID_PREFIXES = Array.from({ length: 18 }, (_, length) => `1${'0'.repeat(17 - length)}`);

export interface Context {
  readonly state: EngineState;
  readonly nowMs: number;
  /**
   * False when nobody keeps the events (replay during recovery: their rows were written with
   * the journal). Handlers may then skip building report views, but must change the state and
   * draw ids exactly as when recording, so replay reaches the same state.
   */
  readonly recording: boolean;
  nextId(): string;
  emit(event: EngineEvent): void;
}

/** A context whose events go to `events`, or nowhere when `events` is null (replay). */
export function createContext(state: EngineState, nowMs: number, events: EngineEvent[] | null): Context {
  return {
    state,
    nowMs,
    recording: events !== null,
    nextId() {
      // Same text as (ID_BASE + n).toString() while n < 9·10^17, without bigint arithmetic.
      const n = state.nextId;
      state.nextId += 1;
      if (n >= ID_SMALL_LIMIT) return (ID_BASE + BigInt(n)).toString();
      const digits = String(n);
      return (ID_PREFIXES[digits.length] ?? '') + digits;
    },
    emit(event) {
      events?.push(event);
    },
  };
}
