/**
 * Read-your-writes at an edge: the journal sequence each API key's newest answer from the
 * leader was given at. A cluster engine sends it on every answer in the header
 * `bourse-journal-seq` (src/server.ts); the edge keeps it here and strips the header, so
 * clients never see it. Before it answers a read for a key from its own follower, the edge
 * waits until the follower has reached that sequence (edge-reads.ts).
 *
 * Bounded: the least recently written keys are forgotten past `capacity` (a Map keeps
 * insertion order, and a write moves its key to the end). A key forgotten, or one that never
 * wrote through this edge, is read after a fresh catch-up instead (edge-reads.ts), which
 * covers writes made through any edge.
 */
import type { Sequencer } from '../runtime/sequencer.ts';

/** The answer header that carries the journal sequence, engine to edge only. */
export const JOURNAL_SEQ_HEADER = 'bourse-journal-seq';

/**
 * The header a cluster engine adds to its answers: the last durable journal sequence, which an
 * acknowledged write's entry is at or before (durable listeners hear of a batch before its
 * answers go). Never one not yet durable (a command rolled back gives its number up), and
 * never past the sequencer's own (the operator's reset starts the journal over).
 */
export function durableSeqHeader(sequencer: Sequencer): () => readonly [string, string] {
  let durable = sequencer.lastSeq;
  sequencer.onDurable((entries) => {
    const last = entries.at(-1);
    if (last) durable = last.seq;
  });
  return () => [JOURNAL_SEQ_HEADER, String(Math.min(durable, sequencer.lastSeq))];
}

/** Keys remembered by default: about 100 bytes each, so some 10 MB at most. */
export const DEFAULT_KEYS_REMEMBERED = 100_000;

export class KeySequences {
  private readonly seqs = new Map<string, number>();

  constructor(private readonly capacity = DEFAULT_KEYS_REMEMBERED) {}

  /** Records that `apiKey` was answered at `seq` (kept if newer than what was known). */
  record(apiKey: string, seq: number): void {
    const known = this.seqs.get(apiKey);
    this.seqs.delete(apiKey);
    this.seqs.set(apiKey, Math.max(seq, known ?? 0));
    if (this.seqs.size > this.capacity) {
      const oldest = this.seqs.keys().next();
      if (!oldest.done) this.seqs.delete(oldest.value);
    }
  }

  /** The newest sequence `apiKey` was answered at through this edge; undefined when not known. */
  seqOf(apiKey: string): number | undefined {
    return this.seqs.get(apiKey);
  }

  /** Forgets every key (the journal was replaced: its sequences start over). */
  clear(): void {
    this.seqs.clear();
  }

  get size(): number {
    return this.seqs.size;
  }
}
