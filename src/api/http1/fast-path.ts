/**
 * The HTTP/1.1 fast path: plain keep-alive requests (src/api/http1/plain-head.ts) are parsed
 * and answered here, straight on the socket; the first request that is not plain, and the
 * rest of its connection, go to node:http unchanged.
 *
 * Why: node:http's per-request machinery (IncomingMessage and ServerResponse streams, header
 * objects, the parser's callbacks into JavaScript) cost about as much per place-batch request
 * as verifying its signature; a bare server on raw sockets answered 1.6–1.8× the requests of
 * a bare node:http one on this machine (docs/performance.md). node:http stays the parser for
 * everything unusual (chunked bodies, Expect, Upgrade to WebSocket, HTTP/1.0, malformed
 * requests and their 400s), so what clients see does not change: the answer's bytes are
 * node:http's, Date included.
 *
 * How: node:http serves a socket from the listener it registers for 'connection' (the way
 * to hand it a socket, per its documentation, is to emit 'connection'). That listener is
 * taken off the server and called by the fast path when it hands a socket over, with the
 * bytes it read but did not use put back first (`unshift`).
 *
 * Per connection, answers leave in request order however the requests finish (pipelining);
 * reading pauses while 16 answers are pending or the socket's buffer is full. An idle
 * connection closes after the server's keepAliveTimeout, as node:http's do. A request in
 * progress is held to the server's headersTimeout and requestTimeout from its first byte
 * (timeouts.ts): bytes arriving do not extend them, so a client trickling a head or a body
 * gets 408 and a closed connection, as from node:http.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { App, EdgeReply } from '../app.ts';
import { parsePlainHead, type PlainHead } from './plain-head.ts';
import { checkingIntervalMs, requestExpired, timeoutAnswer } from './timeouts.ts';

/** node:http's default limit for a request head (--max-http-header-size). */
const MAX_HEAD_BYTES = 16 * 1024;
/** Pipelined requests answered at once per connection before reading pauses. */
const MAX_PENDING_ANSWERS = 16;
const HEAD_END = Buffer.from('\r\n\r\n');

export interface FastPath {
  /** Connections the fast path holds (not those handed to node:http). */
  readonly connectionCount: number;
  /** Destroys the connections the fast path holds (node:http's: server.closeAllConnections). */
  closeAllConnections(): void;
}

type ConnectionListener = (this: Server, socket: Socket) => void;

let dateSecond = -1;
let dateText = '';

