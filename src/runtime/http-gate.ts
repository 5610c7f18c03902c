/**
 * The gate in front of the HTTP app: the port is bound before the store is opened, so a port
 * clash stops a first start before anything is made, and the gate answers for the server
 * until it is ready and again once it is stopping.
 *
 * States: `starting` (store recovering, first start seeding) → `open` (requests go to the
 * app) → `stopping` (SIGTERM/SIGINT). While not open every request is refused with
 * SERVER_NOT_READY (HTTP 503, the venue's 40015 "try again later"): nothing was run, so a
 * client may retry it. node:http's answers also say `Connection: close` and `Retry-After`,
 * so a client reconnects rather than reuse a connection of a stopping server, and WebSocket
 * upgrades get a plain 503 until the WebSocket endpoints are attached.
 *
 * `/health` and `/ready` are answered by the gate itself while it is not open (alive, and
 * `{"status":"starting"}` / `{"status":"stopping"}` with 503), so an orchestrator's probes
 * see a server that is recovering rather than a refused connection.
 *
 * While open it counts requests in flight (handed to the app and not yet answered), so a stop
 * can answer what was accepted before it closes the connections (`idle`).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { nodeEdge, type App, type EdgeReply, type EdgeRequest } from '../api/app.ts';
import { failure } from '../api/envelope.ts';
import { wireError } from '../api/error-map.ts';

export type GateState = 'starting' | 'open' | 'stopping';

/** Seconds a refused client is told to wait before retrying. */
const RETRY_AFTER_SECONDS = 1;

export class HttpGate implements App {
  private app: App | null = null;
  private current: GateState = 'starting';
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  /** Requests refused since the stop began. */
  refusedWhileStopping = 0;
  /** Requests in flight when the stop began. */
  inFlightAtStop = 0;

  constructor(private readonly wallNow: () => number) {}

  get state(): GateState {
    return this.current;
  }

  /** Requests go to `app` from now on. */
  open(app: App): void {
    if (this.current !== 'starting') return;
    this.app = app;
    this.current = 'open';
  }

  /** Refuses new requests from now on; `idle()` resolves once those in flight are answered. */
  stop(): void {
    if (this.current === 'stopping') return;
    this.current = 'stopping';
    this.inFlightAtStop = this.inFlight;
  }

  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  serve(request: EdgeRequest, reply: EdgeReply): void {
    const app = this.app;
    if (this.current !== 'open' || app === null) {
      const probe = this.probeAnswer(request.method, request.url);
      if (probe) return reply.send(probe.status, probe.body);
      this.refused();
      reply.send(503, this.refusal(request.url));
      return;
    }
    this.inFlight += 1;
    app.serve(request, new CountedReply(this, reply));
  }

  /** A request in flight was answered or dropped. */
  settled(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  handle(request: IncomingMessage, response: ServerResponse): void {
    if (this.current !== 'open') {
      const probe = this.probeAnswer(request.method ?? '', request.url ?? '/');
      if (probe) {
        response.writeHead(probe.status, { 'content-type': 'application/json' });
        response.end(probe.body);
        return;
      }
      this.refused();
      const json = this.refusal(request.url ?? '/');
      response.writeHead(503, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(json),
        'retry-after': String(RETRY_AFTER_SECONDS),
        connection: 'close',
      });
      response.end(json);
      return;
    }
    const edge = nodeEdge(request, response);
    this.serve(edge.request, edge.reply);
  }

  /** Answers WebSocket upgrades with a 503 until `stopRefusingUpgrades` (the gateway then takes them). */
  refuseUpgrades(server: Server): () => void {
    const refuse = (request: IncomingMessage, socket: Duplex) => {
      const json = this.refusal(request.url ?? '/');
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(json)}\r\nretry-after: ${RETRY_AFTER_SECONDS}\r\n` +
          `connection: close\r\n\r\n${json}`,
      );
    };
    server.on('upgrade', refuse);
    return () => server.off('upgrade', refuse);
  }

  /** The liveness and readiness probes' answers while the app is not taking requests. */
  private probeAnswer(method: string, url: string): { status: number; body: string } | null {
    if (method !== 'GET') return null;
    const path = url.split('?', 1)[0];
    if (path === '/health') return { status: 200, body: '{"status":"ok"}' };
    if (path === '/ready') return { status: 503, body: JSON.stringify({ status: this.current }) };
    return null;
  }

  private refused(): void {
    if (this.current === 'stopping') this.refusedWhileStopping += 1;
  }

  private refusal(url: string): string {
    const dialect = url.startsWith('/api/v3/') ? 'v3' : 'v2';
    const why = this.current === 'stopping' ? 'the server is stopping' : 'the server is starting';
    const wire = wireError('SERVER_NOT_READY', dialect);
    return JSON.stringify(failure(wire.code, `${wire.msg} (${why})`, this.wallNow()));
  }
}

/** A reply that tells the gate, once, that its request is no longer in flight. One object per request, no closures. */
class CountedReply implements EdgeReply {
  private done = false;

  constructor(
    private readonly gate: HttpGate,
    private readonly reply: EdgeReply,
  ) {}

  send(
    status: number,
    json: string,
    contentType?: string,
    headers?: readonly (readonly [string, string])[],
  ): void {
    this.settle();
    this.reply.send(status, json, contentType, headers);
  }

  abort(): void {
    this.settle();
    this.reply.abort();
  }

  private settle(): void {
    if (this.done) return;
    this.done = true;
    this.gate.settled();
  }
}
