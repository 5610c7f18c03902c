/**
 * What a command handler works with: the state, the command's time, the id counter and the
 * event sink. Handlers validate first and mutate after, so a failed command changes nothing.
 */
import type { EngineEvent } from '../domain/events.ts';
import { idText } from './id-text.ts';
import type { EngineState } from './state.ts';

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

/**
 * A context whose events go to `events`, or nowhere when `events` is null (replay). One per
 * command: a class rather than a literal with closures, so making it allocates one object.
 */
class CommandContext implements Context {
  readonly recording: boolean;

  constructor(
    readonly state: EngineState,
    readonly nowMs: number,
    private readonly events: EngineEvent[] | null,
  ) {
    this.recording = events !== null;
  }

  nextId(): string {
    const n = this.state.nextId;
    this.state.nextId += 1;
    return idText(n);
  }

  emit(event: EngineEvent): void {
    this.events?.push(event);
  }
}

export function createContext(state: EngineState, nowMs: number, events: EngineEvent[] | null): Context {
  return new CommandContext(state, nowMs, events);
}