/** The Date header's value, recomputed once a second, as node:http does. */
function httpDate(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

/**
 * `leaveToNode`: request targets always left to node:http (e.g. the console's files, which are not
 * JSON answers); their connection goes to node:http from that request on.
 */
export function installFastPath(
  server: Server,
  app: App,
  maxBodyBytes: number,
  leaveToNode: (url: string) => boolean = () => false,
): FastPath {
  const listeners = server.listeners('connection') as ConnectionListener[];
  const nodeListener = listeners[0];
  if (listeners.length !== 1 || nodeListener === undefined) {
    throw new Error('the HTTP fast path expects node:http as the only connection listener');
  }
  server.removeListener('connection', nodeListener);
  const held = new Set<FastConnection>();
  const handOff = (socket: Socket) => nodeListener.call(server, socket);
  server.on('connection', (socket: Socket) => {
    held.add(
      new FastConnection(socket, app, maxBodyBytes, server.keepAliveTimeout, handOff, held, leaveToNode),
    );
  });
  // One sweep for every connection, as node:http checks its own (connectionsCheckingInterval).
  const sweep = setInterval(
    () => {
      const nowMs = Date.now();
      for (const connection of held) connection.expireStalledRequest(nowMs, server);
    },
    checkingIntervalMs(server.headersTimeout, server.requestTimeout),
  );
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  return {
    get connectionCount() {
      return held.size;
    },
    closeAllConnections() {
      clearInterval(sweep);
      for (const connection of held) connection.socket.destroy();
      held.clear();
    },
  };
}

/** One request's answer, filled in when the app replies; sent once those before it are. */
class Answer implements EdgeReply {
  status = 0;
  json: string | null = null;
  contentType = 'application/json';
  /** Header lines beyond the usual ones ('' or lines each ending in CRLF). */
  extraHeaders = '';

  constructor(private readonly connection: FastConnection) {}

  send(
    status: number,
    json: string,
    contentType?: string,
    headers?: readonly (readonly [string, string])[],
  ): void {
    this.status = status;
    this.json = json;
    if (contentType !== undefined) this.contentType = contentType;
    if (headers) for (const [name, value] of headers) this.extraHeaders += `${name}: ${value}\r\n`;
    this.connection.flush();
  }

  abort(): void {
    this.connection.socket.destroy();
  }
}

class FastConnection {
  private readonly remoteAddress: string;
  private readonly keepAliveHeader: string;
  /** Bytes read and not yet used; `needBytes` of them are wanted before parsing again. */
  private unread: Buffer[] = [];
  private unreadBytes = 0;
  private needBytes = 0;
  private readonly answers: Answer[] = [];
  private paused = false;
  private handingOff = false;
  private ended = false;
  /** Wall ms when the request now being read began (0: none), and whether its head is in. */
  private requestStartedMs = 0;
  private headComplete = false;

  private readonly onData = (chunk: Buffer) => this.read(chunk);
  private readonly onDrain = () => this.resumeIfRoom();
  private readonly onEnd = () => {
    this.ended = true;
    if (this.answers.length === 0) this.socket.end();
  };
  private readonly onTimeout = () => {
    // Only an idle connection closes, as node:http's keepAliveTimeout does; a request that
    // started is held to the head and request timeouts (expireStalledRequest).
    if (this.answers.length > 0 || this.unreadBytes > 0) return;
    this.socket.destroy();
  };
  private readonly onError = () => this.socket.destroy();
  private readonly onClose = () => this.held.delete(this);

  constructor(
    readonly socket: Socket,
    private readonly app: App,
    private readonly maxBodyBytes: number,
    keepAliveTimeoutMs: number,
    private readonly toNode: (socket: Socket) => void,
    private readonly held: Set<FastConnection>,
    private readonly leaveToNode: (url: string) => boolean,
  ) {
    this.remoteAddress = socket.remoteAddress ?? '';
    this.keepAliveHeader =
      keepAliveTimeoutMs > 0 ? `Keep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}\r\n` : '';
    socket.on('data', this.onData);
    socket.on('drain', this.onDrain);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
    if (keepAliveTimeoutMs > 0) {
      socket.setTimeout(keepAliveTimeoutMs);
      socket.on('timeout', this.onTimeout);
    }
  }

  private read(chunk: Buffer): void {
    this.unread.push(chunk);
    this.unreadBytes += chunk.length;
    if (!this.handingOff && !this.paused && this.unreadBytes >= this.needBytes) this.parse();
  }

  /** Serves the whole requests read so far, until 16 answers are pending. */
  private parse(): void {
    const data = this.unread.length === 1 ? (this.unread[0] as Buffer) : Buffer.concat(this.unread);
    this.unread = [];
    this.unreadBytes = 0;
    this.needBytes = 0;
    let offset = 0;
    while (offset < data.length && this.answers.length < MAX_PENDING_ANSWERS) {
      const headEnd = data.indexOf(HEAD_END, offset);
      if (headEnd < 0 || headEnd - offset > MAX_HEAD_BYTES) {
        if (headEnd >= 0 || data.length - offset > MAX_HEAD_BYTES) return this.handOff(data.subarray(offset));
        break;
      }
      const head = parsePlainHead(data.toString('latin1', offset, headEnd), this.maxBodyBytes);
      if (head === null || this.leaveToNode(head.url)) return this.handOff(data.subarray(offset));
      const bodyStart = headEnd + HEAD_END.length;
      const end = bodyStart + head.contentLength;
      if (end > data.length) {
        this.needBytes = end - offset;
        break;
      }
      this.dispatch(head, head.contentLength === 0 ? '' : data.toString('utf8', bodyStart, end));
      offset = end;
    }
    if (offset < data.length) {
      this.unread.push(data.subarray(offset));
      this.unreadBytes = data.length - offset;
      if (this.requestStartedMs === 0) this.requestStartedMs = Date.now();
      this.headComplete = this.needBytes > 0;
    }
    if (this.answers.length >= MAX_PENDING_ANSWERS) this.pause();
  }

  /**
   * Answers 408 and closes when the request being read has outlived the head or request
   * timeout. Not while answers are pending: then the wait is the server's, not the client's.
   */
  expireStalledRequest(nowMs: number, server: Server): void {
    if (this.requestStartedMs === 0 || this.answers.length > 0 || this.handingOff) return;
    if (!requestExpired(this.requestStartedMs, this.headComplete, nowMs, server)) return;
    const { socket } = this;
    this.held.delete(this);
    socket.off('data', this.onData);
    socket.end(timeoutAnswer(nowMs), () => socket.destroy());
    // A peer that reads nothing must not keep the socket either.
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private dispatch(head: PlainHead, body: string): void {
    this.requestStartedMs = 0;
    const answer = new Answer(this);
    this.answers.push(answer);
    this.app.serve(
      { method: head.method, url: head.url, headers: head.headers, remoteAddress: this.remoteAddress, body },
      answer,
    );
  }

  /** Sends the answers that are ready, in request order. */
  flush(): void {
    const { socket } = this;
    let first = this.answers[0];
    while (first !== undefined && first.json !== null) {
      this.answers.shift();
      if (!socket.destroyed) socket.write(this.responseText(first));
      first = this.answers[0];
    }
    // A client that does not read its answers stops being read from ('drain' resumes).
    if (socket.writableNeedDrain) this.pause();
    if (this.answers.length > 0) return;
    if (this.handingOff) this.completeHandOff();
    else if (this.ended) socket.end();
    else this.resumeIfRoom();
  }

  /** node:http's bytes for `response.writeHead(status, {content-type, content-length}); end(json)`. */
  private responseText({ status, contentType, json, extraHeaders }: Answer): string {
    return (
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: ${contentType}\r\n` +
      `content-length: ${Buffer.byteLength(json ?? '')}\r\n${extraHeaders}Date: ${httpDate(Date.now())}\r\n` +
      `Connection: keep-alive\r\n${this.keepAliveHeader}\r\n${json ?? ''}`
    );
  }

  private pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.socket.pause();
  }

  private resumeIfRoom(): void {
    if (!this.paused || this.handingOff) return;
    if (this.answers.length >= MAX_PENDING_ANSWERS || this.socket.writableNeedDrain) return;
    this.paused = false;
    this.socket.resume();
    // Requests read before the pause and not served yet.
    if (this.unreadBytes > 0 && this.unreadBytes >= this.needBytes) this.parse();
  }

  /** Stops reading; once the answers before it are sent, the socket goes to node:http. */
  private handOff(rest?: Buffer): void {
    this.handingOff = true;
    if (rest !== undefined) {
      this.unread = [rest];
      this.unreadBytes = rest.length;
    }
    this.socket.pause();
    if (this.answers.length === 0) this.completeHandOff();
  }

  private completeHandOff(): void {
    const { socket } = this;
    socket.off('data', this.onData);
    socket.off('drain', this.onDrain);
    socket.off('end', this.onEnd);
    socket.off('error', this.onError);
    socket.off('close', this.onClose);
    socket.off('timeout', this.onTimeout);
    socket.setTimeout(0);
    this.held.delete(this);
    // A client that half-closed while answers were pending cannot be handed on (node:http
    // would never see its end); its unusual request is dropped with the connection.
    if (this.ended || socket.destroyed) {
      socket.destroy();
      return;
    }
    if (this.unreadBytes > 0) socket.unshift(Buffer.concat(this.unread, this.unreadBytes));
    this.unread = [];
    this.unreadBytes = 0;
    this.toNode(socket);
    socket.resume();
  }
}
