/**
 * How an edge sends a venue request it has checked (edge-reads.ts) to the leader, and gets the
 * answer back whole, to be relayed as it came. The outcomes during a failover are the edge's (edge.ts): no live
 * leader or a refused connection, 40015 (nothing was run; a refused connection is first tried
 * once more on the leader looked up again); a connection cut after the request was sent, 40725
 * (the outcome is unknown).
 */
import type { Agent, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { EdgeRequest, Relayed } from '../api/app.ts';
import { failure } from '../api/envelope.ts';
import type { SendToLeader } from './edge-reads.ts';

/** Connection errors that mean the request never reached the leader (safe to send again). */
export const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

export function forwardedForEdge(request: Pick<EdgeRequest, 'headers' | 'remoteAddress'>): string {
  const previous = request.headers['x-forwarded-for'];
  const peer = request.remoteAddress;
  return previous ? `${String(previous)}, ${peer}` : peer;
}

/** The headers a checked request is sent on with: its body goes as the text that was checked. */
function relayHeaders(request: EdgeRequest, rawBody: string, target: string): OutgoingHttpHeaders {
  const { 'transfer-encoding': _chunked, ...headers } = request.headers;
  return {
    ...headers,
    'content-length': String(Buffer.byteLength(rawBody)),
    host: new URL(target).host,
    'x-forwarded-for': forwardedForEdge(request),
  };
}

const REFUSALS = {
  '40015': 'System is abnormal, please try again later',
  '40725': 'service return an error',
} as const;

/** Gathers the leader's answer (or the edge's refusal) for a relayed request. */
class Collector {
  private done = false;

  constructor(private readonly resolve: (relayed: Relayed) => void) {}

  refused(code: '40015' | '40725'): void {
    if (this.done) return;
    this.done = true;
    this.resolve({
      status: 503,
      text: JSON.stringify(failure(code, REFUSALS[code], Date.now())),
      contentType: 'application/json',
      headers: [['retry-after', '1']],
    });
  }

  answer(answer: IncomingMessage): void {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('error', () => this.refused('40725'));
    answer.on('end', () => {
      if (this.done) return;
      this.done = true;
      const headers: [string, string][] = [];
      const retryAfter = answer.headers['retry-after'];
      if (typeof retryAfter === 'string') headers.push(['retry-after', retryAfter]);
      this.resolve({
        status: answer.statusCode ?? 502,
        text: Buffer.concat(chunks).toString('utf8'),
        contentType: answer.headers['content-type'] ?? 'application/json',
        headers,
      });
    });
  }
}

/** `leader()` is the leader's URL now (null: none live); `lookUp` reads the lease again. */
export function relayToLeader(
  leader: () => string | null,
  lookUp: () => Promise<unknown>,
  agent: Agent,
): SendToLeader {
  return (request, rawBody) =>
    new Promise<Relayed>((resolve) => {
      const collect = new Collector(resolve);
      const ask = (retried: boolean): void => {
        const target = leader();
        if (!target) return collect.refused('40015');
        let upstream: ReturnType<typeof httpRequest>;
        try {
          upstream = httpRequest(
            new URL(request.url, target),
            { method: request.method, headers: relayHeaders(request, rawBody, target), agent },
            (answer) => collect.answer(answer),
          );
        } catch {
          // Refused before anything was sent (a header node:http will not write).
          return collect.refused('40015');
        }
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (!retried && NOT_SENT.has(error.code ?? '')) void lookUp().then(() => ask(true));
          else {
            if (!NOT_SENT.has(error.code ?? '')) void lookUp();
            collect.refused(NOT_SENT.has(error.code ?? '') ? '40015' : '40725');
          }
        });
        upstream.end(rawBody);
      };
      ask(false);
    });
}
