/**
 * A clean stop (SIGTERM, SIGINT, or `close()` in tests), in this order:
 *
 * 1. the gate refuses new requests (503 SERVER_NOT_READY, nothing run) and the port stops
 *    accepting connections; idle connections close;
 * 2. the market stops submitting (price feeds, liquidity provider);
 * 3. requests already in flight are answered: their commands run and become durable as
 *    usual. A request still unanswered after `graceMs` (a client that never reads) has its
 *    connection closed;
 * 4. WebSocket clients are closed, then every connection;
 * 5. the journal is flushed (everything submitted is durable), a snapshot is written, and
 *    the store and the locks on the data directory and the database are released.
 *
 * Nothing acknowledged is ever lost by a stop: acknowledgement follows durability (the
 * sequencer), and step 5 waits for every append in flight.
 */
import type { Server } from 'node:http';
import type { FastPath } from '../api/http1/fast-path.ts';
import type { WsGateway } from '../api/ws/gateway.ts';
import type { Market } from '../market/index.ts';
import type { DataDirLock } from '../runtime/data-dir-lock.ts';
import type { HttpGate } from '../runtime/http-gate.ts';
import type { Sequencer } from '../runtime/sequencer.ts';
import type { DatabaseLock } from '../persistence/postgres/database-lock.ts';
import type { Store } from '../ports/store.ts';

/** How long requests in flight get to be answered before their connections are closed. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface StopParts {
  server: Server;
  gate: HttpGate;
  fastPath: FastPath | null;
  /** The market, or what stops it (the operator's reset restarts it: src/admin/reset.ts). */
  market: Pick<Market, 'stop'>;
  websocket: WsGateway;
  sequencer: Sequencer;
  store: Store;
  databaseLock: DatabaseLock | null;
  dataDirLock: DataDirLock;
}

export interface ShutdownReport {
  /** Requests in flight when the stop began. */
  inFlight: number;
  /** False when some were still unanswered after the grace period (their connections were closed). */
  allAnswered: boolean;
  /** Requests refused while stopping. */
  refused: number;
  /** The journal's last sequence number, durable. */
  seq: number;
}

function answeredWithin(gate: HttpGate, graceMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  return Promise.race([gate.idle().then(() => true), expired]).finally(() => clearTimeout(timer));
}

export async function shutdown(parts: StopParts, graceMs = SHUTDOWN_GRACE_MS): Promise<ShutdownReport> {
  const { server, gate, sequencer } = parts;
  gate.stop();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await parts.market.stop();
  const allAnswered = await answeredWithin(gate, graceMs);
  await parts.websocket.close();
  server.closeAllConnections();
  parts.fastPath?.closeAllConnections();
  await closed;
  await sequencer.drain();
  await sequencer.snapshot();
  sequencer.stop();
  const seq = sequencer.lastSeq;
  await parts.store.close();
  await parts.databaseLock?.release();
  parts.dataDirLock.release();
  return { inFlight: gate.inFlightAtStop, allAnswered, refused: gate.refusedWhileStopping, seq };
}
