/**
 * The engine: one command in, one outcome and its events out. Pure and synchronous; the same
 * command stream always yields the same state, events and ids (replay and the state hash
 * stand on it).
 *
 * Time: a command's `timeMs` is when the edge accepted it. The engine's clock never runs
 * backwards (`nowMs` is the maximum seen), and AdvanceClock moves it forward by the given
 * amount for simulated time.
 */
import type { Command } from '../domain/commands.ts';
import type { EngineEvent } from '../domain/events.ts';
import { ok, type Outcome } from '../domain/result-code.ts';
import { createAccount, createApiKey, modifyApiKey } from './accounts/accounts.ts';
import { deposit, withdraw } from './accounts/external-flows.ts';
import { createContext, type Context } from './context.ts';
import { addInstrument, patchInstrument, setIndexPrice } from './instruments/instruments.ts';
import { createState, type EngineState } from './state.ts';

export interface ExecuteResult {
  outcome: Outcome<unknown>;
  events: EngineEvent[];
}

function dispatch(context: Context, command: Command): Outcome<unknown> {
  switch (command.type) {
    case 'CreateAccount':
      return createAccount(context, command);
    case 'CreateApiKey':
      return createApiKey(context, command);
    case 'ModifyApiKey':
      return modifyApiKey(context, command);
    case 'Deposit':
      return deposit(context, command);
    case 'Withdraw':
      return withdraw(context, command);
    case 'AddInstrument':
      return addInstrument(context, command);
    case 'PatchInstrument':
      return patchInstrument(context, command);
    case 'SetIndexPrice':
      return setIndexPrice(context, command);
    case 'AdvanceClock':
      return ok({ nowMs: context.nowMs });
  }
}

export class Exchange {
  constructor(public readonly state: EngineState = createState()) {}

  execute(command: Command): ExecuteResult {
    const state = this.state;
    const advancedMs = command.type === 'AdvanceClock' ? Math.max(0, command.ms) : 0;
    state.nowMs = Math.max(state.nowMs, command.timeMs) + advancedMs;
    const events: EngineEvent[] = [];
    const context = createContext(state, state.nowMs, events);
    const outcome = dispatch(context, command);
    return { outcome, events: outcome.ok ? events : [] };
  }
}
