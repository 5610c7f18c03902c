/**
 * Read-your-writes over write-behind projections: every read the store serves from its
 * projected tables first waits until the projector has written everything acknowledged when
 * the read arrived (the sequencer's durable sequence number, global, not per account), so a
 * caller always sees what it was answered. The wait is bounded: past it the read fails with
 * ProjectionBehindError, which the API answers with the venue's retryable code.
 *
 * Why the global sequence number: it is one number, read without a lookup, and it covers
 * reads that span accounts (a broker's sub-accounts, an agent's customers, public trades and
 * candles) with the same rule; the price is that a read may wait for other accounts' entries
 * too, at most the projector's lag, which is a few milliseconds of load (docs/performance.md).
 */
import type { Store } from '../ports/store.ts';
import type { Projector } from './projector.ts';

/** The store's reads served from projected tables (every one of them waits). */
export const PROJECTED_READS = [
  'bills',
  'fundingRecords',
  'order',
  'orders',
  'fills',
  'transfers',
  'brokerFunding',
  'agentKyc',
  'commissions',
  'trades',
  'candles',
  'fundingRates',
  'positionSpans',
  'positionHistory',
  'plans',
  'walletRecords',
  'converts',
  'marginLiquidations',
  'plan',
] as const satisfies readonly (keyof Store)[];

/** A read waited longer than its bound for the projector (answered with a retryable code). */
export class ProjectionBehindError extends Error {
  constructor(
    readonly seq: number,
    readonly projected: number,
  ) {
    super(`projection behind: waited for ${seq}, projected up to ${projected}`);
    this.name = 'ProjectionBehindError';
  }
}

/** Default bound of a read's wait for the projector. */
export const DEFAULT_READ_WAIT_MS = 5_000;

/**
 * `store` with its projected reads waiting for `projector` to pass `acknowledgedSeq()` (the
 * sequencer's last durable entry when the read is called). Everything else is the store's own,
 * reached through the prototype (getters included); any member may be replaced on the result.
 */
export function projectedReads<S extends Store>(
  store: S,
  projector: Projector,
  acknowledgedSeq: () => number,
  waitMs = DEFAULT_READ_WAIT_MS,
): S {
  const wrapped = Object.create(store) as S;
  for (const name of PROJECTED_READS) {
    const read = store[name] as (...args: unknown[]) => Promise<unknown>;
    const waiting = async (...args: unknown[]): Promise<unknown> => {
      const seq = acknowledgedSeq();
      if (projector.position < seq && !(await projector.reached(seq, waitMs)))
        throw new ProjectionBehindError(seq, projector.position);
      return read.apply(store, args);
    };
    Object.defineProperty(wrapped, name, {
      value: waiting,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return wrapped;
}
