/**
 * The operations endpoints, outside the venue API (docs/operations.md): `GET /health` (the
 * process answers), `GET /ready` (startup finished, the engine not rebuilding, the store
 * answering) and `GET /metrics` (Prometheus text format, src/api/metrics.ts). They are not
 * venue endpoints, so they answer small JSON or text of their own rather than the venue's
 * envelope, need no API key or operator token, and are not rate limited or logged.
 *
 * /metrics reveals traffic, not secrets, but traffic is still the operator's business: with
 * BOURSE_METRICS_TOKEN set it answers only `Authorization: Bearer <token>`; unset, only
 * clients on the loopback interface (the default HOST is loopback; a scraper elsewhere gets
 * 403 until a token is set). The operator token is never accepted: a scraper must not hold a
 * credential that can move money.
 *
 * The store check reads the journal's last sequence number (`Store.lastSeq`, one indexed read)
 * with a time limit; one check at a time, so probes arriving while the store hangs wait for
 * the check in flight rather than pile up queries on it.
 */
import { constantTimeEqual } from '../security/secrets.ts';
import type { PlainAnswer, PlainEndpoint } from './app.ts';

export interface MetricsSettings {
  /** false: no /metrics endpoint and nothing recorded (BOURSE_METRICS=off). */
  enabled: boolean;
  /** Bearer token /metrics requires (BOURSE_METRICS_TOKEN); unset: loopback clients only. */
  token: string | undefined;
}

export function parseMetricsSettings(env: NodeJS.ProcessEnv): MetricsSettings {
  const switched = env.BOURSE_METRICS ?? 'on';
  if (switched !== 'on' && switched !== 'off') throw new Error('BOURSE_METRICS must be on or off');
  const token = env.BOURSE_METRICS_TOKEN || undefined;
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new Error('BOURSE_METRICS_TOKEN must be printable ASCII without spaces');
  }
  return { enabled: switched === 'on', token };
}

/** Why the server is not ready, or 'ready'. */
export type ReadinessStatus =
  'ready' | 'starting' | 'recovering' | 'resetting' | 'stopping' | 'store_unreachable';

export interface ReadinessSources {
  /** True while the engine is rebuilt from the store after a failed append. */
  sequencer: { readonly unavailable: boolean };
  store: { lastSeq(): Promise<number> };
  /** Closed while the operator resets the venue (src/admin/reset.ts). */
  gate?: { readonly isOpen: boolean };
  /** How long the store may take to answer the check (default 2 s). */
  storeTimeoutMs?: number;
}

export class Readiness {
  private phase: 'starting' | 'started' | 'stopping' = 'starting';
  private checking: Promise<boolean> | null = null;

  constructor(private readonly sources: ReadinessSources) {}

  /** Startup finished: recovered, seeded, listening, the market started. */
  started(): void {
    if (this.phase === 'starting') this.phase = 'started';
  }

  /** Shutdown began: load balancers should stop sending requests. */
  stopping(): void {
    this.phase = 'stopping';
  }

  async status(): Promise<ReadinessStatus> {
    if (this.phase !== 'started') return this.phase;
    if (this.sources.sequencer.unavailable) return 'recovering';
    if (this.sources.gate && !this.sources.gate.isOpen) return 'resetting';
    return (await this.storeAnswers()) ? 'ready' : 'store_unreachable';
  }

  /** Whether the store answers within its time limit; a check already in flight is shared. */
  private storeAnswers(): Promise<boolean> {
    if (this.checking) return this.checking;
    const timeoutMs = this.sources.storeTimeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const read = this.sources.store.lastSeq().then(
      () => true,
      () => false,
    );
    const checking = Promise.race([read, timedOut]);
    this.checking = checking;
    // The next check starts only once this read settled, even if it took longer than the limit.
    void read.then(() => {
      clearTimeout(timer);
      if (this.checking === checking) this.checking = null;
    });
    return checking;
  }
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.');
}

/** The answer refusing a /metrics request, or null when it may be served. */
export function metricsRefusal(
  token: string | undefined,
  authorization: string | string[] | undefined,
  ip: string,
): PlainAnswer | null {
  if (token !== undefined) {
    const given =
      typeof authorization === 'string' && authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
    if (given && constantTimeEqual(given, token)) return null;
    return {
      status: 401,
      contentType: TEXT_TYPE,
      body: 'GET /metrics needs Authorization: Bearer <BOURSE_METRICS_TOKEN>\n',
    };
  }
  if (isLoopback(ip)) return null;
  return {
    status: 403,
    contentType: TEXT_TYPE,
    body: 'GET /metrics answers loopback clients only; set BOURSE_METRICS_TOKEN to scrape from elsewhere\n',
  };
}

export interface OperationsOptions {
  readiness: Readiness;
  /** The exposition; null when metrics are off (then /metrics is not served). */
  metrics: { render(): Promise<{ contentType: string; text: string }> } | null;
  metricsToken: string | undefined;
}

export function operationsEndpoints(options: OperationsOptions): PlainEndpoint[] {
  const endpoints: PlainEndpoint[] = [
    {
      method: 'GET',
      path: '/health',
      answer: () => ({ status: 200, contentType: JSON_TYPE, body: '{"status":"ok"}' }),
    },
    {
      method: 'GET',
      path: '/ready',
      async answer() {
        const status = await options.readiness.status();
        return {
          status: status === 'ready' ? 200 : 503,
          contentType: JSON_TYPE,
          body: JSON.stringify({ status }),
        };
      },
    },
  ];
  const { metrics } = options;
  if (metrics) {
    endpoints.push({
      method: 'GET',
      path: '/metrics',
      async answer(request) {
        const refusal = metricsRefusal(options.metricsToken, request.headers.authorization, request.ip);
        if (refusal) return refusal;
        const { contentType, text } = await metrics.render();
        return { status: 200, contentType, body: text };
      },
    });
  }
  return endpoints;
}
