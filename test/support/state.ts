/**
 * State hashes for "changed nothing" assertions. `businessHash` leaves out the engine clock:
 * a command the engine rejects is still journaled and still moves `nowMs` (and the jobs that
 * run on it), by design of src/runtime/sequencer.ts, but it changes no business state.
 */
import { stateHash } from '../../src/engine/state-hash.ts';
import type { EngineState } from '../../src/engine/state.ts';

export function businessHash(state: EngineState): string {
  return stateHash({ ...state, nowMs: 0 });
}
