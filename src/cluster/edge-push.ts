/**
 * An edge's WebSocket push: the venue's WebSocket endpoints (src/api/ws, unchanged) served
 * from a follower of the journal in the edge's own memory (journal-follower.ts), not relayed
 * to the leader. The follower runs each committed entry in sequence order, and its events go
 * to the endpoints as a single process's own would (Sequencer.followed). With BOURSE_NATS_URL
 * the entries come from the JetStream entry stream as the leader publishes them
 * (entry-feed.ts), checked against the journal held and completed from PostgreSQL where they
 * do not fit (stream-follow.ts); without it, or while NATS is out of reach, the journal table
 * is read every BOURSE_FOLLOW_EVERY_MS. So
 * every edge pushes every event of a channel once, in journal order, and a leader failover
 * does not even close the connections: the journal goes on from the last committed entry.
 *
 * The edge never writes: its store handle carries fencing epoch 0, which no lease has, so
 * an append would be refused. Login (private channels) checks keys against the followed
 * state, sealed under BOURSE_SERVER_KEY, which every engine and edge shares.
 */
import type { IncomingMessage, Server } from 'node:http';
import { clientIp } from '../api/app.ts';
import type { Services } from '../api/services.ts';
import { CLOSE_RESET } from '../api/ws/connection.ts';
import { attachWebSocket } from '../api/ws/gateway.ts';
import type { Config } from '../config.ts';
import type { EngineState } from '../engine/state.ts';
import { openPostgresStore } from '../persistence/postgres/postgres-store.ts';
import { realClock, simulatedClock } from '../runtime/clocks.ts';
import { Sequencer } from '../runtime/sequencer.ts';
import { SecretBox } from '../security/secrets.ts';
import type { ClusterConfig } from './cluster-config.ts';
import { FollowLoop } from './follow-loop.ts';
import { JournalFollower } from './journal-follower.ts';
import { StreamFollow } from './stream-follow.ts';
import { StreamSource } from './stream-source.ts';

export interface EdgePush {
  /** The journal sequence number pushed so far. */
  readonly seq: number;
  /** The follower's state and store, as route handlers use them (edge-reads.ts answers reads on them). */
  readonly services: Services;
  /** The follower's rounds, which reads wait on (read-your-writes). */
  readonly rounds: FollowLoop;
  /** The followed engine's state at `seq`. */
  readonly state: EngineState;
  /** Records applied from the stream, copies dropped, reads of the store (stream-follow.ts). */
  readonly counts: StreamFollow['counts'];
  close(): Promise<void>;
}

export async function startEdgePush(
  server: Server,
  config: Config,
  cluster: ClusterConfig,
  onError: (error: unknown) => void,
): Promise<EdgePush> {
  const { databaseUrl, serverKeyHex } = config;
  if (!databaseUrl || !serverKeyHex)
    throw new Error('an edge needs BOURSE_DATABASE_URL and BOURSE_SERVER_KEY');
  const store = await openPostgresStore(databaseUrl, {
    fence: () => ({ name: cluster.name, epoch: 0 }),
    onError,
  });
  const follower = await JournalFollower.start(store);
  const sequencer = new Sequencer(follower.recovered.exchange, follower.seq, store, { snapshotEvery: 0 });
  const startMs = config.clockStartMs ?? Date.now();
  const services: Services = {
    sequencer,
    store,
    clock:
      config.clock === 'simulated'
        ? simulatedClock(() => sequencer.exchange.state.nowMs, startMs)
        : realClock(),
    box: new SecretBox(Buffer.from(serverKeyHex, 'hex')),
    wallNow: () => Date.now(),
    newAccountPositionMode: config.positionMode,
    // The edge answers convert reads but the quotes themselves (edge-reads.ts): the same settings.
    convert: config.convert,
  };
  const gateway = attachWebSocket(server, {
    services,
    config: config.websocket,
    enforceAccountMode: config.enforceAccountMode,
    clientIp: (request: IncomingMessage) =>
      clientIp(request.headers, request.socket.remoteAddress, config.trustProxy),
    onError,
  });
  let pushedSeq = follower.seq;
  let wakeReads = (): void => undefined; // the rounds' waiters, once they exist (below)
  let restarts = follower.restarts;
  // After each step of the follower: push what it applied, or start clients over on a new journal.
  const advanced = (): void => {
    if (follower.restarts !== restarts) {
      // The journal was replaced (the operator's reset): clients start again on the new one.
      restarts = follower.restarts;
      gateway.disconnectAll(CLOSE_RESET, 'the venue was reset');
      sequencer.followed(follower.recovered.exchange, follower.seq, []);
      gateway.hub.reseed();
    } else {
      sequencer.followed(follower.recovered.exchange, follower.seq, follower.entriesAfter(pushedSeq));
    }
    pushedSeq = follower.seq;
    wakeReads();
  };
  const follow = new StreamFollow(follower, advanced, onError);
  const source = cluster.natsUrl
    ? new StreamSource(cluster.natsUrl, cluster.name, () => follower.seq, follow, onError)
    : null;
  // A round reads the journal table. Without the stream (or while it is out of reach) one runs
  // every interval; with it, only after a quiet second (an idle venue, or a stream that lost
  // its publisher), or at once when a read waits for one (read-your-writes, edge-reads.ts).
  const rounds = new FollowLoop(
    async (wanted) => {
      if (!wanted && !(source?.readDue() ?? true)) return false;
      try {
        await follow.readStore();
        return true;
      } catch {
        return false; // reported by follow
      }
    },
    cluster.followEveryMs,
    () => follower.seq,
  );
  wakeReads = () => rounds.advanced();
  rounds.start();
  return {
    get seq() {
      return follower.seq;
    },
    get state() {
      return follower.recovered.exchange.state;
    },
    counts: follow.counts,
    services,
    rounds,
    async close() {
      rounds.stop();
      await source?.close();
      await follow.stop();
      await gateway.close();
      await store.close();
    },
  };
}
