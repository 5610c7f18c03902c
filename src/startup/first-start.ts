/**
 * A first start's seeding (instruments with their index prices, then the demo account and its
 * key) as one durable step. The commands run on a staged journal out of sight, credentials.json
 * is written, and the whole journal is stored in one transaction (Sequencer.replace, as the
 * operator's reset does). A start killed part-way leaves either an empty store, which the next
 * start seeds again from the top, or the whole seed: never instruments without the demo
 * account (which the next start would take for a used store and leave without a demo key).
 * credentials.json goes first: if the commit then fails or the process dies, the file's demo
 * secret names a key that does not exist, and the next start, finding the store empty, makes
 * the demo key again and rewrites the file.
 */
import { seedDemoAccount, seedInstruments } from '../bootstrap.ts';
import type { Clock } from '../ports/clock.ts';
import type { PositionMode } from '../domain/position.ts';
import type { Sequencer } from '../runtime/sequencer.ts';
import { simulatedClock, realClock } from '../runtime/clocks.ts';
import { StagedJournal } from '../runtime/staged-journal.ts';
import type { SecretBox } from '../security/secrets.ts';
import type { DemoCredentials } from '../demo-credentials.ts';
import type { DemoKey } from './credentials.ts';

export interface FirstStartSeed {
  sequencer: Sequencer;
  /** The running clock; a simulated one is followed on the staged engine instead. */
  clock: Clock;
  /** Where a simulated clock starts (the staged engine's time before any command). */
  clockStartMs: number;
  box: SecretBox;
  demo: { positionMode: PositionMode; credentials?: DemoCredentials | undefined } | null;
}

/**
 * Seeds `staged`, lets `settle` write the credentials with the demo key it made, then stores
 * the staged journal in one transaction. Throws when the store refuses it.
 */
export async function seedFirstStartAtomically<T>(
  seed: FirstStartSeed,
  settle: (demo: DemoKey | null) => Promise<T>,
): Promise<T> {
  const staged = new StagedJournal();
  const clock = seed.clock.simulated
    ? simulatedClock(() => staged.exchange.state.nowMs, seed.clockStartMs)
    : realClock();
  await seedInstruments(staged, clock);
  const demo = seed.demo
    ? await seedDemoAccount(staged, clock, seed.box, seed.demo.positionMode, seed.demo.credentials)
    : null;
  const settled = await settle(demo);
  const outcome = await seed.sequencer.replace(staged.exchange, staged.entries);
  if (!outcome.ok) throw new Error(`first start: the seed was not stored (${outcome.code})`);
  return settled;
}
