/**
 * Recovery: the latest snapshot, then every journal entry after it, replayed through a fresh
 * engine. Events from replay are discarded: their projections were written with the entries.
 */
import { Exchange } from '../engine/exchange.ts';
import type { EngineState } from '../engine/state.ts';
import { decode } from '../persistence/codec.ts';
import type { Store } from '../ports/store.ts';

export interface Recovered {
  exchange: Exchange;
  seq: number;
  replayed: number;
  snapshotSeq: number;
}

export async function recover(store: Store): Promise<Recovered> {
  const snapshot = await store.latestSnapshot();
  const exchange = new Exchange(snapshot ? decode<EngineState>(snapshot.body) : undefined);
  let seq = snapshot?.seq ?? 0;
  let replayed = 0;
  for await (const entry of store.journalAfter(seq)) {
    if (entry.seq !== seq + 1) throw new Error(`journal gap: expected ${seq + 1}, found ${entry.seq}`);
    exchange.execute(entry.command);
    seq = entry.seq;
    replayed += 1;
  }
  return { exchange, seq, replayed, snapshotSeq: snapshot?.seq ?? 0 };
}
