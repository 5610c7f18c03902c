/**
 * An edge (BOURSE_ROLE=edge): a stateless HTTP and WebSocket front that sends requests on
 * to the engine that currently leads, found in the lease row (lease.ts) and looked up again
 * every `followEveryMs` and after a failed forward. Any number of edges may run, on any
 * machine; a client may use any of them and move between them.
 *
 * Forwarding is plain HTTP on kept-alive connections (docs/cluster.md says why not NATS
 * request/reply). `npm start` as an edge authenticates and rate-limits venue requests and
 * answers reads itself (edge-reads.ts), sending writes on with `send`; the rest (the operator
 * API, health, the console) is forwarded as it is. Either way the edge adds the client's
 * address to X-Forwarded-For (run engines with BOURSE_TRUST_PROXY=true behind edges).
 *
 * During a failover: with no live leader the edge answers 40015 (HTTP 503, "try again
 * later": nothing was run); a request whose connection to the leader was refused before it
 * was sent is tried once more on the leader looked up again; one cut after it was sent is
 * answered 40725 (HTTP 503: the outcome is unknown, query by clientOid), as the engine
 * itself answers when a commit's outcome is unknown.
 *
 * WebSocket: `npm start` as an edge serves the venue's endpoints from its own follower of the
 * journal (edge-push.ts), so pushes go on through a failover. Without `attachPush` (tests of
 * the forwarding alone) upgrades are relayed to the leader byte for byte.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect as connectTcp } from 'node:net';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { failure } from '../api/envelope.ts';
import { listen } from '../startup/listen.ts';
import type { ClusterConfig } from './cluster-config.ts';
import type { SendToLeader } from './edge-reads.ts';
import { forwardedForEdge, NOT_SENT, relayToLeader } from './edge-relay.ts';
import { leaseHolder } from './lease.ts';

export interface EdgeSettings {
  host: string;
  port: number;
  databaseUrl: string;
  cluster: ClusterConfig;
  /**
   * Serves WebSocket upgrades on the server itself (edge-push.ts), and with `handle` the venue
   * routes (edge-reads.ts), given the edge's pool and its way to the leader; absent: upgrades
   * and requests are all relayed to the leader.
   */
  attachPush?: (server: Server, edge: { pool: pg.Pool; send: SendToLeader }) => Promise<EdgeAttached>;
}

export interface EdgeAttached {
  /** Takes a request it serves; false leaves it to be forwarded as it is. */
  handle?(request: IncomingMessage, response: ServerResponse): boolean;
  close(): Promise<void>;
}

export interface RunningEdge {
  url: string;
  /** The leader requests go to now (null: none live). */
  leader(): string | null;
  close(): Promise<void>;
}

function refuse(response: ServerResponse, code: '40015' | '40725', msg: string): void {
  if (response.headersSent) return void response.destroy();
  const body = JSON.stringify(failure(code, msg, Date.now()));
  response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
  response.end(body);
}

function forwardedFor(request: IncomingMessage): string {
  return forwardedForEdge({ headers: request.headers, remoteAddress: request.socket.remoteAddress ?? '' });
}

export async function startEdge(settings: EdgeSettings): Promise<RunningEdge> {
  const pool = new pg.Pool({
    connectionString: settings.databaseUrl,
    // The lease look-up and the shared rate limits' statements, one each.
    max: 3,
    application_name: 'bourse edge',
  });
  pool.on('error', () => undefined);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let leader: string | null = null;
  let closed = false;
  const lookUp = async (): Promise<string | null> => {
    try {
      const holder = await leaseHolder(pool, settings.cluster.name);
      leader = holder?.live ? holder.url : null;
    } catch {
      leader = null;
    }
    return leader;
  };
  await lookUp().catch(() => null);
  const poll = setInterval(() => void lookUp(), settings.cluster.followEveryMs);

  const forward = (
    request: IncomingMessage,
    body: Buffer,
    response: ServerResponse,
    retried: boolean,
  ): void => {
    const target = leader;
    if (!target) return refuse(response, '40015', 'System is abnormal, please try again later');
    const upstream = httpRequest(
      new URL(request.url ?? '/', target),
      {
        method: request.method,
        headers: { ...request.headers, host: new URL(target).host, 'x-forwarded-for': forwardedFor(request) },
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!retried && NOT_SENT.has(error.code ?? '')) {
        void lookUp().then(() => forward(request, body, response, true));
      } else if (NOT_SENT.has(error.code ?? '')) {
        refuse(response, '40015', 'System is abnormal, please try again later');
      } else {
        void lookUp();
        refuse(response, '40725', 'service return an error');
      }
    });
    upstream.end(body);
  };

  /** A venue request checked by edge-reads.ts, sent to the leader; its answer, to be relayed. */
  const send = relayToLeader(() => leader, lookUp, agent);

  const server: Server = createServer((request, response) => {
    if (attached?.handle?.(request, response)) return;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(request, Buffer.concat(chunks), response, false));
  });
  let attached: EdgeAttached | null = null;
  const push = settings.attachPush ? await settings.attachPush(server, { pool, send }) : null;
  attached = push;
  if (!push)
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      relayUpgrade(request, socket, head, leader),
    );
  const url = await listen(server, settings.host, settings.port);
  return {
    url,
    leader: () => leader,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      agent.destroy();
      await push?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}

/** Relays a WebSocket upgrade, bytes as they are, to the leader. */
function relayUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, leader: string | null): void {
  socket.on('error', () => undefined);
  const unavailable = (): void => {
    socket.end(
      'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n',
    );
  };
  if (!leader) return unavailable();
  const target = new URL(leader);
  let connected = false;
  const upstream = connectTcp(Number(target.port || 80), target.hostname, () => {
    connected = true;
    const lines = [`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/1.1`];
    for (let index = 0; index < request.rawHeaders.length; index += 2) {
      const name = request.rawHeaders[index] ?? '';
      if (name.toLowerCase() === 'x-forwarded-for') continue;
      lines.push(`${name}: ${request.rawHeaders[index + 1] ?? ''}`);
    }
    lines.push(`X-Forwarded-For: ${forwardedFor(request)}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  // Refused before anything was relayed: the client is told to retry, as with no leader.
  upstream.on('error', () => (connected ? socket.destroy() : unavailable()));
  socket.on('close', () => upstream.destroy());
  upstream.on('close', () => {
    if (connected) socket.destroy();
  });
}
