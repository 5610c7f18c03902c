/**
 * Recovery: the latest snapshot, then every journal entry after it, replayed through a fresh
 * engine (`Exchange.replay`: no report views are built, their rows were written with the entries).
 *
 * The store checks each record it yields (persistence/journal-record.ts) and throws on a
 * corrupted or torn one, so a damaged tail stops recovery instead of being replayed. The
 * snapshot's own record is read and checked too (not replayed): after a clean shutdown it is
 * the last record, and a damaged last record must be reported whether or not a snapshot
 * covers it. The journal must be gapless.
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

/** What recovery reads: a store, or a backup's files (persistence/backup/backup-recovery.ts). */
export type RecoverySource = Pick<Store, 'latestSnapshot' | 'journalAfter'>;

export async function recover(store: RecoverySource): Promise<Recovered> {
  const snapshot = await store.latestSnapshot();
  const exchange = new Exchange(snapshot ? decode<EngineState>(snapshot.body) : undefined);
  const snapshotSeq = snapshot?.seq ?? 0;
  let seq = snapshotSeq;
  let replayed = 0;
  let snapshotRecordSeen = snapshotSeq === 0;
  reading: for await (const page of store.journalAfter(Math.max(0, snapshotSeq - 1))) {
    for (const entry of page) {
      if (entry.seq === snapshotSeq) {
        snapshotRecordSeen = true;
        continue;
      }
      if (!snapshotRecordSeen) break reading;
      if (entry.seq !== seq + 1) throw new Error(`journal gap: expected ${seq + 1}, found ${entry.seq}`);
      exchange.replay(entry.command);
      seq = entry.seq;
      replayed += 1;
    }
  }
  if (!snapshotRecordSeen) {
    throw new Error(`journal record ${snapshotSeq}, which the latest snapshot was taken at, is missing`);
  }
  return { exchange, seq, replayed, snapshotSeq };
}
