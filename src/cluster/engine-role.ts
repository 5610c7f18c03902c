/**
 * An engine of a cluster (BOURSE_ROLE=engine): it stands by until it holds the lease
 * (lease.ts), following the journal meanwhile (journal-follower.ts; from the entry stream when
 * BOURSE_NATS_URL is set, checked against the journal and completed from it: stream-follow.ts),
 * then leads.
 *
 * Taking over: the lease is taken first (its epoch goes up), and only then is the journal
 * read to its end. Appends carry the lease's epoch and the store refuses an old one under a
 * row lock (batch-write.ts `Fence`), so once the lease is taken no entry of the old leader can
 * land: what is read then is the last committed entry, every acknowledged write included, and
 * nothing unacknowledged was ever applied (the follower replays only committed entries).
 *
 * Leading: the lease is renewed; when it is lost (taken over, expired, PostgreSQL out of
 * reach for a lease time) `onLost` is called, and the store already refuses this engine's
 * appends. Each committed entry is published to JetStream when configured (entry-stream.ts).
 */
import { hostname } from 'node:os';
import type { Fence } from '../persistence/postgres/batch-write.ts';
import type { PostgresStore } from '../persistence/postgres/postgres-store.ts';
import type { Recovered } from '../runtime/recovery.ts';
import type { Sequencer } from '../runtime/sequencer.ts';
import type { ClusterConfig } from './cluster-config.ts';
import { EntryStream } from './entry-stream.ts';
import { JournalFollower } from './journal-follower.ts';
import { Lease } from './lease.ts';
import { StreamFollow } from './stream-follow.ts';
import { StreamSource } from './stream-source.ts';

export type ClusterLog = (message: string, fields?: Record<string, unknown>) => void;

export interface Leading {
  name: string;
  epoch: number;
  /** From taking the lease to the journal read to its end (ms). */
  takeoverMs: number;
  /** Entries the follower had not yet applied when the lease was taken. */
  caughtUp: number;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class EngineRole {
  /** Epoch 0 is never a lease's (they start at 1): a standby's append would be refused. */
  private fenceValue: Fence;
  private stream: EntryStream | null = null;
  private leadingInfo: Leading | null = null;
  /** Why the lease was lost, when it was before `startLeading` heard of it. */
  private lostWhy: string | null = null;
  private onLost: ((why: string) => void) | null = null;

  private constructor(
    private readonly config: ClusterConfig,
    private readonly lease: Lease,
    private readonly log: ClusterLog,
  ) {
    this.fenceValue = { name: config.name, epoch: 0 };
  }

  static async open(config: ClusterConfig, databaseUrl: string, advertiseUrl: string, log: ClusterLog) {
    const lease = await Lease.open({
      url: databaseUrl,
      name: config.name,
      holder: `bourse pid ${process.pid} on ${hostname()}`,
      advertiseUrl: config.advertiseUrl ?? advertiseUrl,
      ttlMs: config.leaseMs,
    });
    return new EngineRole(config, lease, log);
  }

  /**
   * The fencing token every append carries: the lease's epoch once this engine leads, and
   * still that epoch after the lease is lost (so the store refuses its appends from then on).
   */
  readonly fence = (): Fence => this.fenceValue;

  get leading(): Leading | null {
    return this.leadingInfo;
  }

  /** Stands by, following the journal, until the lease is this engine's; then the state at the journal's end. */
  async lead(store: PostgresStore, signal?: AbortSignal): Promise<Recovered> {
    const follower = await JournalFollower.start(store);
    this.log('cluster engine standing by', { cluster: this.config.name, seq: follower.seq });
    const onStreamError = (error: unknown) =>
      this.log('cluster engine: entry stream error while standing by', { error: errorText(error) });
    // With the entry stream, the journal comes from it between reads of the store (stream-follow.ts).
    const follow = new StreamFollow(follower, () => undefined, onStreamError);
    const source = this.config.natsUrl
      ? new StreamSource(this.config.natsUrl, this.config.name, () => follower.seq, follow, onStreamError)
      : null;
    let epoch: number | null = null;
    try {
      while (epoch === null) {
        signal?.throwIfAborted();
        try {
          epoch = await this.lease.tryTake();
          if (epoch === null) {
            if (source?.readDue() ?? true) await follow.readStore();
            await sleep(this.config.followEveryMs, signal);
          }
        } catch (error) {
          this.log('cluster engine: PostgreSQL error while standing by', { error: errorText(error) });
          await sleep(Math.max(this.config.followEveryMs, 500), signal);
        }
      }
    } finally {
      // The stream stops before the journal is read to its end: the store alone from here.
      await source?.close();
      await follow.stop();
    }
    // Renewed from now on: the start (seeding, the market) must not outlast the lease.
    this.lease.keepRenewing((why) => {
      this.lostWhy = why;
      this.onLost?.(why);
    });
    const startedMs = performance.now();
    const caughtUp = await follower.catchUp();
    this.fenceValue = { name: this.config.name, epoch };
    this.leadingInfo = {
      name: this.config.name,
      epoch,
      takeoverMs: performance.now() - startedMs,
      caughtUp,
    };
    if (this.config.natsUrl) await this.openStream(follower);
    this.log('cluster engine leading', { ...this.leadingInfo, seq: follower.seq });
    return follower.recovered;
  }

  /** Connects to JetStream and publishes the tail the stream lacks (what the follower kept of it). */
  private async openStream(follower: JournalFollower): Promise<void> {
    const onError = (error: unknown) => this.log('cluster entry stream error', { error: errorText(error) });
    this.stream = await EntryStream.open(this.config.natsUrl as string, this.config.name, onError);
    const missing = follower.entriesAfter(await this.stream.lastSeq());
    const first = missing[0];
    // Each message names the checksum of the record before it: known from the follower.
    const before = first ? first.seq - 1 : follower.seq;
    const checksum = before === 0 ? 0 : follower.checksumAt(before);
    if (checksum !== undefined) this.stream.continueAfter(before, checksum);
    if (missing.length > 0) this.stream.publish(missing);
  }

  /**
   * Publishes each entry `sequencer` commits from now on (call before its first command), and
   * the new journal after the operator's reset.
   */
  publishFrom(sequencer: Sequencer): void {
    const stream = this.stream;
    if (!stream) return;
    sequencer.onDurable((entries) => stream.publish(entries));
    sequencer.onReplaced((entries) => stream.replaced(entries));
  }

  /** `onLost` once the lease is gone (at once if it already is). */
  whenLost(onLost: (why: string) => void): void {
    this.onLost = onLost;
    if (this.lostWhy !== null) onLost(this.lostWhy);
  }

  /** Ends the lease (a standby takes over at once) and the stream's connection. */
  async release(): Promise<void> {
    await this.stream?.close();
    await this.lease.release();
  }
}
