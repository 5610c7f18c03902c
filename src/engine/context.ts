/**
 * What a command handler works with: the state, the command's time, the id counter and the
 * event sink. Handlers validate first and mutate after, so a failed command changes nothing.
 */
import type { EngineEvent } from '../domain/events.ts';
import { ID_BASE, type EngineState } from './state.ts';

export interface Context {
  readonly state: EngineState;
  readonly nowMs: number;
  nextId(): string;
  emit(event: EngineEvent): void;
}

export function createContext(state: EngineState, nowMs: number, events: EngineEvent[]): Context {
  return {
    state,
    nowMs,
    nextId() {
      const id = ID_BASE + BigInt(state.nextId);
      state.nextId += 1;
      return id.toString();
    },
    emit(event) {
      events.push(event);
    },
  };
}
